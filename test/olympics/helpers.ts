import type { ModelFakes, FakeCall, FakeReply } from '../fakes/models.js';
import { coinGeckoAlone } from '../helpers/corroboration.js';
import { startModelFakes } from '../fakes/models.js';
import type { Simulator } from '../../src/demo/simulator.js';

export const PANEL = ['m-openai', 'm-anthropic', 'm-google', 'm-mistral'] as const;

/**
 * The scripted panel: openai and mistral say 0.8 (a tie), anthropic 0.6, google answers with a 400
 * (failed), except on the first Berlin question, where it is slower than the deadline (timed out).
 */
export function scriptedPanel(): (call: FakeCall) => FakeReply {
  let lateOnce = true;
  return (call) => {
    const berlin = call.messages.some((m) => m.text.includes('Berlin'));
    if (call.model === 'm-google' && berlin && lateOnce) {
      lateOnce = false;
      return { json: { p: 0.5, rationale: 'late' }, delayMs: 1500 };
    }
    if (call.model === 'm-google') return { status: 400 };
    return { json: { p: call.model === 'm-anthropic' ? 0.6 : 0.8, rationale: `${call.model} reasoning` } };
  };
}

/** Vendor fakes with four panel models named m-<vendor> (so a responder can tell openai from mistral) and the SVC_MODELS value. */
export async function startPanel(): Promise<{ fakes: ModelFakes; env: Record<string, string> }> {
  const { fakes, env } = await startModelFakes();
  const entries = (JSON.parse(env.SVC_MODELS!) as { id: string; vendor: string; model: string }[]).map((e) => ({
    ...e,
    id: `m-${e.vendor}`,
    model: `m-${e.vendor}`,
    roles: ['panel'],
  }));
  fakes.respondWith(scriptedPanel());
  return { fakes, env: { SVC_MODELS: JSON.stringify(entries), SVC_MODEL_DEADLINE_MS: '1000' } };
}

export const COINS = ['bitcoin', 'ethereum', 'solana', 'ripple', 'dogecoin'] as const;

/** CoinGecko answers these USD prices for any ids (the rows keep the asked coins only). */
export function servePrices(sim: Simulator, prices: readonly number[]): void {
  const body = Object.fromEntries(COINS.map((coin, i) => [coin, { usd: prices[i], usd_24h_change: 0, last_updated_at: 1_795_000_000 }]));
  sim.serve({ host: 'coingecko', path: '/api/v3/simple/price', body });
  coinGeckoAlone(sim);
}
