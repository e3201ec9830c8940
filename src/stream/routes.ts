import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { EventStream, StringEnum, errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { ReplayHub, TICKS_CHANNEL } from './hub.js';
import { StreamPoller } from './poller.js';
import { ConcurrencyLimiter } from '../protection/concurrency.js';
import { answeredHead, openLiveStream, type LiveStream } from './sse.js';

const HEARTBEAT_MS = 15_000;
const REPLAY = 500;

export const streamRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const hub = new ReplayHub(deps.bus, TICKS_CHANNEL, { replay: REPLAY, latest: 0 });
    const watch = deps.config.streamWatch.filter((w) => deps.registry.get(w.type));
    const poller = new StreamPoller(watch, deps.sources, deps.bus);
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

    app.get(
      '/api/data/stream',
      {
        schema: {
          tags: ['data'],
          summary: 'Live data ticks (server-sent events)',
          description:
            `Opens with the comment \`: ok\`; each message is \`id: <id>\` + \`data: {type, ...fields}\` + a blank line; a comment heartbeat is sent every ${HEARTBEAT_MS / 1000} s. ` +
            `Ticks come from a poller over the configured watch list (SVC_STREAM_WATCH: ${deps.config.streamWatch.map((w) => `${w.type} ${w.q}`).join('; ')}), ` +
            `every instance relays every tick (Redis bus). Reconnect with \`Last-Event-ID\` to resume from the last ${REPLAY} ticks. HEAD answers the headers only. ` +
            `Anonymous clients may hold ${deps.config.streamMaxPerIp} concurrent streams per IP (429 beyond), counted across every instance; pass holders are unlimited.`,
          response: {
            200: EventStream(
              Type.Object(
                { type: StringEnum(deps.registry.types(), { description: 'the data type' }) },
                { title: 'StreamTick', additionalProperties: true, description: "one tick: the type's row fields next to `type`" },
              ),
              'Live ticks as server-sent events',
            ),
            ...errorResponses(429),
          },
        },
      },
      async (request, reply) => {
        if (answeredHead(request, reply)) return reply;
        const unlimited = await ctx.payments.hasPass(request);
        const slot = unlimited ? undefined : await limiter.acquire([{ key: `stream-ip:${request.ip}`, limit: deps.config.streamMaxPerIp }]);
        if (slot && 'full' in slot) {
          throw new ApiError('rate_limited', `at most ${deps.config.streamMaxPerIp} concurrent streams per IP without a pass`, {
            limit: deps.config.streamMaxPerIp,
          });
        }
        const stream = openLiveStream(request, reply, HEARTBEAT_MS);
        open.add(stream);
        for (const tick of hub.replayAfter(request.headers['last-event-id'] as string | undefined) ?? []) stream.send(tick.frame);
        const stopListening = hub.listen((tick) => stream.send(tick.frame));
        stream.onClose(() => {
          open.delete(stream);
          stopListening();
          void slot?.lease.release();
        });
      },
    );
  };
