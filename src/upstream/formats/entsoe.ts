import type * as FastXmlParser from 'fast-xml-parser';
import { requireOnce } from '../../core/import-once.js';
import { noData, UpstreamError } from '../errors.js';

/** ENTSO-E Transparency Platform XML (IEC 62325 market documents): GL_MarketDocument time series and Acknowledgements. */

/** One reading of a time series: the start of its interval (Unix s) and its value in MW. */
export interface Reading {
  at: number;
  mw: number;
}

interface Period {
  timeInterval?: { start?: string };
  resolution?: string;
  Point?: { position?: string; quantity?: string }[];
}
interface EntsoeDoc {
  GL_MarketDocument?: { TimeSeries?: { Period?: Period[] }[] };
  Acknowledgement_MarketDocument?: { Reason?: { code?: string; text?: string } };
}

// Repeated elements stay arrays even when a document holds one; values stay strings (EIC codes look numeric-ish).
// Built on the first document read, as the feed parser is.
const fastXmlParser = requireOnce<typeof FastXmlParser>('fast-xml-parser');
let xml: FastXmlParser.XMLParser | undefined;
const entsoeParser = () =>
  (xml ??= new (fastXmlParser().XMLParser)({
    ignoreAttributes: true,
    parseTagValue: false,
    isArray: (name) => ['TimeSeries', 'Period', 'Point'].includes(name),
  }));
const badXml = (why: string) => new UpstreamError('upstream_bad_response', `ENTSO-E ${why}`);

/** `PT15M`, `PT60M`, `PT1H` → seconds; 0 for anything else. */
const resolutionS = (resolution = '') => {
  const m = /^PT(\d+)([MH])$/.exec(resolution);
  return m ? Number(m[1]) * (m[2] === 'H' ? 3600 : 60) : 0;
};

/** Point n of a period starts at `start + (n - 1) × resolution`. */
function periodReadings(period: Period): Reading[] {
  const start = Date.parse(period.timeInterval?.start ?? '') / 1000;
  const step = resolutionS(period.resolution);
  if (!Number.isFinite(start) || step === 0) throw badXml(`sent a period without a usable start or resolution`);
  return (period.Point ?? [])
    .map((p) => ({ at: start + (Number(p.position) - 1) * step, mw: Number(p.quantity) }))
    .filter((r) => Number.isFinite(r.at) && Number.isFinite(r.mw));
}

/** A GL_MarketDocument → readings; an Acknowledgement (often HTTP 200) is "no data" (reason 999) or a refusal. */
export function entsoeReadings(text: string): Reading[] {
  let doc: EntsoeDoc;
  try {
    doc = entsoeParser().parse(text) as EntsoeDoc;
  } catch {
    throw badXml('sent a body that is not XML');
  }
  const ack = doc.Acknowledgement_MarketDocument;
  if (ack) {
    if (ack.Reason?.code === '999') throw noData('ENTSO-E has no data for this area and window');
    throw new UpstreamError('upstream_error', `ENTSO-E refused the query: ${ack.Reason?.text ?? 'no reason given'}`);
  }
  if (!doc.GL_MarketDocument) throw badXml('sent something other than a GL_MarketDocument');
  return (doc.GL_MarketDocument.TimeSeries ?? []).flatMap((ts) => (ts.Period ?? []).flatMap(periodReadings));
}

/** Unix s → ENTSO-E's UTC `yyyyMMddHHmm`. */
export const entsoeTime = (s: number): string => new Date(s * 1000).toISOString().slice(0, 16).replace(/\D/g, '');
