import Type from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { RouteApp } from '../core/route-app.js';
import { ApiError } from '../core/errors.js';
import { StringEnum, errorResponses } from '../core/schemas.js';
import { sameSecret } from '../core/secrets.js';
import type { Config } from '../config.js';
import type { Protection } from './service.js';

/** API keys, managed with the admin token (SVC_ADMIN_TOKEN): create, list, revoke. */
export function addAdminKeyRoutes(app: RouteApp, protection: Protection, config: Config): void {
  const requireAdmin = async (request: FastifyRequest) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!config.adminToken || !token || !sameSecret(token, config.adminToken))
      throw new ApiError('forbidden', 'admin token missing or wrong');
  };
  const KeyInfo = Type.Object({
    id: Type.String(),
    name: Type.String(),
    tier: Type.String(),
    created_at: Type.Integer(),
    revoked_at: Type.Union([Type.Integer(), Type.Null()]),
  });

  app.post(
    '/api/v1/admin/keys',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['protection'],
        summary: 'Create an API key (admin; the key is shown once)',
        description:
          'Authorization: Bearer <SVC_ADMIN_TOKEN>. Clients send the key as `X-API-Key: svc_key_…` (or `Authorization: Bearer svc_key_…`).',
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 100 }),
          tier: Type.Optional(StringEnum(['standard', 'pro'] as const, { default: 'standard' })),
        }),
        response: {
          200: Type.Object({ id: Type.String(), key: Type.String(), name: Type.String(), tier: Type.String() }),
          ...errorResponses(400, 403),
        },
      },
    },
    async (request) => protection.createKey(request.body.name, request.body.tier ?? 'standard'),
  );

  app.get(
    '/api/v1/admin/keys',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['protection'],
        summary: 'List API keys (admin; no secrets)',
        response: { 200: Type.Object({ keys: Type.Array(KeyInfo) }), ...errorResponses(403) },
      },
    },
    async () => ({ keys: await protection.listKeys() }),
  );

  app.delete(
    '/api/v1/admin/keys/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['protection'],
        summary: 'Revoke an API key (admin)',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: Type.Object({ id: Type.String(), revoked: Type.Boolean() }), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      if (!(await protection.revokeKey(request.params.id))) throw new ApiError('not_found', 'no active key with this id');
      return { id: request.params.id, revoked: true };
    },
  );
}
