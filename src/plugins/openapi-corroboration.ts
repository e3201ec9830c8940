import type { JsonSchema } from './openapi-rows.js';

/** The `corroboration` block of price rows (issue 37, docs/corroboration.md): the contract, field by field. */
export const CORROBORATION_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'How much the independent sources of a price agree: the row price is the median of the used values. `disputed`: fewer than the type quorum agree within its threshold (the row still answers and is not cached as settled).',
  required: ['status', 'quorum', 'spread_bps', 'sources'],
  properties: {
    status: { type: 'string', enum: ['agreed', 'disputed', 'single_source'] },
    quorum: { type: 'integer', description: 'sources used' },
    spread_bps: { type: 'number', description: '(max - min) / median of the used values, in basis points' },
    sources: {
      type: 'array',
      description: 'every source asked, in priority order',
      items: {
        type: 'object',
        required: ['source', 'used'],
        properties: {
          source: { type: 'string' },
          value: { type: 'number' },
          quote: {
            type: 'string',
            description:
              'what value is stated in: a currency code (crypto-price: USD, or USDT for a USDT book; forex: the pair symbol; commodity-metals: USD per troy ounce), a stock listing currency as its source gives it (USD, EUR, GBp for pence), or points for an index',
          },
          as_of: { type: 'integer', description: 'Unix seconds' },
          used: { type: 'boolean' },
          reason: { type: 'string', enum: ['outlier', 'stale', 'quote_mismatch', 'unavailable', 'not_listed'] },
          error: {
            type: 'string',
            description:
              'for unavailable: the upstream failure reason; no_key when its key is not set; late when still answering at signing',
          },
        },
      },
    },
  },
};

export const CORROBORATION_REF = { $ref: '#/components/schemas/Corroboration' };
