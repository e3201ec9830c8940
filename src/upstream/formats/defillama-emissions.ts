import Type from 'typebox';

/** DefiLlama's emissions files (`defillama-datasets.llama.fi/emissions/<slug>`): unlock events with cliff and linear allocations. */
export interface Unlock {
  timestamp: number;
  amount: number;
  recipients: string[];
  categories: string[];
}

/** Timestamps sometimes arrive as strings; `linear` allocations hold rate changes, not volumes, so only cliffs count. */
export const Emissions = Type.Object({
  name: Type.Optional(Type.String()),
  /** The CoinGecko id of the token, when DefiLlama knows it. */
  gecko_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  metadata: Type.Object({
    unlockEvents: Type.Array(
      Type.Object({
        timestamp: Type.Union([Type.Number(), Type.String()]),
        cliffAllocations: Type.Optional(
          Type.Array(Type.Object({ recipient: Type.String(), category: Type.String(), amount: Type.Number() })),
        ),
      }),
    ),
  }),
  supplyMetrics: Type.Optional(Type.Object({ maxSupply: Type.Optional(Type.Union([Type.Number(), Type.Null()])) })),
});
export type Emissions = Type.Static<typeof Emissions>;

export const fromEmissions = (raw: Emissions): Unlock[] =>
  raw.metadata.unlockEvents.flatMap((e) => {
    const cliffs = e.cliffAllocations ?? [];
    const amount = cliffs.reduce((sum, c) => sum + c.amount, 0);
    const recipients = [...new Set(cliffs.map((c) => c.recipient))];
    return amount > 0
      ? [{ timestamp: Number(e.timestamp), amount, recipients, categories: [...new Set(cliffs.map((c) => c.category))] }]
      : [];
  });

/** `emissionsProtocolsList`: the slugs of the emissions files (not every file is listed). */
export const ProtocolsList = Type.Array(Type.String());
export type ProtocolsList = Type.Static<typeof ProtocolsList>;

/** DefiLlama's file names: the protocol name lower-cased, spaces to hyphens, apostrophes dropped (its `standardizeProtocolName`). */
export const emissionsSlug = (name: string): string => name.toLowerCase().split(' ').join('-').split("'").join('');
