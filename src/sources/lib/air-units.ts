/** The pollutants air-quality reports and their unit conversion to µg/m³. */

import { roundTo } from '../../core/numbers.js';

const POLLUTANTS = ['pm25', 'no2', 'o3'] as const;
export type Pollutant = (typeof POLLUTANTS)[number];
/** Molar masses (g/mol) for ppm/ppb → µg/m³ at 25 °C and 1 atm (molar volume 24.45 L), the US EPA convention. */
const MOLAR_MASS: Record<Pollutant, number | null> = { pm25: null, no2: 46.0055, o3: 47.9982 };
const MOLAR_VOLUME_L = 24.45;

export const isPollutant = (name: string): name is Pollutant => (POLLUTANTS as readonly string[]).includes(name);

/** µg/m³ from a reading in µg/m³ (kept as sent), ppm or ppb (converted, 1 decimal); null for units we cannot convert. */
export function toUgm3(pollutant: Pollutant, value: number, units: string): number | null {
  const unit = units.toLowerCase().replace('μ', 'µ');
  if (unit === 'µg/m³') return value;
  const mass = MOLAR_MASS[pollutant];
  const factor = mass && unit === 'ppm' ? (1000 * mass) / MOLAR_VOLUME_L : mass && unit === 'ppb' ? mass / MOLAR_VOLUME_L : null;
  return factor === null ? null : roundTo(value * factor, 1);
}
