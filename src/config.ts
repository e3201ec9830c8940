import Type, { type Static } from 'typebox';
import Value from 'typebox/value';
import { HOSTS, hostEnvName, type HostName } from './upstream/hosts.js';

/**
 * Every environment variable the service reads, with its rule and default. README's configuration
 * table follows this schema. Upstream base URLs and keys (`UPSTREAM_<HOST>_URL` / `_KEY`) are
 * derived from `upstream/hosts.ts`.
 */
const Flag = (description: string) => Type.Union([Type.Literal('0'), Type.Literal('1')], { default: '0', description });

export const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'HTTP port' }),
  HOST: Type.String({ default: '0.0.0.0', description: 'listen address' }),
  SVC_PUBLIC_URL: Type.Optional(
    Type.String({ pattern: '^https?://[^/\\s]+$', description: 'public base URL (scheme + host, no path); default http://localhost:PORT' }),
  ),
  SVC_DATA_DIR: Type.String({ default: './data', minLength: 1, description: 'directory for the SQLite file and the generated signing key' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'Postgres URL; default is embedded SQLite in SVC_DATA_DIR' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'Redis URL for the shared cache, bus and rate limits' })),
  SVC_SIGNING_KEY: Type.Optional(Type.String({ minLength: 40, description: 'Ed25519 private key, PKCS#8 PEM or base64 DER' })),
  SVC_DEMO: Flag('1 = serve every upstream from the built-in simulator (offline demo)'),
  SVC_USER_AGENT: Type.String({
    default: 'svc/6.8.0 (+https://github.com/svc-data/svc; ops@example.org)',
    minLength: 8,
    description: 'identifying User-Agent sent to upstreams that require one (SEC EDGAR, MET Norway)',
  }),
  SVC_PAY_TO: Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    default: '0x0000000000000000000000000000000000000000',
    description: 'USDC recipient address for x402 payments (set it before charging anyone)',
  }),
  X402_NETWORK: Type.Union([Type.Literal('base'), Type.Literal('base-sepolia')], { default: 'base', description: 'x402 network' }),
  X402_MAX_TIMEOUT_S: Type.Integer({ minimum: 60, maximum: 300, default: 120, description: 'maxTimeoutSeconds offered in 402 challenges' }),
  PAYMENT_SETTLE: Type.Union([Type.Literal('sync'), Type.Literal('async'), Type.Literal('off')], {
    default: 'off',
    description: 'x402 settlement: sync (before answering), async (durable queue), off (record as unsettled)',
  }),
  X402_FACILITATOR_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'x402 facilitator base URL (POST /settle); required by sync and async' })),
  STRIPE_SECRET_KEY: Type.Optional(Type.String({ pattern: '^(sk|rk)_(live|test)_', description: 'Stripe key for checkout-session payments' })),
  STRIPE_API_URL: Type.Optional(Type.String({ pattern: '^https?://[^/]+$', description: 'Stripe API base (tests point it at a fake)' })),
  SVC_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16, description: 'bearer token for the admin routes (API keys)' })),
  SVC_RATE_ANON_PER_MIN: Type.Integer({ minimum: 1, default: 120, description: 'requests per minute per IP without a key or pass (token bucket, burst = one minute)' }),
  SVC_RATE_KEY_PER_MIN: Type.Integer({ minimum: 1, default: 600, description: 'requests per minute per standard API key' }),
  SVC_RATE_PRO_PER_MIN: Type.Integer({ minimum: 1, default: 6000, description: 'requests per minute per pro API key' }),
  SVC_RATE_PASS_PER_MIN: Type.Integer({ minimum: 1, default: 1200, description: 'requests per minute per day/week pass' }),
  SVC_STREAM_WATCH: Type.String({
    default: 'crypto-price:bitcoin,ethereum,solana;gas-prices-eth:;forex:EUR:USD',
    description: 'live stream watch list: `type:q` entries separated by `;`',
  }),
  SVC_STREAM_POLL_S: Type.Integer({ minimum: 5, maximum: 3600, default: 15, description: 'seconds between live stream polls' }),
  SVC_STREAM_MAX_PER_IP: Type.Integer({ minimum: 1, maximum: 100, default: 3, description: 'concurrent anonymous streams per IP' }),
  SVC_SCHEDULER: Type.Union([Type.Literal('0'), Type.Literal('1')], { default: '1', description: '0 disables background jobs (snapshots, stream poller, viral refresh)' }),
  SVC_LLM_MODEL: Type.String({
    default: 'gpt-4o-mini',
    minLength: 1,
    description: 'chat model that plans agent-context goals no built-in rule matches (OpenAI-compatible API at UPSTREAM_LLM_URL; needs UPSTREAM_LLM_KEY)',
  }),
  SVC_CRON_KEY: Type.Optional(Type.String({ minLength: 16, description: 'shared secret for GET /api/v1/viral/refresh?key=' })),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), {
    default: 'info',
    description: 'pino log level',
  }),
});

export type Env = Static<typeof EnvSchema>;

export interface UpstreamSetting {
  baseUrl: string;
  key?: string;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Hostname used as the receipt `issuer`. */
  issuer: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  signingKey?: string;
  demo: boolean;
  userAgent: string;
  logLevel: string;
  upstreams: Record<HostName, UpstreamSetting>;
  payTo: string;
  x402Network: 'base' | 'base-sepolia';
  x402MaxTimeoutS: number;
  streamWatch: { type: string; q: string }[];
  streamPollS: number;
  streamMaxPerIp: number;
  scheduler: boolean;
  cronKey?: string;
  llmModel: string;
  paymentSettle: 'sync' | 'async' | 'off';
  facilitatorUrl?: string;
  stripeSecretKey?: string;
  stripeApiUrl?: string;
  adminToken?: string;
  ratePerMin: { anonymous: number; standard: number; pro: number; pass: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

const isUrl = (s: string) => /^https?:\/\/[^\s]+$/.test(s);

function readUpstreams(env: NodeJS.ProcessEnv, problems: string[]): Record<HostName, UpstreamSetting> {
  const entries = Object.entries(HOSTS).map(([name, host]) => {
    const urlVar = hostEnvName(name, 'URL');
    const baseUrl = env[urlVar] ?? host.baseUrl;
    if (!isUrl(baseUrl)) problems.push(`${urlVar}: must be an http(s) URL (got "${baseUrl}")`);
    const key = env[hostEnvName(name, 'KEY')] || undefined;
    return [name, { baseUrl: baseUrl.replace(/\/+$/, ''), ...(key ? { key } : {}) }] as const;
  });
  return Object.fromEntries(entries) as Record<HostName, UpstreamSetting>;
}

/** Pure: env → Config. Throws ConfigError naming every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const known = Object.fromEntries(Object.keys(EnvSchema.properties).flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])));
  const parsed = Value.Default(EnvSchema, Value.Convert(EnvSchema, known)) as Env;
  const problems = [...Value.Errors(EnvSchema, parsed)].map((e) => `${e.instancePath.slice(1) || e.schemaPath}: ${e.message} (got "${String(known[e.instancePath.slice(1)] ?? '')}")`);
  const upstreams = readUpstreams(env, problems);
  if (parsed.PAYMENT_SETTLE !== 'off' && !parsed.X402_FACILITATOR_URL) {
    problems.push(`PAYMENT_SETTLE: "${parsed.PAYMENT_SETTLE}" needs X402_FACILITATOR_URL`);
  }
  if (problems.length) throw new ConfigError(problems);
  const publicUrl = parsed.SVC_PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    publicUrl,
    issuer: new URL(publicUrl).hostname,
    dataDir: parsed.SVC_DATA_DIR,
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    signingKey: parsed.SVC_SIGNING_KEY,
    demo: parsed.SVC_DEMO === '1',
    userAgent: parsed.SVC_USER_AGENT,
    logLevel: parsed.LOG_LEVEL,
    upstreams,
    payTo: parsed.SVC_PAY_TO,
    x402Network: parsed.X402_NETWORK,
    x402MaxTimeoutS: parsed.X402_MAX_TIMEOUT_S,
    streamWatch: parseWatchList(parsed.SVC_STREAM_WATCH),
    streamPollS: parsed.SVC_STREAM_POLL_S,
    streamMaxPerIp: parsed.SVC_STREAM_MAX_PER_IP,
    scheduler: parsed.SVC_SCHEDULER === '1',
    cronKey: parsed.SVC_CRON_KEY,
    llmModel: parsed.SVC_LLM_MODEL,
    paymentSettle: parsed.PAYMENT_SETTLE,
    facilitatorUrl: parsed.X402_FACILITATOR_URL?.replace(/\/+$/, ''),
    stripeSecretKey: parsed.STRIPE_SECRET_KEY,
    stripeApiUrl: parsed.STRIPE_API_URL,
    adminToken: parsed.SVC_ADMIN_TOKEN,
    ratePerMin: { anonymous: parsed.SVC_RATE_ANON_PER_MIN, standard: parsed.SVC_RATE_KEY_PER_MIN, pro: parsed.SVC_RATE_PRO_PER_MIN, pass: parsed.SVC_RATE_PASS_PER_MIN },
  };
}

/** `crypto-price:bitcoin,ethereum;forex:EUR:USD` → entries; the first colon splits type from q. */
function parseWatchList(text: string): { type: string; q: string }[] {
  return text
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.indexOf(':');
      return colon < 0 ? { type: entry, q: '' } : { type: entry.slice(0, colon), q: entry.slice(colon + 1) };
    });
}
