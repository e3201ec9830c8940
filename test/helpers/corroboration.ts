import type { Simulator } from '../../src/demo/simulator.js';

/**
 * crypto-price corroborates CoinGecko with Kraken and Coinbase (the other USD sources). Suites that move CoinGecko's
 * recorded price alone fail those two, so CoinGecko's value is the row's price (`single_source`) as it moves.
 */
export function coinGeckoAlone(sim: Simulator): void {
  for (const host of ['kraken', 'coinbase-exchange']) sim.fault(host, { kind: 'status', status: 503 });
}

/** A source's entry in a row's `corroboration` block, as the contract names its fields (docs/corroboration.md). */
export interface SourceVerdict {
  source: string;
  value?: number;
  quote?: string;
  as_of?: number;
  used: boolean;
  reason?: string;
  error?: string;
}

/** A row's `corroboration` block. */
export interface CorroborationBlock {
  status: string;
  quorum: number;
  spread_bps: number;
  sources: SourceVerdict[];
}
