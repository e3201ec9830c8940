#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { createClient, type BodyOf, type SvcClient } from './client.js';
import { PaymentRequiredError, SpendCapError, SvcHttpError, SvcNetworkError, formatUsd } from './errors.js';
import type { RequestDescription } from './meta.js';
import { record, table, withSpinner } from './output.js';
import { formatReport, runConformance } from './conformance.js';

/** Exit codes scripts can rely on (also in the README). */
const EXIT = { ok: 0, invalid: 1, usage: 2, http: 3, payment: 4, network: 5 } as const;

class CliFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

interface GlobalOptions {
  baseUrl: string;
  json?: boolean;
  walletFile?: string;
  maxPayment: number;
  maxSession: number;
}

const usd = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected an amount in USD, e.g. 0.5');
  return n;
};
const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer');
  return Number(value);
};
/** Unix seconds, or an ISO 8601 date. */
const time = (value: string) => {
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected Unix seconds or an ISO 8601 date');
  return Math.floor(ms / 1000);
};

/** The wallet key comes from SVC_WALLET_KEY or a file, never from an argument (it would land in shell history and ps). */
function walletKey(opts: GlobalOptions): Hex | undefined {
  const raw = opts.walletFile ? readFileSync(opts.walletFile, 'utf8') : process.env.SVC_WALLET_KEY;
  if (!raw) return undefined;
  const key = raw.trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new CliFailure(
      `the wallet key${opts.walletFile ? ` in ${opts.walletFile}` : ' in SVC_WALLET_KEY'} is not a 0x-prefixed 32-byte hex private key`,
      EXIT.usage,
    );
  return key as Hex;
}

function clientFor(opts: GlobalOptions): SvcClient {
  const key = walletKey(opts);
  return createClient({
    baseUrl: opts.baseUrl,
    ...(key ? { wallet: privateKeyToAccount(key) } : {}),
    ...(process.env.SVC_PASS ? { passToken: process.env.SVC_PASS } : {}),
    maxPaymentUsd: opts.maxPayment,
    maxSessionUsd: opts.maxSession,
  });
}

type SessionEventKind = BodyOf<'/api/agent-session/event'>['kind'];
const SESSION_EVENT_KINDS = [
  'click',
  'search',
  'fetch',
  'screenshot',
  'navigate',
  'type',
  'scroll',
  'thought',
  'log',
  'error',
] as const satisfies readonly SessionEventKind[];

function readScreenshot(path: string): string {
  try {
    return readFileSync(path).toString('base64');
  } catch (error) {
    throw new CliFailure(`${path}: ${(error as Error).message}`, EXIT.usage);
  }
}

/** "GET /api/data/preview?type=…&q=…" as the service hashes it: the path as written, the query last value wins. */
function describeRequest(line: string, bodyFile: string | undefined): RequestDescription {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(line);
  if (!match) throw new CliFailure(`--request: expected "METHOD /path?query", got ${JSON.stringify(line)}`, EXIT.usage);
  const [path = '', search = ''] = match[2]!.split(/\?(.*)/s);
  return {
    method: match[1]!.toUpperCase(),
    path,
    query: Object.fromEntries(new URLSearchParams(search)),
    body: bodyFile ? readJsonFile(bodyFile) : null,
  };
}

function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliFailure(`${path}: ${(error as Error).message}`, EXIT.usage);
  }
}

function buildCli(out: (text: string) => void = (text) => process.stdout.write(`${text}\n`)): Command {
  const program = new Command('svc')
    .description('Client for svc, the data service for AI agents')
    .addOption(new Option('--base-url <url>', 'service URL').env('SVC_BASE_URL').default('http://localhost:8080'))
    .option('--json', 'machine output: the response body as JSON')
    .option('--wallet-file <path>', 'file holding the wallet private key (else SVC_WALLET_KEY)')
    .option('--max-payment <usd>', 'largest single payment to sign', usd, 1)
    .option('--max-session <usd>', 'largest total to sign in this run', usd, 10)
    .showHelpAfterError()
    .exitOverride() // before the subcommands, which inherit it: usage errors become exit code 2 in main()
    .addHelpText(
      'after',
      '\nExit codes: 0 ok · 1 receipt invalid or a conformance miss · 2 usage · 3 service error · 4 payment not made · 5 service unreachable',
    );

  const globals = () => program.opts<GlobalOptions>();
  /** Prints `body` as JSON with --json, else with the given human renderer. */
  const show = <T>(body: T, human: (body: T) => string) => out(globals().json ? JSON.stringify(body) : human(body));
  const call = <T>(label: string, task: (client: SvcClient) => Promise<T>) => withSpinner(label, () => task(clientFor(globals())));

  program
    .command('conformance')
    .description("check a service against issue 35's agent guarantees over HTTP and MCP (a table; exit 1 on any miss)")
    .argument('[url]', 'the service to check (default: --base-url)')
    .action(async (url: string | undefined) => {
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

  program
    .command('verify')
    .description('check a saved response body (with _receipt) or a bare receipt offline; exit 0 valid, 1 invalid')
    .argument('<file>', 'JSON file')
    .option('--request <"METHOD /path?query">', 'the request the answer is for: its request_hash is checked too')
    .option('--request-body <file>', 'JSON body of that request (POST)')
    .action(async (file: string, o: { request?: string; requestBody?: string }) => {
      const saved = readJsonFile(file);
      const request = o.request ? describeRequest(o.request, o.requestBody) : undefined;
      const verdict = await call('fetching the receipt key', (c) => c.verifyReceipt(saved, { request }));
      show(verdict, (v) =>
        v.valid ? `valid (${v.checked}), key ${v.kid}, issued ${new Date(v.issued_at * 1000).toISOString()}` : `INVALID: ${v.reason}`,
      );
      if (!verdict.valid) process.exitCode = EXIT.invalid;
    });

  const pass = program.command('pass').description('day and week passes');
  pass
    .command('buy')
    .description('buy a pass with the wallet (day $0.99, week $4.99: raise --max-payment for a week)')
    .addArgument(new Argument('<kind>', 'day or week').choices(['day', 'week']))
    .action(async (kind: 'day' | 'week') => {
      const body = await call(`buying a ${kind} pass`, (c) => c.passes.buy(kind));
      show(
        body,
        (b) => `${record({ ...b, expires_at: new Date(b.expires_at * 1000).toISOString() })}\n\nuse it: export SVC_PASS=${b.pass}`,
      );
    });

  const session = program.command('session').description('live agent sessions');
  session
    .command('start')
    .description('start a session; prints its id, token and watch URL')
    .option('--label <text>', 'watch page title')
    .option('--agent-id <id>', 'who is acting')
    .addOption(new Option('--visibility <v>').choices(['public', 'unlisted']))
    .option('--ttl-minutes <n>', 'minutes without an event before it expires', integer)
    .action(async (o: { label?: string; agentId?: string; visibility?: 'public' | 'unlisted'; ttlMinutes?: number }) => {
      const body = await call('starting a session', (c) =>
        c.sessions.start({ label: o.label, agent_id: o.agentId, visibility: o.visibility, ttl_minutes: o.ttlMinutes }),
      );
      show(body, (b) => record(b));
    });
  const sessionToken = () =>
    new Option('--token <token>', 'the session_token printed by `svc session start`').env('SVC_SESSION_TOKEN').makeOptionMandatory();
  session
    .command('event')
    .description('post an event to a session you started (with its session token)')
    .argument('<session_id>')
    .addArgument(new Argument('<kind>', 'what happened').choices(SESSION_EVENT_KINDS))
    .argument('[text...]', 'what the watchers read')
    .addOption(sessionToken())
    .option('--screenshot <file>', 'PNG, JPEG or WebP image (required for kind screenshot)')
    .action(async (sessionId: string, kind: SessionEventKind, words: string[], o: { token: string; screenshot?: string }) => {
      const text = words.join(' ');
      const body = await call(`posting ${kind}`, (c) =>
        c.sessions.event(
          {
            session_id: sessionId,
            kind,
            ...(text ? { text } : {}),
            ...(o.screenshot ? { screenshot_b64: readScreenshot(o.screenshot) } : {}),
          },
          o.token,
        ),
      );
      show(body, (b) => `posted event ${b.seq}`);
    });
  session
    .command('end')
    .description('end a session you started (with its session token)')
    .argument('<session_id>')
    .addOption(sessionToken())
    .action(async (sessionId: string, o: { token: string }) => {
      const body = await call('ending the session', (c) => c.sessions.end(sessionId, o.token));
      show(body, (b) => record(b));
    });
  session
    .command('watch')
    .description('follow a session live until it ends (one line per event; JSON lines with --json)')
    .argument('<session_id>')
    .action(async (sessionId: string) => {
      for await (const e of clientFor(globals()).sessions.watch(sessionId)) {
        const data = e.data as { text?: string; ts?: number };
        out(
          globals().json
            ? JSON.stringify(e)
            : `${e.id ?? '-'}\t${e.kind}\t${data.ts ? new Date(data.ts).toISOString() : ''}\t${data.text ?? JSON.stringify(e.data)}`,
        );
      }
    });

  return program;
}

/** Maps failures to exit codes and one line on stderr. */
function failure(error: unknown): { code: number; message: string } {
  if (error instanceof CliFailure) return { code: error.code, message: error.message };
  if (error instanceof SpendCapError) return { code: EXIT.payment, message: error.message };
  if (error instanceof PaymentRequiredError) {
    const price = error.amount === undefined ? '' : ` (${formatUsd(error.amount)})`;
    return { code: EXIT.payment, message: `${error.message}${price}; set SVC_WALLET_KEY or --wallet-file, or SVC_PASS` };
  }
  if (error instanceof SvcHttpError) return { code: EXIT.http, message: error.message };
  if (error instanceof SvcNetworkError) return { code: EXIT.network, message: error.message };
  return { code: EXIT.invalid, message: error instanceof Error ? error.message : String(error) };
}

async function main(argv = process.argv): Promise<void> {
  const program = buildCli();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const { code, message } = failure(error);
    process.stderr.write(`svc: ${message}\n`);
    process.exitCode = code;
  }
}

await main();
