import { describe, expect, it } from 'vitest';
import source, { toRows } from '../../src/sources/energy-grid-eu.js';
import { energyChartsLoad as energyChartsReadings } from '../../src/upstream/formats/energy-charts.js';
import { entsoeReadings } from '../../src/upstream/formats/entsoe.js';
import { UpstreamError } from '../../src/upstream/errors.js';

const NOW = 1795348800; // 2026-11-22T12:00Z

const gl = (periods: string) => `<?xml version="1.0" encoding="utf-8"?>
<GL_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-6:generationloaddocument:3:0">
  <type>A65</type>
  <TimeSeries><outBiddingZone_Domain.mRID codingScheme="A01">10YFR-RTE------C</outBiddingZone_Domain.mRID>${periods}</TimeSeries>
</GL_MarketDocument>`;

const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as UpstreamError).reason;
  }
  return 'no error';
};

describe('energy-grid-eu', () => {
  it('accepts the listed country codes in any case and refuses others', () => {
    expect(source.parseQ('fr')).toBe('FR');
    expect(() => source.parseQ('GB')).toThrow(/one of: AT, BE/);
    expect(() => source.parseQ('')).toThrow(/q is required/);
  });

  it('dates ENTSO-E points as start + (position - 1) × resolution, a lone Point included', () => {
    const text = gl(`
      <Period><timeInterval><start>2026-11-22T09:00Z</start><end>2026-11-22T10:00Z</end></timeInterval><resolution>PT60M</resolution>
        <Point><position>1</position><quantity>61234</quantity></Point></Period>
      <Period><timeInterval><start>2026-11-22T10:00Z</start><end>2026-11-22T10:30Z</end></timeInterval><resolution>PT15M</resolution>
        <Point><position>1</position><quantity>60000.5</quantity></Point>
        <Point><position>2</position><quantity>59000</quantity></Point></Period>`);
    expect(entsoeReadings(text)).toEqual([
      { at: 1795338000, mw: 61234 },
      { at: 1795341600, mw: 60000.5 },
      { at: 1795342500, mw: 59000 },
    ]);
  });

  it('reads an Acknowledgement as no data (reason 999) or a refusal, and non-XML as a bad response', () => {
    const ack = (code: string) =>
      `<Acknowledgement_MarketDocument><Reason><code>${code}</code><text>why</text></Reason></Acknowledgement_MarketDocument>`;
    expect(reasonOf(() => entsoeReadings(ack('999')))).toBe('no_data');
    expect(reasonOf(() => entsoeReadings(ack('B11')))).toBe('upstream_error');
    expect(reasonOf(() => entsoeReadings('{"oops": 1'))).toBe('upstream_bad_response');
    expect(reasonOf(() => entsoeReadings(gl('<Period><resolution>P1Y</resolution></Period>')))).toBe('upstream_bad_response');
  });

  it('summarizes the last 24 hours only: older and future readings are ignored', () => {
    const readings = [
      { at: NOW - 25 * 3600, mw: 1 },
      { at: NOW - 3600, mw: 300 },
      { at: NOW - 7200, mw: 100 },
      { at: NOW - 1800, mw: 200 },
      { at: NOW + 900, mw: 999 },
    ];
    expect(toRows('FR', readings, NOW)).toEqual([
      {
        country: 'FR',
        name: 'France',
        bidding_zone: '10YFR-RTE------C',
        load_mw: 200,
        load_at: NOW - 1800,
        avg_load_mw_24h: 200,
        peak_load_mw_24h: 300,
        min_load_mw_24h: 100,
        as_of: NOW - 1800,
      },
    ]);
    expect(reasonOf(() => toRows('FR', [{ at: NOW - 30 * 3600, mw: 5 }], NOW))).toBe('no_data');
  });

  it('takes the Energy-Charts load series case-insensitively and skips unpublished (null) intervals', () => {
    const raw = {
      unix_seconds: [10, 20, 30],
      production_types: [
        { name: 'Solar', data: [1, 2, 3] },
        { name: 'LOAD', data: [500, null, 700] },
      ],
    };
    expect(energyChartsReadings(raw)).toEqual([
      { at: 10, mw: 500 },
      { at: 30, mw: 700 },
    ]);
    expect(reasonOf(() => energyChartsReadings({ unix_seconds: [10], production_types: [{ name: 'Solar', data: [1] }] }))).toBe('no_data');
  });
});
