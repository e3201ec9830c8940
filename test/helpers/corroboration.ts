import type { Simulator } from '../../src/demo/simulator.js';

/**
 * crypto-price corroborates CoinGecko with Kraken and Coinbase (the other USD sources). Suites that move CoinGecko's
 * recorded price alone fail those two, so CoinGecko's value is the row's price (`single_source`) as it moves.
 */
export function coinGeckoAlone(sim: Simulator): void {
  for (const host of ['kraken', 'coinbase-exchange']) sim.fault(host, { kind: 'status', status: 503 });
}

/** A row's `corroboration` block and a source's entry in it, as the service types them. */
export type { Corroboration as CorroborationBlock, SourceVerdict } from '../../src/sources/corroboration.js';
