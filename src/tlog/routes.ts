import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import type { Deps } from '../deps.js';
import type { RouteApp } from '../core/route-app.js';
import { ApiError } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';
import { parseTileIndex, TILE_WIDTH } from './tiles.js';

const TEXT = 'text/plain; charset=utf-8';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A partial tile never changes either, but the full one replaces it for clients: kept a day. */
const PARTIAL = 'public, max-age=86400';
/** The checkpoint moves every SVC_LOG_CHECKPOINT_INTERVAL_MS: a few seconds of caching bounds the load without hiding it for long. */
const CHECKPOINT = 'public, max-age=2';

const TextBody = (description: string) => Type.String({ description });
const tags = ['transparency log'];
const TILE_LEVEL = /^(0|[1-9]\d?)$/;

/**
 * The transparency log's read API (c2sp.org/tlog-tiles at height 8, c2sp.org/tlog-proof) and its verifier key. Tiles
 * and bundles are read from the store, up to the latest integrated checkpoint.
 */
export const tlogRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    const log = deps.tlog;
    addCheckpointRoutes(app, log);
    addTileRoute(app, log);
    addProofRoute(app, log);
  };

type Log = Deps['tlog'];

/** The log's head: the key that verifies its checkpoints, and the latest checkpoint the witnesses cosigned. */
function addCheckpointRoutes(app: RouteApp, log: Log): void {
  app.get(
    '/log/key',
    {
      schema: {
        tags,
        summary: 'The checkpoint verifier key: `<origin>+<key id>+<base64(0x01 ‖ Ed25519 key)>`',
        response: { 200: TextBody('one line') },
      },
    },
    async (_request, reply) => reply.type(TEXT).header('cache-control', 'public, max-age=3600').send(`${log.verifierKey}\n`),
  );

  app.get(
    '/log/checkpoint',
    {
      schema: {
        tags,
        summary: 'The latest checkpoint (c2sp.org/tlog-checkpoint signed note), with the witnesses’ cosignatures as extra signature lines',
        description:
          'With SVC_LOG_WITNESS_QUORUM > 0 only a checkpoint with that many cosignatures is served. The tree is read as c2sp.org/tlog-tiles ' +
          '(height 8): `/log/tile/<L>/<N>[.p/<W>]` hash tiles and `/log/tile/entries/<N>[.p/<W>]` entry bundles (each entry, a receipt’s RFC 8785 ' +
          'canonical JSON, as a big-endian uint16 length and its bytes), N in 3-digit path elements prefixed with `x` but the last (x001/x234/067); ' +
          'application/octet-stream, full tiles immutable; 404 for a tile the latest checkpoint does not hold.',
        response: { 200: TextBody('signed note'), ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      const published = (await log.published()) ?? (await log.integrate().then(() => log.published()));
      if (!published)
        throw new ApiError('service_unavailable', 'no checkpoint is published yet (it waits for the witness quorum); try again shortly');
      return reply.type(TEXT).header('cache-control', CHECKPOINT).send(published.note);
    },
  );
}

/** The tiles below the checkpoint (hashes and entries), immutable once full. */
function addTileRoute(app: RouteApp, log: Log): void {
  app.get(
    '/log/tile/*',
    {
      schema: {
        // OpenAPI has no parameter spanning path segments: the tiles are described in /log/checkpoint's entry.
        hide: true,
        tags,
        summary: 'A tile of hashes (`/log/tile/<L>/<N>[.p/<W>]`) or an entry bundle (`/log/tile/entries/<N>[.p/<W>]`), c2sp.org/tlog-tiles',
        description:
          'N is written in 3-digit path elements, all but the last prefixed with `x` (x001/x234/067). An entry bundle holds each entry (a receipt’s ' +
          'RFC 8785 canonical JSON) as a big-endian uint16 length and its bytes. 404 for a tile the latest checkpoint does not hold.',
        params: Type.Object({ '*': Type.String() }),
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'application/octet-stream' }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const [level = '', ...rest] = request.params['*'].split('/');
      const ref =
        level === 'entries' || TILE_LEVEL.test(level)
          ? parseTileIndex(level === 'entries' ? level : Number(level), rest.join('/'))
          : undefined;
      if (!ref) throw new ApiError('not_found', 'not a tile path: /log/tile/<L>/<N>[.p/<W>] or /log/tile/entries/<N>[.p/<W>]');
      const tile = await log.tile(ref);
      if (!tile) throw new ApiError('not_found', 'the log’s latest checkpoint does not hold this tile (yet)');
      return reply
        .type('application/octet-stream')
        .header('cache-control', ref.width === TILE_WIDTH ? IMMUTABLE : PARTIAL)
        .send(tile);
    },
  );
}

/** A logged receipt's portable inclusion proof. */
function addProofRoute(app: RouteApp, log: Log): void {
  app.get(
    '/api/v1/receipt/proof',
    {
      schema: {
        tags: ['receipts'],
        summary: 'The portable inclusion proof (c2sp.org/tlog-proof) of a logged receipt, against the latest published checkpoint',
        description:
          'Text: `c2sp.org/tlog-proof@v1`, `index N`, the inclusion proof one base64 hash a line, an empty line, then the checkpoint. 404 while the ' +
          'entry is not yet in a published checkpoint (checkpoints follow every SVC_LOG_CHECKPOINT_INTERVAL_MS).',
        querystring: Type.Object({ index: Type.String({ maxLength: 16, description: 'the receipt’s `log.index`' }) }),
        response: { 200: TextBody('.tlog-proof'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { index: text } = request.query;
      if (!/^(0|[1-9]\d{0,14})$/.test(text))
        throw new ApiError('bad_request', 'index: must be a log index, a non-negative integer without leading zeros', { field: 'index' });
      const proof = await log.proof(Number(text));
      if (proof === undefined)
        throw new ApiError('not_found', `entry ${text} is not in a published checkpoint yet; try again after the next checkpoint`);
      return reply.type(TEXT).header('cache-control', 'no-cache').send(proof);
    },
  );
}
