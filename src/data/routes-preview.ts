import Type from 'typebox';
import { unixSeconds } from '../core/clock.js';
import { FreeFlag, RowSchema, StringEnum, errorResponses } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { failureReasonList } from '../plugins/openapi-info.js';
import { parseAsOf } from './service.js';
import type { DataParts } from './routes.js';

/** GET /api/data/preview: one row of any type, free; hot answers are served before the route runs and kept after it. */
export function addPreviewRoute(app: RouteApp, { ctx, types, previews, hot }: DataParts): void {
  const { deps } = ctx;
  app.get(
    '/api/data/preview',
    {
      config: { signed: true },
      onRequest: hot.serve,
      schema: {
        tags: ['data'],
        summary: 'Free one-row preview of any data type',
        description:
          'Returns the first normalized row with `_receipt` and `_cursor`. `since=<cursor>` answers `{changed:false, _cursor}` when nothing moved, ' +
          'else the full response with `changed:true` and `diff {added, removed, updated}` over all rows. `as_of` (Unix seconds or ISO 8601, within the ' +
          'last 60 minutes) answers from recorded history (404 `no_history` when none). `max_age` bounds staleness in seconds; 0 forces a fresh fetch. ' +
          `Upstream failure is a 200 with \`ok:false\` and \`error\` in ${failureReasonList()} (each explained under Errors above). ` +
          '`skipped_items` counts malformed items of a long upstream list that were left out of an `ok:true` answer. ' +
          'A plain preview served from a fresh cached value carries an `ETag`; `If-None-Match` with it answers 304 while that value is current. ' +
          'Its signed bytes are reused until the value changes, passes its TTL or the second ends (rows say their `age_s` in whole seconds), so ' +
          '`_receipt.issued_at` is when that body was signed (at or after `as_of`), not the time of each request; the receipt still verifies ' +
          'against this exact request and body.',
        querystring: Type.Object({
          type: StringEnum(types, { description: 'data type (see /api/v1/catalog)' }),
          q: Type.Optional(Type.String({ maxLength: 2048, description: 'query in the type’s q shape' })),
          entity: Type.Optional(Type.String({ maxLength: 200, description: 'entity id (svc-ent:…); translated to q' })),
          as_of: Type.Optional(Type.String({ maxLength: 40, description: 'Unix seconds or ISO 8601, within the last 60 minutes' })),
          since: Type.Optional(Type.String({ maxLength: 2048, description: 'a _cursor from an earlier preview' })),
          max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, description: 'maximum age of a cached value in seconds' })),
          free: FreeFlag,
        }),
        response: {
          200: Type.Object(
            {
              ok: Type.Boolean(),
              type: Type.Optional(Type.String()),
              q: Type.Optional(Type.String()),
              preview: Type.Optional(RowSchema),
              changed: Type.Optional(Type.Boolean()),
              diff: Type.Optional(
                Type.Object({ added: Type.Array(RowSchema), removed: Type.Array(RowSchema), updated: Type.Array(RowSchema) }),
              ),
              _cursor: Type.Optional(Type.String({ description: 'svc-cur:<opaque>' })),
            },
            { additionalProperties: true },
          ),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const q = query.entity !== undefined ? await ctx.entityToQ(query.type, query.entity, query.q) : query.q;
      const asOf = query.as_of === undefined ? undefined : parseAsOf(query.as_of, unixSeconds(deps.clock));
      const { body, keepable } = await previews.answer({ type: query.type, q, since: query.since, asOf, maxAgeS: query.max_age });
      if (keepable) reply.keepAnswer = (bytes) => hot.keep(request.url, bytes, keepable);
      return body;
    },
  );
}
