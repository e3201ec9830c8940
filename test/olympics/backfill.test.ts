import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { ModelFakes } from '../fakes/models.js';
import { createOlympics, runBackfill } from '../../src/olympics/routes.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startPanel } from './helpers.js';

type Kline = [number, string, string, string, string];
const fixture = JSON.parse(readFileSync(new URL('../../src/sources/fixtures/ta-indicators.json', import.meta.url), 'utf8')) as {
  exchanges: { host: string; body: Kline[] }[];
};
/** The simulator's BTCUSDT hourly klines, by close time (Unix s). */
const closes = new Map(fixture.exchanges.find((e) => e.host === 'binance')!.body.map((k) => [k[0] / 1000 + 3600, Number(k[4])]));

let t: TestApp;
let fakes: ModelFakes;
let base: string;
beforeAll(async () => {
  const panel = await startPanel();
  fakes = panel.fakes;
  t = await startTestApp({ env: panel.env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  await fakes.close();
});

/** Reads a server-sent event stream until `until` appears in it. */
async function readStream(response: Response, until: string): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(until)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  await reader.cancel();
  return text;
}

describe('olympics backfill', () => {
  it('replays history as backfill events graded from the candles, kept out of live standings, and streams the ticker', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${base}/api/v1/olympics/ticker`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const nowS = Math.floor(t.clock.now() / 1000);
    const played = runBackfill(t.deps, await createOlympics(t.app, t.deps), nowS - 5 * 86_400, nowS);
    const ticks = await readStream(stream, 'data: {"kind":"medal"');
    controller.abort();
    expect(await played).toBeGreaterThan(0);
    expect(ticks.startsWith(': ok\n\n')).toBe(true);
    expect(ticks).not.toMatch(/^event:/m);
    for (const kind of ['opened', 'answered', 'resolved', 'medal'])
      expect(ticks).toMatch(new RegExp(`^id: \\S+\\ndata: \\{"kind":"${kind}"`, 'm'));
    // Reconnecting with Last-Event-ID replays what followed that message.
    const [first, second] = [...ticks.matchAll(/^id: (\S+)\ndata: (.*)$/gm)].map((m) => ({ id: m[1]!, data: m[2]! }));
    const resumed = await fetch(`${base}/api/v1/olympics/ticker`, { headers: { 'last-event-id': first!.id } });
    const replayed = await readStream(resumed, `id: ${second!.id}\n`);
    expect(replayed).toContain(`id: ${second!.id}\ndata: ${second!.data}\n\n`);
    expect(replayed).not.toContain(`id: ${first!.id}\n`);

    const page = (await t.app.inject({ url: '/api/v1/olympics/events', query: { mode: 'backfill', limit: '100' } })).json();
    const btc = page.events.filter((e: { question: string }) => e.question.startsWith('Will BTCUSDT'));
    expect(btc.length).toBeGreaterThanOrEqual(3);
    for (const event of btc) {
      const detail = (await t.app.inject(`/api/v1/olympics/events/${event.id}`)).json();
      const { close_at, threshold } = detail.resolver.config;
      expect(detail).toMatchObject({ mode: 'backfill', status: 'resolved', resolver: { type: 'candle_close_above' } });
      expect(threshold).toBe(closes.get(close_at - 86_400));
      expect(detail.outcome).toBe(closes.get(close_at)! > threshold ? 1 : 0);
      // No look-ahead: the shown candles all closed by the time the question is put.
      expect(Math.max(...detail.data[0].rows.map((c: { t: number }) => c.t + 3600))).toBe(detail.opened_at / 1000);
      expect(detail.answers.map((a: { status: string }) => a.status).sort()).toEqual(['answered', 'answered', 'answered', 'failed']);
    }

    expect((await t.app.inject('/api/v1/olympics/medals')).json()).toMatchObject({ mode: 'live', resolved_events: 0 });
    const backfill = (await t.app.inject('/api/v1/olympics/medals?mode=backfill')).json();
    expect(backfill.resolved_events).toBe(page.events.length);
    expect(backfill.medal_table[0].gold).toBeGreaterThan(0);
    const claims = await t.deps.store.db.selectFrom('calib_claims').selectAll().where('agent_id', '=', 'olympics:m-openai').execute();
    expect(claims.every((c) => c.kind === 'crypto-backfill' && c.status === 'resolved')).toBe(true);

    const mcp = new Client({ name: 'olympics-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?toolsets=arena`)));
    const tool = await mcp.callTool({ name: 'olympics_standings', arguments: { mode: 'backfill' } });
    await mcp.close();
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent).toMatchObject({
      mode: 'backfill',
      resolved_events: backfill.resolved_events,
      medal_table: backfill.medal_table,
    });

    const again = await runBackfill(t.deps, await createOlympics(t.app, t.deps), nowS - 5 * 86_400, nowS);
    expect(again).toBe(0); // the same history is never played twice
  });
});
