import Type from 'typebox';
import { StringEnum } from '../core/schemas.js';
import { ApiError } from '../core/errors.js';

export type Tier = 'free' | 'paid';

/** `tier` on routes with a free tier (backtest, agent-context). */
export const TierParam = Type.Optional(
  StringEnum<Tier>(['free', 'paid'], {
    examples: ['paid'],
    description:
      'paid: answer 402 with an x402 challenge unless the request carries a payment or a pass, so stock x402 clients pay for the full answer; ' +
      'free: the free tier (as free=1). Default: the paid answer only when a payment is present.',
  }),
);

/** The tier a request asks for; `free=1` with `tier=paid` is a contradiction (400 naming `tier`). */
export function requestedTier(query: { free?: '1'; tier?: Tier }): Tier | undefined {
  if (query.free === '1' && query.tier === 'paid') {
    throw new ApiError('validation_failed', 'querystring: tier=paid contradicts free=1', {
      field: 'tier',
      in: 'querystring',
      rule: 'conflict',
    });
  }
  return query.free === '1' ? 'free' : query.tier;
}
