import { describe, expect, it } from 'vitest';
import { fromOpenMeteo, nearestStations, stationRow } from '../../src/sources/air-quality.js';
import { toUgm3 } from '../../src/sources/lib/air-units.js';
import { startTestApp } from '../helpers/app.js';

const NOW = 1795348800; // 2026-11-22T12:00:00Z
const HOUR_AGO = '2026-11-22T11:00:00Z';
const sensor = (id: number, name: string, units = 'µg/m³') => ({ id, parameter: { name, units } });
const station = (id: number, distance: number | null, sensors: ReturnType<typeof sensor>[], last: string | null = HOUR_AGO) => ({
  id,
  name: `station ${id}`,
  coordinates: { latitude: 48.85, longitude: 2.35 },
  distance,
  datetimeLast: last === null ? null : { utc: last },
  sensors,
});
const reading = (sensorsId: number, value: number, utc = HOUR_AGO) => ({ datetime: { utc }, value, sensorsId });

describe('air-quality units', () => {
  it('keeps µg/m³ (micro sign or Greek mu) and converts ppm/ppb gases at 25 °C', () => {
    expect(toUgm3('pm25', 12.34, 'µg/m³')).toBe(12.34);
    expect(toUgm3('pm25', 12.34, 'μg/m³')).toBe(12.34);
    expect(toUgm3('no2', 0.02, 'ppm')).toBe(37.6); // 0.02 × 1000 × 46.0055 / 24.45
    expect(toUgm3('o3', 30, 'ppb')).toBe(58.9); // 30 × 47.9982 / 24.45
  });

  it('refuses units it cannot convert', () => {
    expect(toUgm3('pm25', 1, 'ppm')).toBeNull();
    expect(toUgm3('no2', 1, 'mg/m³')).toBeNull();
  });
});

describe('air-quality OpenAQ stations', () => {
  it('keeps the three nearest live stations that measure PM2.5, NO2 or O3', () => {
    const raw = {
      results: [
        station(1, 9000, [sensor(11, 'pm25')]),
        station(2, 500, [sensor(21, 'pm10')]),
        station(3, 800, [sensor(31, 'no2')], '2024-01-01T00:00:00Z'),
        station(4, 1200, [sensor(41, 'o3')], null),
        station(5, 300, [sensor(51, 'pm25')]),
        station(6, 4000, [sensor(61, 'no2', 'ppm')]),
      ],
    };
    expect(nearestStations(raw, NOW).map((s) => s.id)).toEqual([5, 4, 6]);
  });

  it('joins readings to sensors, converts, and drops stale or unknown readings', () => {
    const s = station(7, 1234.6, [sensor(71, 'pm25'), sensor(72, 'no2', 'ppm'), sensor(73, 'o3')]);
    const latest = {
      results: [reading(71, 9.95, '2026-11-22T10:00:00Z'), reading(72, 0.02), reading(73, 80, '2026-11-20T12:00:00Z'), reading(99, 5)],
    };
    expect(stationRow(s, latest, NOW)).toEqual({
      station_id: 7,
      station_name: 'station 7',
      lat: 48.85,
      lon: 2.35,
      distance_m: 1235,
      pm25_ugm3: 9.95,
      no2_ugm3: 37.6,
      o3_ugm3: null,
      modelled: false,
      as_of: NOW - 3600,
    });
  });

  it('gives no row for a station without a fresh reading', () => {
    expect(stationRow(station(8, 10, [sensor(81, 'pm25')]), { results: [reading(81, 3, '2026-11-01T00:00:00Z')] }, NOW)).toBeNull();
  });
});

describe('air-quality Open-Meteo', () => {
  it('reads the model values and the zone-less UTC time', () => {
    const raw = { latitude: 48.86, longitude: 2.34, current: { time: '2026-11-22T11:00', pm2_5: 11.6, nitrogen_dioxide: null, ozone: 33 } };
    expect(fromOpenMeteo(raw)).toEqual([
      {
        station_id: null,
        station_name: null,
        lat: 48.86,
        lon: 2.34,
        distance_m: null,
        pm25_ugm3: 11.6,
        no2_ugm3: null,
        o3_ugm3: 33,
        modelled: true,
        as_of: NOW - 3600,
      },
    ]);
  });

  it('takes utc_offset_seconds off the local wall time of a zoned answer', () => {
    const berlin = {
      latitude: 52.52,
      longitude: 13.42,
      utc_offset_seconds: 3600,
      current: { time: '2026-11-22T12:00', pm2_5: 9, nitrogen_dioxide: 20, ozone: 40 },
    };
    expect(fromOpenMeteo(berlin)[0]!.as_of).toBe(NOW - 3600);
    const kathmandu = { ...berlin, utc_offset_seconds: 20_700, current: { ...berlin.current, time: '2026-11-22T16:45' } };
    expect(fromOpenMeteo(kathmandu)[0]!.as_of).toBe(NOW - 3600);
  });

  it('treats a missing or all-null current block as no data', () => {
    expect(() => fromOpenMeteo({ latitude: 1, longitude: 2 })).toThrowError(expect.objectContaining({ reason: 'no_data' }));
    const nulls = { latitude: 1, longitude: 2, current: { time: '2026-11-22T11:00', pm2_5: null, nitrogen_dioxide: null, ozone: null } };
    expect(() => fromOpenMeteo(nulls)).toThrowError(expect.objectContaining({ reason: 'no_data' }));
  });

  it('answers from Open-Meteo when no OpenAQ key is configured', async () => {
    const t = await startTestApp({ env: { UPSTREAM_OPENAQ_KEY: '' } });
    try {
      const result = await t.deps.sources.run('air-quality', '48.8566,2.3522', { maxAgeS: 0 });
      expect(result).toMatchObject({ ok: true, source: 'open-meteo-air', rows: [{ modelled: true }] });
    } finally {
      await t.close();
    }
  });
});
