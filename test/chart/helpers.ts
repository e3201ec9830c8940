import type { FastifyInstance } from 'fastify';
import { ModelFakes, type FakeCall } from '../fakes/models.js';
import { startTestApp } from '../helpers/app.js';
import { ManualClock } from '../../src/core/clock.js';
import { startDemoSimulator } from '../../src/demo/simulator.js';

/** The four vendor fakes with one model name per vendor, so a responder can answer each model differently. */
export async function startVisionFakes(): Promise<{ fakes: ModelFakes; env: Record<string, string> }> {
  const fakes = await new ModelFakes().start();
  const entries = fakes.specs().map((s) => ({
    id: s.id.replace('demo-', 'vision-'),
    vendor: s.vendor,
    model: `vision-${s.vendor}`,
    base_url: s.baseUrl,
    vision: true,
  }));
  return { fakes, env: { SVC_MODELS: JSON.stringify(entries) } };
}

/**
 * The app with the four vision fakes, and Binance klines generated on the test's clock so candles exist
 * for the hours a test moves through. `close` stops all three.
 */
export async function startChartApp() {
  const { fakes, env } = await startVisionFakes();
  const clock = new ManualClock();
  const sim = await startDemoSimulator(1, clock);
  const t = await startTestApp({ env, sim, clock });
  const close = async () => {
    await t.close();
    await sim.close();
    await fakes.close();
  };
  return { t, fakes, sim, close };
}

/** The base64 image each wire format carried (OpenAI image_url data URL, Anthropic source.data, Gemini inlineData.data). */
export function sentImage(call: FakeCall): Buffer | undefined {
  const parts = JSON.stringify(call.body);
  const match = /"url":"data:image\/png;base64,([^"]+)"|"data":"([A-Za-z0-9+/=]{40,})"/.exec(parts);
  const b64 = match?.[1] ?? match?.[2];
  return b64 ? Buffer.from(b64, 'base64') : undefined;
}

/** A multipart/form-data body: the file under `fileField`, then the text fields. */
export function form(file: Buffer, fields: Record<string, string> = {}, fileField = 'image', fileType = 'image/png') {
  const boundary = 'svcChartBoundary7MA4YWxk';
  const head = (name: string, extra = '') => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`;
  const parts = [Buffer.from(`${head(fileField, '; filename="chart.png"')}Content-Type: ${fileType}\r\n\r\n`), file, Buffer.from('\r\n')];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`${head(name)}\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const analyzeForm = (app: FastifyInstance, file: Buffer, fields: Record<string, string> = {}, fileField?: string) =>
  app.inject({ method: 'POST', url: '/api/v1/chart/analyze', ...form(file, fields, fileField) });

export const analyzeJson = (app: FastifyInstance, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/v1/chart/analyze', payload: body });

export const verdict = (signal: 'buy' | 'sell' | 'hold', confidence: number, extra: Record<string, unknown> = {}) => ({
  trend: signal === 'buy' ? 'up' : signal === 'sell' ? 'down' : 'sideways',
  signal,
  confidence,
  horizon: '1-3 days',
  levels: { support: [100, 95.5], resistance: [120] },
  patterns: ['double bottom'],
  rationale: 'Higher lows after a retest of support.',
  ...extra,
});
