import Type from 'typebox';
import { currencyPair } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';
import { nextWeekdayAt } from './lib/schedule.js';
import { yahooChart, yahooLast, type YahooLast } from './lib/yahoo-last.js';

const ECB = 'ECB reference rate';
/** 16:00 CET, as each rate's as_of says. */
const ECB_FIXING_UTC_S = 15 * 3600;
const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

const Frankfurter = Type.Object({ base: Type.String(), date: Type.String(), rates: Type.Record(Type.String(), Type.Number()) });
const OpenEr = Type.Object({
  result: Type.String(),
  base_code: Type.Optional(Type.String()),
  time_last_update_unix: Type.Optional(Type.Integer()),
  rates: Type.Optional(Type.Record(Type.String(), Type.Number())),
});

export function fromFrankfurter([base, symbol]: [string, string], raw: Type.Static<typeof Frankfurter>): Row[] {
  const rate = raw.rates[symbol];
  if (rate === undefined) throw noData(`no ${base}/${symbol} rate`);
  return [{ base, symbol, rate, date: raw.date, provider: ECB, as_of: parseUnixSeconds(`${raw.date}T16:00:00+01:00`) }];
}

export function fromOpenEr([base, symbol]: [string, string], raw: Type.Static<typeof OpenEr>): Row[] {
  const rate = raw.rates?.[symbol];
  if (raw.result !== 'success' || rate === undefined || !raw.time_last_update_unix) throw noData(`no ${base}/${symbol} rate`);
  return [
    {
      base,
      symbol,
      rate,
      date: new Date(raw.time_last_update_unix * 1000).toISOString().slice(0, 10),
      provider: 'ExchangeRate-API',
      as_of: raw.time_last_update_unix,
    },
  ];
}

/**
 * Yahoo's currency pair `EURUSD=X`, quoted in the currency Yahoo states: a chart in another currency than the symbol
 * asked is listed as such (`symbol`), and corroboration keeps it apart as `quote_mismatch`.
 */
export function fromYahooFx([base, symbol]: [string, string], last: YahooLast): Row[] {
  if (last.as_of === undefined) throw noData('Yahoo sent a rate without its time');
  const date = new Date(last.as_of * 1000).toISOString().slice(0, 10);
  return [{ base, symbol: last.currency ?? symbol, rate: last.price, date, provider: 'Yahoo Finance', as_of: last.as_of }];
}

/**
 * Rows: base, symbol, rate (units of symbol per base), date, provider, and `corroboration` (issue 37): the ECB's
 * reference rate (through Frankfurter, which serves the ECB's fixing unchanged), ExchangeRate-API's daily rate and
 * Yahoo's live pair are asked at once; the rate is the median of those that agree. Each source is stale only when it
 * missed a publication of its own schedule (docs/corroboration.md).
 */
export default defineSource<[string, string]>({
  type: 'forex',
  categories: ['finance', 'forex'],
  qShape: '<base>:<symbol>',
  qForms: ['<base>:<symbol> ISO 4217 codes (EUR:USD)', '<base>/<symbol> (EUR/USD)', '<base><symbol> (EURUSD)'],
  namesInstrument: true,
  example: 'EUR:USD',
  desc: '`<base>:<symbol>` currency codes',
  parseQ: currencyPair,
  keyOf: (pair) => pair.join(':'),
  ttlSeconds: 900,
  // The ECB publishes its reference rates around 16:00 CET every TARGET business day (its holidays are not modelled).
  nextUpdate: (asOf, row) => (row.provider === ECB ? nextWeekdayAt(asOf, ECB_FIXING_UTC_S) : undefined),
  deadlineMs: 4000,
  entityQ: (e) => e.ids.fx,
  corroboration: {
    item: 'base',
    value: 'rate',
    quote: 'symbol',
    rule: {
      quorum: 2,
      outlierBps: 100,
      // Yahoo's pairs trade 24/5: Friday 22:00 UTC to Sunday 22:00 is their longest pause.
      staleAfterS: 50 * HOUR_S,
      staleAfterSBySource: {
        // A fixing each TARGET business day: Thursday's stands until Tuesday over Easter.
        frankfurter: 5 * DAY_S + 2 * HOUR_S,
        // ExchangeRate-API's open access updates once a day.
        'open-er-api': DAY_S + 2 * HOUR_S,
      },
    },
  },
  upstreams: {
    frankfurter: async (pair, { http, deadline }) =>
      fromFrankfurter(pair, await http.json('/v1/latest', Frankfurter, { deadline, query: { base: pair[0], symbols: pair[1] } })),
    'open-er-api': async (pair, { http, deadline }) => fromOpenEr(pair, await http.json(`/v6/latest/${pair[0]}`, OpenEr, { deadline })),
    yahoo: async (pair, { http, deadline }) => fromYahooFx(pair, yahooLast(await yahooChart(http, `${pair[0]}${pair[1]}=X`, deadline))),
  },
});
