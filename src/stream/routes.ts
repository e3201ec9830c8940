import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { StreamHub, type Tick } from './hub.js';
import { StreamPoller } from './poller.js';

const HEARTBEAT_MS = 15_000;

const frame = (tick: Tick) => `id: ${tick.id}\ndata: ${JSON.stringify(tick.data)}\n\n`;

export const streamRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { deps } = ctx;
  const hub = new StreamHub(deps.bus);
  const watch = deps.config.streamWatch.filter((w) => deps.registry.get(w.type));
  const poller = new StreamPoller(watch, deps.sources, hub, deps.clock);
  ctx.jobs.push({ name: 'stream-poller', everyMs: deps.config.streamPollS * 1000, run: () => poller.poll() });
  app.addHook('onReady', () => hub.start());
  app.addHook('onClose', () => hub.stop());

  app.get(
    '/api/data/stream',
    {
      schema: {
        tags: ['data'],
        summary: 'Live data ticks (server-sent events)',
        description:
          `Each message is \`id: <id>\` + \`data: {type, ...fields}\` + a blank line; a comment heartbeat is sent every ${HEARTBEAT_MS / 1000} s. ` +
          `Ticks come from a poller over the configured watch list (SVC_STREAM_WATCH: ${deps.config.streamWatch.map((w) => `${w.type} ${w.q}`).join('; ')}), ` +
          'every instance relays every tick (Redis bus). Reconnect with `Last-Event-ID` to resume from the last 500 ticks. ' +
          `Anonymous clients may hold ${deps.config.streamMaxPerIp} concurrent streams per IP (429 beyond); pass holders are unlimited.`,
        response: { 200: Type.String({ description: 'text/event-stream' }), ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const unlimited = await ctx.payments.hasPass(request);
      if (!unlimited && !hub.admit(request.ip, deps.config.streamMaxPerIp)) {
        throw new ApiError('rate_limited', `at most ${deps.config.streamMaxPerIp} concurrent streams per IP without a pass`, { limit: deps.config.streamMaxPerIp });
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      res.write(': connected\n\n');
      for (const tick of hub.replayAfter(request.headers['last-event-id'] as string | undefined)) res.write(frame(tick));
      const stopListening = hub.listen((tick) => res.write(frame(tick)));
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
      request.raw.on('close', () => {
        clearInterval(heartbeat);
        stopListening();
        if (!unlimited) hub.release(request.ip);
      });
    },
  );
};
