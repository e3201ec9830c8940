import Type from 'typebox';
import { noData } from '../errors.js';
import type { Reading } from './entsoe.js';

/** Energy-Charts (Fraunhofer ISE) `public_power`: one `unix_seconds` axis and a series per production type, in MW. */
export const PublicPower = Type.Object({
  unix_seconds: Type.Array(Type.Integer()),
  production_types: Type.Array(Type.Object({ name: Type.String(), data: Type.Array(Type.Union([Type.Number(), Type.Null()])) })),
});
export type PublicPower = Type.Static<typeof PublicPower>;

/** The `Load` series (looked up case-insensitively); nulls mark intervals not yet published. */
export function energyChartsLoad(raw: PublicPower): Reading[] {
  const load = raw.production_types.find((p) => p.name.toLowerCase() === 'load');
  if (!load) throw noData('Energy-Charts publishes no load series for this country');
  return raw.unix_seconds.flatMap((at, i) => {
    const mw = load.data[i];
    return typeof mw === 'number' ? [{ at, mw }] : [];
  });
}
