import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import source, { fromAdsb, fromOpenSky } from '../../src/sources/flights-near.js';
import { parseBox, pointQuery } from '../../src/sources/lib/bbox.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const SWISS = { lamin: 45.8, lomin: 5.9, lamax: 47.8, lomax: 10.5 };
const SWISS_Q = '45.8,5.9,47.8,10.5';
const state = (icao: string, lat: number | null, lon: number | null, extra: unknown[] = []) => [
  icao,
  'ABC123  ',
  'Switzerland',
  1795348780,
  1795348781,
  lon,
  lat,
  1000,
  false,
  100,
  90,
  -2.5,
  null,
  1010,
  '7000',
  false,
  0,
  ...extra,
];

describe('flights-near q', () => {
  it('parses four numbers in OpenSky order, tolerating spaces', () => {
    expect(parseBox(' 45.8, 5.9 ,47.8,10.5')).toEqual(SWISS);
    expect(parseBox('-34,-59,-33.5,-58')).toEqual({ lamin: -34, lomin: -59, lamax: -33.5, lomax: -58 });
  });

  it.each([
    '',
    '45.8,5.9,47.8',
    '47.8,5.9,45.8,10.5',
    '45.8,10.5,47.8,5.9',
    '45.8,5.9,45.8,10.5',
    '-91,0,0,1',
    '0,-181,1,0',
    '1e1,0,20,1',
    'a,b,c,d',
  ])('refuses %j with a 400', (q) => {
    expect(() => parseBox(q)).toThrowError(expect.objectContaining({ code: 'invalid_q' }));
  });

  it('accepts every well-ordered box inside the globe and keys spellings alike', () => {
    const coord = (max: number) => fc.integer({ min: -max * 1000, max: max * 1000 }).map((n) => n / 1000);
    fc.assert(
      fc.property(coord(90), coord(90), coord(180), coord(180), (a, b, c, d) => {
        fc.pre(a !== b && c !== d);
        const box = { lamin: Math.min(a, b), lamax: Math.max(a, b), lomin: Math.min(c, d), lomax: Math.max(c, d) };
        expect(parseBox(`${box.lamin},${box.lomin},${box.lamax},${box.lomax}`)).toEqual(box);
      }),
    );
    expect(source.keyOf!(parseBox('45.80,5.900,47.8,10.5'))).toBe(source.keyOf!(SWISS));
  });
});

describe('flights-near OpenSky', () => {
  it('drops vectors without a position and outside the box, nearest the centre first', () => {
    const rows = fromOpenSky(
      { time: 1795348790, states: [state('far', 45.9, 6.0), state('none', null, null), state('near', 46.8, 8.2), state('out', 48.5, 8.2)] },
      SWISS,
    );
    expect(rows.map((r) => r.icao24)).toEqual(['near', 'far']);
    expect(rows[0]).toMatchObject({
      callsign: 'ABC123',
      lat: 46.8,
      lon: 8.2,
      altitude_m: 1000,
      velocity_ms: 100,
      vertical_rate_ms: -2.5,
      squawk: '7000',
      last_seen_at: 1795348781,
      as_of: 1795348790,
    });
  });

  it('treats a null states list (empty box) as no data', () => {
    expect(() => fromOpenSky({ time: 1795348790, states: null }, SWISS)).toThrowError(expect.objectContaining({ reason: 'no_data' }));
  });

  it('keeps at most 200 flights', () => {
    const many = Array.from({ length: 250 }, (_, i) => state(`a${i}`, 46 + i / 1000, 8));
    expect(fromOpenSky({ time: 1, states: many }, SWISS)).toHaveLength(200);
  });
});

describe('flights-near adsb.lol', () => {
  it('asks for the circle around the box, capped at 250 nm', () => {
    expect(pointQuery(SWISS)).toEqual({ lat: 46.8, lon: 8.2, radiusNm: 112 });
    expect(pointQuery({ lamin: -60, lomin: -170, lamax: 60, lomax: 170 }).radiusNm).toBe(250);
  });

  it('converts feet, knots and feet/minute and reads "ground"', () => {
    const rows = fromAdsb(
      {
        now: 1795348791234,
        ac: [
          { hex: '~abc123', flight: 'TEST1 ', lat: 46.8, lon: 8.2, alt_baro: 10000, gs: 100, track: 10, baro_rate: -1000 },
          { hex: 'def456', lat: 46.81, lon: 8.2, alt_baro: 'ground', seen: 3.5 },
        ],
      },
      SWISS,
    );
    expect(rows).toEqual([
      {
        icao24: 'abc123',
        callsign: 'TEST1',
        origin_country: null,
        lat: 46.8,
        lon: 8.2,
        altitude_m: 3048,
        on_ground: false,
        velocity_ms: 51.44,
        heading_deg: 10,
        vertical_rate_ms: -5.08,
        squawk: null,
        last_seen_at: 1795348791,
        as_of: 1795348791,
      },
      {
        icao24: 'def456',
        callsign: null,
        origin_country: null,
        lat: 46.81,
        lon: 8.2,
        altitude_m: 0,
        on_ground: true,
        velocity_ms: null,
        heading_deg: null,
        vertical_rate_ms: null,
        squawk: null,
        last_seen_at: 1795348787,
        as_of: 1795348791,
      },
    ]);
  });
});

describe('flights-near keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reuses the OpenSky token while it is valid', async () => {
    t.sim.resetHits();
    await t.deps.sources.run('flights-near', SWISS_Q, { maxAgeS: 0 });
    await t.deps.sources.run('flights-near', SWISS_Q, { maxAgeS: 0 });
    expect(t.sim.hits('opensky-auth')).toBe(1);
    expect(t.sim.hits('opensky', '/api/states/all')).toBe(2);
  });

  it('answers from adsb.lol when no OpenSky credentials are configured', async () => {
    const bare = await startTestApp({ sim: t.sim, env: { UPSTREAM_OPENSKY_AUTH_KEY: '' } });
    try {
      const result = await bare.deps.sources.run('flights-near', SWISS_Q, { maxAgeS: 0 });
      expect(result).toMatchObject({ ok: true, source: 'adsb-lol' });
    } finally {
      await bare.close();
    }
  });
});
