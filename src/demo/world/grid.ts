import { roundTo } from '../../core/numbers.js';
import type { Market } from '../market.js';
import { own } from '../random.js';
import type { DemoWorld } from '../world.js';
import type { Route, WorldRequest } from './types.js';

/**
 * Electricity load of the demo world's European bidding zones: a zone's average load (round figures of its real size),
 * shaped by the hour of day (night trough, midday and evening peaks), the weekend, and a walk; published by ENTSO-E
 * in 15-minute steps about an hour after real time, in its GL_MarketDocument XML.
 */
const QUARTER_S = 900;
const PUBLISH_LAG_S = 3600;
const ZONE_LOAD_MW: Record<string, number> = {
  '10Y1001A1001A83F': 55_000, '10YFR-RTE------C': 50_000, '10YIT-GRTN-----B': 32_000, '10YES-REE------0': 28_000,
  '10YPL-AREA-----S': 19_000, '10YNL----------L': 13_000, '10YBE----------2': 9_500, '10YAT-APG------L': 7_500,
  '10YCH-SWISSGRIDZ': 7_000, '10YCZ-CEPS-----N': 7_000, '10YFI-1--------U': 9_500, '10YIE-1001A00010': 3_600,
}; // prettier-ignore

function loadMw(market: Market, zone: string, t: number): number {
  const hour = ((t % 86_400) / 3600 + 1) % 24; // central European time, near enough
  const shape =
    0.82 +
    0.14 * Math.exp(-(((hour - 12) / 3.5) ** 2)) +
    0.12 * Math.exp(-(((hour - 18.5) / 2) ** 2)) -
    0.1 * Math.exp(-(((hour - 4) / 2.5) ** 2));
  const weekend = [0, 6].includes(new Date(t * 1000).getUTCDay()) ? 0.86 : 1;
  return roundTo(own(ZONE_LOAD_MW, zone)! * shape * weekend * Math.exp(market.price(`spread:load:${zone}`, t) * 3), 2);
}

/** `yyyyMMddHHmm` → Unix s; ENTSO-E's `yyyy-MM-ddTHH:mmZ` from Unix s. */
const fromEntsoe = (text: string) =>
  Date.UTC(+text.slice(0, 4), +text.slice(4, 6) - 1, +text.slice(6, 8), +text.slice(8, 10), +text.slice(10, 12)) / 1000;
const toEntsoe = (s: number) => `${new Date(s * 1000).toISOString().slice(0, 16)}Z`;

function actualLoad(req: WorldRequest, world: DemoWorld): unknown {
  const zone = req.params.get('outBiddingZone_Domain') ?? '';
  if (!own(ZONE_LOAD_MW, zone)) {
    return `<?xml version="1.0" encoding="utf-8"?>
<Acknowledgement_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-1:acknowledgementdocument:7:0">
  <Reason><code>999</code><text>No matching data found for Data item ACTUAL_TOTAL_LOAD_R3 [17.1.A] (${zone})</text></Reason>
</Acknowledgement_MarketDocument>
`;
  }
  const start = fromEntsoe(req.params.get('periodStart') ?? '');
  const published = Math.floor((req.nowS - PUBLISH_LAG_S) / QUARTER_S) * QUARTER_S;
  const end = Math.min(fromEntsoe(req.params.get('periodEnd') ?? ''), published);
  const points = [];
  for (let t = start, position = 1; t < end; t += QUARTER_S, position++) {
    points.push(
      `      <Point>\n        <position>${position}</position>\n        <quantity>${loadMw(world.market, zone, t)}</quantity>\n      </Point>`,
    );
  }
  const template = world.template<string>('entsoe', '/api', req.nowS, { outBiddingZone_Domain: '10Y1001A1001A83F' });
  const header = template.slice(0, template.indexOf('<TimeSeries>'));
  return `${header.replace(/<createdDateTime>[^<]*</, `<createdDateTime>${new Date(req.nowS * 1000).toISOString().slice(0, 19)}Z<`)}<TimeSeries>
    <mRID>1</mRID>
    <businessType>A04</businessType>
    <objectAggregation>A01</objectAggregation>
    <outBiddingZone_Domain.mRID codingScheme="A01">${zone}</outBiddingZone_Domain.mRID>
    <quantity_Measure_Unit.name>MAW</quantity_Measure_Unit.name>
    <curveType>A01</curveType>
    <Period>
      <timeInterval>
        <start>${toEntsoe(start)}</start>
        <end>${toEntsoe(end)}</end>
      </timeInterval>
      <resolution>PT15M</resolution>
${points.join('\n')}
    </Period>
  </TimeSeries>
</GL_MarketDocument>
`;
}

export const GRID_ROUTES: Route[] = [{ host: 'entsoe', path: /^\/api$/, answer: actualLoad }];
