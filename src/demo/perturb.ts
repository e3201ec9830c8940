import type { Market } from './market.js';

/**
 * SVC_DEMO_PERTURB: make one demo source wrong, to watch corroboration leave it out (docs/corroboration.md).
 * `<host>:x<factor>` scales its prices (a decimals bug: x100, x0.01), `<host>:stale` serves the price of ten minutes
 * ago stamped then, `<host>:eur` serves the EUR price labelled USD, `<host>:500` answers HTTP 500. Comma-separated.
 */
export type Perturbation = { kind: 'factor'; factor: number } | { kind: 'stale' } | { kind: 'eur' } | { kind: 'status'; status: number };

/** How far back a `stale` source's price and timestamp are. */
export const STALE_BY_S = 600;

const perturbationOf = (form: string): Perturbation => {
  if (form === 'stale' || form === 'eur') return { kind: form };
  if (form.startsWith('x')) return { kind: 'factor', factor: Number(form.slice(1)) };
  return { kind: 'status', status: Number(form) };
};

export function parsePerturbations(setting: string): Map<string, Perturbation> {
  const entries = setting.split(',').filter(Boolean);
  return new Map(
    entries.map((entry) => {
      const [host = '', form = ''] = entry.split(':');
      return [host, perturbationOf(form)];
    }),
  );
}

/**
 * What a source shows for a USD price at `t` under its perturbation: the price and the instant it claims it for.
 * `usdAt` is the world's true price path.
 */
export function perturbedUsd(market: Market, perturbation: Perturbation | undefined, usdAt: (t: number) => number, t: number) {
  switch (perturbation?.kind) {
    case 'factor':
      return { price: usdAt(t) * perturbation.factor, at: t };
    case 'stale':
      return { price: usdAt(t - STALE_BY_S), at: t - STALE_BY_S };
    case 'eur':
      return { price: usdAt(t) / market.usd('EUR', t), at: t };
    default:
      return { price: usdAt(t), at: t };
  }
}
