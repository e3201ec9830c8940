import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/**
 * `factory`'s serializers, each route's built on its first answer instead of when the route is registered: the same
 * serializers, from the same schemas. A process that answers few routes (idle, or holding session watchers) then keeps no
 * generated code for the others (issue 39: ~3.5 MB of live heap at start). test/core/response-serializers.test.ts builds
 * every route's at start, so a schema fast-json-stringify cannot build fails there rather than on a first answer.
 */
export const lazily =
  (factory: SerializerFactory): SerializerFactory =>
  (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      let serialize: ((payload: unknown) => string) | undefined;
      return (payload) => (serialize ??= compile(route))(payload);
    };
  };

/** Fastify's own serializer factory (fast-json-stringify), lazily. */
export const lazySerializers = lazily(SerializerSelector());
