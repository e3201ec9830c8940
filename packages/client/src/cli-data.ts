import { Option } from 'commander';
import type { SvcClient } from './client.js';
import { record, table } from './output.js';
import { CliFailure, EXIT, integer, readJsonFile, time, type CliContext } from './cli-shared.js';

/** The data commands: conformance, catalog, query, bundle, entity, backtest. */
export function registerDataCommands({ program, globals, show, call }: CliContext): void {
  program
    .command('conformance')
    .description("check a service against issue 35's agent guarantees over HTTP and MCP (a table; exit 1 on any miss)")
    .argument('[url]', 'the service to check (default: --base-url)')
    .action(async (url: string | undefined) => {
      // Loaded when run: the check brings the MCP SDK and a tokenizer, a third of a second every other command would pay.
      const { formatReport, runConformance } = await import('./conformance.js');
      const report = await runConformance(url ?? globals().baseUrl, { log: (line) => process.stderr.write(`${line}\n`) });
      show(report, formatReport);
      if (report.misses) throw new CliFailure(`${report.misses} conformance miss${report.misses === 1 ? '' : 'es'}`, EXIT.invalid);
    });
  program
    .command('catalog')
    .description('list the data types')
    .action(async () => {
      const body = await call('catalog', (c) => c.catalog());
      show(body, (b) => `${table(b.data_types, ['type', 'categories', 'example', 'desc'])}\n${b.count} types`);
    });

  program
    .command('query')
    .description('one row of a data type (free preview, signed)')
    .argument('<type>', 'data type, e.g. crypto-price')
    .argument('<q>', 'query, e.g. bitcoin')
    .option('--since <cursor>', 'only what changed since this _cursor')
    .option('--as-of <time>', 'answer from history (Unix s or ISO 8601, last 60 min)')
    .option('--max-age <seconds>', 'accept cached data at most this old (0 = fresh)', integer)
    .action(async (type: string, q: string, o: { since?: string; asOf?: string; maxAge?: number }) => {
      const body = await call(`${type} ${q}`, (c) =>
        c.query({ type, q, since: o.since, as_of: o.asOf, max_age: o.maxAge } as Parameters<SvcClient['query']>[0]),
      );
      show(body, (b) => {
        if (b.changed === false) return `unchanged\n_cursor  ${b._cursor}`;
        if (!b.ok) return record({ ok: false, error: b.error, message: b.message });
        return `${record(b.preview ?? {})}\n\n_cursor  ${b._cursor ?? ''}`;
      });
    });

  program
    .command('bundle')
    .description('run 1–20 queries from a JSON file ({"queries":[{type,q},…]} or the bare array); paid unless --free')
    .argument('<file>', 'JSON file')
    .option('--free', 'free mode: at most 5 queries, one row each')
    .action(async (file: string, o: { free?: boolean }) => {
      const parsed = readJsonFile(file);
      const request = (Array.isArray(parsed) ? { queries: parsed as unknown[] } : parsed) as Parameters<SvcClient['bundle']>[0];
      const body = await call(`bundle of ${request.queries?.length ?? 0}`, (c) => c.bundle(request, { free: Boolean(o.free) }));
      show(body, (b) => {
        const rows = (
          b.results as { type: string; q?: string; ok: boolean; error?: string; data?: { count?: number; source?: string } }[]
        ).map((r) => ({ ...r, rows: r.data?.count, source: r.data?.source }));
        return `${table(rows, ['type', 'q', 'ok', 'rows', 'source', 'error'])}\npayment: ${JSON.stringify(b.payment ?? 'free')}`;
      });
    });

  program
    .command('entity')
    .description('resolve a name, ticker, ISIN, CUSIP or contract address to entities')
    .argument('<q>')
    .option('--limit <n>', 'at most this many matches (1–20)', integer)
    .action(async (q: string, o: { limit?: number }) => {
      const body = await call(`resolve ${q}`, (c) => c.entity.resolve({ q, limit: o.limit }));
      show(body, (b) => table(b.matches, ['id', 'name', 'type', 'confidence', 'matched_on']) + (b.ambiguous ? '\n(ambiguous)' : ''));
    });

  program
    .command('backtest')
    .description('OHLCV candles; --paid buys up to 10,000 per call (else the last 100 free)')
    .argument('<asset>', 'e.g. BTC, AAPL, EURUSD')
    .addOption(new Option('--type <type>', 'data type').choices(['crypto-price', 'stock-quote', 'forex']).default('crypto-price'))
    .addOption(new Option('--interval <interval>', 'candle size').choices(['1m', '5m', '15m', '1h', '4h', '1d']).default('1h'))
    .option('--from <time>', 'start (Unix s or ISO 8601; default: 7 days before --to)', time)
    .option('--to <time>', 'end (Unix s or ISO 8601; default: now)', time)
    .option('--paid', 'pay (pass or wallet) for up to 10,000 candles')
    .action(async (asset: string, o: { type: 'crypto-price'; interval: '1h'; from?: number; to?: number; paid?: boolean }) => {
      // The service requires both ends of the range: default to the last week.
      const to = o.to ?? Math.floor(Date.now() / 1000);
      const query = { type: o.type, q: asset, interval: o.interval, from: o.from ?? to - 7 * 86_400, to };
      const body = await call(`backtest ${asset}`, (c) => c.backtest(query, { paid: Boolean(o.paid) }));
      show(body, (b) => {
        const rows = b.data.map((k) => ({ ...k, t: new Date(k.t * 1000).toISOString() }));
        const shown = rows.length > 20 ? [...rows.slice(0, 10), { t: '…' }, ...rows.slice(-10)] : rows;
        return `${table(shown, ['t', 'o', 'h', 'l', 'c', 'v'])}\n${b.count} candles from ${b.source}${b.paid ? ' (paid)' : ' (free tier)'}${b._cursor ? `\nmore: _cursor ${b._cursor}` : ''}`;
      });
    });
}
