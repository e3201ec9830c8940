import { AjvCompiler, type ValidatorFactory as FastifyValidatorFactory } from '@fastify/ajv-compiler';

/** What Fastify hands a validator compiler for one part of one route. */
export interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart: string;
}
/** An Ajv validate function, as much of it as Fastify uses. */
type Validate = ((data: unknown, context?: object) => boolean) & { errors?: unknown; schemaEnv?: unknown };
type CompileRoute = (route: RouteSchema) => Validate;
/**
 * Fastify's `schemaController.compilersFactory.buildValidator`, typed as Fastify calls it: its published type has the
 * compiler take a schema, but it is handed the route part (lib/validation.js).
 */
export type ValidatorFactory = (externalSchemas: Record<string, unknown>, options: unknown) => CompileRoute;

/**
 * `factory`'s validators, each route part's compiled on its first request instead of when the route is registered, and
 * the Ajv instance made on the first compile: the same validators, from the same schemas. A start-up compiled all 102,
 * and a process answers few routes: the service listens after ~0.35 CPU-s less (1.9–2.3 → 1.5–1.9) and ~5 MB smaller,
 * and a test app builds in ~80 ms less (the suite builds ~270; issue 38).
 *
 * Fastify reads a validator's `schemaEnv` (to let Ajv coerce the root value in place) and, after a failure, its
 * `errors`: both are read through to the compiled function, so Fastify sees what it would have seen. A schema Ajv
 * cannot compile would fail its route's first request instead of the start-up: test/core/request-validators.test.ts
 * compiles every route's at start. Fastify lower-cases the keys of a header schema only for its own compiler, so a
 * header schema with an upper-case key is refused here rather than silently never matching.
 */
export const lazily =
  (factory: ValidatorFactory): ValidatorFactory =>
  (externalSchemas, options) => {
    let compileRoute: CompileRoute | undefined;
    return (route) => {
      if (route.httpPart === 'headers') refuseUpperCaseKeys(route);
      let validate: Validate | undefined;
      const compiled = () => (validate ??= (compileRoute ??= factory(externalSchemas, options))(route));
      const lazy = (data: unknown, context?: object) => compiled()(data, context);
      Object.defineProperty(lazy, 'schemaEnv', { get: () => compiled().schemaEnv });
      Object.defineProperty(lazy, 'errors', { get: () => compiled().errors });
      return lazy;
    };
  };

function refuseUpperCaseKeys({ schema, method, url }: RouteSchema): void {
  const keys = Object.keys((schema as { properties?: object }).properties ?? {});
  const upper = keys.find((key) => key !== key.toLowerCase());
  if (upper) throw new Error(`${method} ${url}: header schema key "${upper}" must be lower case (Node lower-cases header names)`);
}

/** Fastify's own validator factory (Ajv through @fastify/ajv-compiler), one per app as Fastify makes it. */
export const ajvValidators = () => AjvCompiler() as unknown as ValidatorFactory;

/** `factory` as Fastify's options type it. */
export const asFastifyFactory = (factory: ValidatorFactory) => factory as unknown as FastifyValidatorFactory;
