import Type from 'typebox';
import { currencyPair } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';
import { nextWeekdayAt } from './lib/schedule.js';

const ECB = 'ECB reference rate';
/** 16:00 CET, as each rate's as_of says. */
const ECB_FIXING_UTC_S = 15 * 3600;

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

/** Rows: base, symbol, rate (units of symbol per base), date, provider. */
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
  upstreams: {
    frankfurter: async (pair, { http, deadline }) =>
      fromFrankfurter(pair, await http.json('/v1/latest', Frankfurter, { deadline, query: { base: pair[0], symbols: pair[1] } })),
    'open-er-api': async (pair, { http, deadline }) => fromOpenEr(pair, await http.json(`/v6/latest/${pair[0]}`, OpenEr, { deadline })),
  },
});
