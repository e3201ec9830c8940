import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/**
 * The instance a feature's route plugin receives (TypeBox types). A plugin too long to read in one sitting hands it to
 * functions that each add one resource's routes, in order, to the same instance: no new encapsulation context.
 */
export type RouteApp = Parameters<FastifyPluginAsyncTypebox>[0];
