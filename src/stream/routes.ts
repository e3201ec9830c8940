import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { EventStream, StringEnum, errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import type { SourceRunner } from '../sources/runner.js';
import { ReplayHub, TICKS_CHANNEL, type Framed } from './hub.js';
import { StreamPoller } from './poller.js';
import { ConcurrencyLimiter } from '../cache/concurrency.js';
import { STREAM_ROUTE_CONFIG, answeredHead, openLiveStream, type LiveStream } from './sse.js';
import { watchPlan } from './watch.js';

const HEARTBEAT_MS = 15_000;
/** Ticks kept for Last-Event-ID replay. */
const REPLAY = 500;
/** Ticks kept as the latest answer of their type and q, over all keys; the least recently updated keys go first. */
const LATEST = 5000;
/** Open streams per instance, pass holders included. */
const MAX_CLIENTS = 10_000;

const StreamQuery = Type.Object({
  types: Type.Optional(
    Type.String({ pattern: '^[a-z0-9-]+(,[a-z0-9-]+)*$', maxLength: 2000, description: 'only ticks of these types (comma list)' }),
  ),
  q: Type.Optional(
    Type.String({ minLength: 1, maxLength: 500, description: "only ticks of this query (as the type's answers name it in `q`)" }),
  ),
});

/**
 * Which ticks a client asked for. `q` matches a tick's q as given, or as each wanted type writes it
 * (`BTC` and `btc` are one query of a type whose keys are lower case).
 */
function tickFilter(runner: SourceRunner, types: string[] | undefined, q: string | undefined): (tick: Framed) => boolean {
  const wanted = types && new Set(types);
  const qOf = new Map<unknown, string>();
  if (q !== undefined)
    for (const type of types ?? []) {
      try {
        qOf.set(type, runner.prepare(type, q).key);
      } catch {
        // a q this type refuses: none of its ticks match it
      }
    }
  return ({ data }) => (!wanted || wanted.has(data.type as string)) && (q === undefined || data.q === q || data.q === qOf.get(data.type));
}

export const streamRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const hub = new ReplayHub(deps.bus, TICKS_CHANNEL, { replay: REPLAY, latest: LATEST });
    const plan = watchPlan(deps.registry, deps.config.streamWatch);
    const poller = new StreamPoller(plan, deps.sources, deps.clock);
    ctx.jobs.push({ name: 'stream-poller', everyMs: deps.config.streamPollS * 1000, run: () => poller.poll() });
    app.addHook('onReady', () => hub.start());
    const limiter = new ConcurrencyLimiter(deps.cache, deps.clock);
    const open = new Set<LiveStream>();
    // Before the server waits for its connections: end the streams, which would otherwise never finish.
    app.addHook('preClose', async () => {
      for (const stream of open) stream.end();
    });
    app.addHook('onClose', async () => {
      limiter.close();
      await hub.stop();
    });
    const watched = plan.length === deps.registry.types().length ? 'every type' : `${plan.length} types`;

    app.get(
      '/api/data/stream',
      {
        config: STREAM_ROUTE_CONFIG,
        schema: {
          tags: ['data'],
          summary: 'Live data ticks (server-sent events)',
          description:
            'Opens with the comment `: ok`; each message is `id: <id>` + `data: {type, q, ...row}` + a blank line, one per row of every fresh upstream answer ' +
            '(previews, bundles, agent-context, MCP calls and the poller alike), published once and relayed by every instance (Redis bus). ' +
            `A new client first gets the latest answer of every type and q it asked for, then live ticks; with \`Last-Event-ID\` it resumes from the last ${REPLAY} ticks instead. ` +
            `Filters: \`types\` (comma list) and \`q\`. The poller asks for the catalog examples of ${watched}, each at its own interval (SVC_STREAM_WATCH; docs/streams.md). ` +
            `A comment heartbeat every ${HEARTBEAT_MS / 1000} s; HEAD answers the headers only. ` +
            `Anonymous clients may hold ${deps.config.streamMaxPerIp} concurrent streams per IP (429 beyond), counted across every instance; pass holders are unlimited.`,
          querystring: StreamQuery,
          response: {
            200: EventStream(
              Type.Object(
                {
                  type: StringEnum(deps.registry.types(), { description: 'the data type' }),
                  q: Type.String({ description: 'the query the answer is for' }),
                },
                { title: 'StreamTick', additionalProperties: true, description: "one tick: a row's fields next to `type` and `q`" },
              ),
              'Live ticks as server-sent events',
            ),
            ...errorResponses(400, 429),
          },
        },
      },
      async (request, reply) => {
        if (answeredHead(request, reply)) return reply;
        const types = request.query.types?.split(',');
        const unknown = types?.filter((type) => !deps.registry.get(type));
        if (unknown?.length)
          throw new ApiError('unknown_type', `unknown data type "${unknown[0]}"`, { field: 'types', allowed: deps.registry.types() });
        if (open.size >= MAX_CLIENTS)
          throw new ApiError('rate_limited', 'this instance serves as many streams as it can', { limit: MAX_CLIENTS });
        const unlimited = await ctx.payments.hasPass(request);
        const slot = unlimited ? undefined : await limiter.acquire([{ key: `stream-ip:${request.ip}`, limit: deps.config.streamMaxPerIp }]);
        if (slot && 'full' in slot) {
          throw new ApiError('rate_limited', `at most ${deps.config.streamMaxPerIp} concurrent streams per IP without a pass`, {
            limit: deps.config.streamMaxPerIp,
          });
        }
        const wanted = tickFilter(deps.sources, types, request.query.q?.trim());
        const stream = openLiveStream(reply, HEARTBEAT_MS);
        open.add(stream);
        const first = hub.replayAfter(request.headers['last-event-id'] as string | undefined) ?? hub.current();
        for (const tick of first) if (wanted(tick)) stream.send(tick.frame);
        const stopListening = hub.listen((tick) => wanted(tick) && stream.send(tick.frame));
        stream.onClose(() => {
          open.delete(stream);
          stopListening();
          void slot?.lease.release();
        });
      },
    );
  };
