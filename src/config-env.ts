import Type, { type Static } from 'typebox';
import { Flag, MCP_STDIO_ENV } from './config-env-stdio.js';
import { SIGNING_KEY_ENV } from './config-env-keys.js';
import { buildInfo } from './core/build-info.js';
import { LOG_ENV } from './config-env-log.js';
import { PLAID_ENV } from './config-env-plaid.js';
import { DEMO_ENV } from './config-env-demo.js';
import { STORE_ENV } from './config-env-store.js';
import { CORROBORATION_ENV } from './config-env-corroboration.js';

/**
 * Every environment variable the service reads, with its rule and default. The table of docs/configuration.md
 * is generated from this schema (`npm run docs:config`). Upstream base URLs and keys (`UPSTREAM_<HOST>_URL` / `_KEY`) are
 * derived from `upstream/hosts.ts`.
 */
export const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'HTTP port' }),
  HOST: Type.String({ default: '0.0.0.0', description: 'listen address' }),
  SVC_PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/\\s]+$',
      expected: 'an http(s) URL of scheme and host only, such as https://svc.example.org',
      description: 'public base URL (scheme + host, no path); default http://localhost:PORT',
    }),
  ),
  SVC_DATA_DIR: Type.String({
    default: './data',
    minLength: 1,
    description: 'directory for the SQLite file and the generated signing key',
  }),
  ...STORE_ENV,
  SVC_READY_TIMEOUT_MS: Type.Integer({
    minimum: 50,
    maximum: 30_000,
    default: 1000,
    description:
      'GET /readyz and /healthz: how long the database (and, for /readyz, Redis) has to answer before the probe reports it unreachable',
  }),
  SVC_SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 0,
    maximum: 600_000,
    default: 10_000,
    description: 'on SIGTERM: how long in-flight requests have to finish before the remaining connections are closed',
  }),
  SVC_SHUTDOWN_DRAIN_MS: Type.Integer({
    minimum: 0,
    maximum: 600_000,
    default: 0,
    description:
      'on SIGTERM, before the listener closes: how long the instance keeps serving with /readyz answering 503 and every answer closing its connection, so balancers stop sending first (set it above their health-check interval)',
  }),
  SVC_TRUST_PROXY: Type.Optional(
    Type.String({
      pattern: '^([0-9]{1,2}|[0-9A-Fa-f:.]+(/[0-9]{1,3})?(\\s*,\\s*[0-9A-Fa-f:.]+(/[0-9]{1,3})?)*)$',
      expected: 'a hop count (such as 1) or a comma-separated list of IP addresses and CIDR ranges',
      description:
        'which proxies may set X-Forwarded-For: a hop count (1 = the nearest proxy) or a comma-separated list of IPs/CIDRs; unset = the socket address is the client',
    }),
  ),
  SVC_METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description: 'bearer token required by GET /metrics; unset = /metrics is open (keep it on your private network)',
    }),
  ),
  SVC_HEADERS_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 120_000,
    default: 10_000,
    description: 'time a client has to send the request headers (slowloris guard)',
  }),
  SVC_REQUEST_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 600_000,
    default: 30_000,
    description: 'time a client has to send the whole request, body included',
  }),
  SVC_KEEPALIVE_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 120_000,
    default: 5_000,
    description: 'idle keep-alive time between requests on one connection',
  }),
  SVC_MAX_CONNECTIONS: Type.Integer({
    minimum: 10,
    maximum: 1_000_000,
    default: 20_000,
    description: 'open connections the server accepts (SSE watchers included); more are refused',
  }),
  SVC_WORKERS: Type.String({
    pattern: '^(auto|[1-9][0-9]?)$',
    expected: 'auto or a number of processes from 1 to 99',
    default: '1',
    description:
      'processes serving the one port (node:cluster), 1–99 or auto (one per core); more than 1 needs REDIS_URL (docs/operations.md)',
  }),
  ...SIGNING_KEY_ENV,
  ...DEMO_ENV,
  ...CORROBORATION_ENV,
  SVC_TEST_CRASH_AT: Type.Optional(
    Type.Literal('after_charge', {
      description:
        'test only: after_charge = the process kills itself (SIGKILL) right after a paid request’s charge is recorded, before its answer is kept (test/payments/idempotency-crash.test.ts); never set it in production',
    }),
  ),
  SVC_USER_AGENT: Type.String({
    default: `svc/${buildInfo.version} (+https://github.com/svc-data/svc; ops@example.org)`,
    minLength: 8,
    description: 'identifying User-Agent sent to upstreams that require one (SEC EDGAR, MET Norway)',
  }),
  SVC_PAY_TO: Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    expected: 'an Ethereum address: 0x and 40 hex digits',
    default: '0x0000000000000000000000000000000000000000',
    description: 'USDC recipient address for x402 payments (set it before charging anyone)',
  }),
  X402_NETWORK: Type.Union([Type.Literal('base'), Type.Literal('base-sepolia')], { default: 'base', description: 'x402 network' }),
  X402_MAX_TIMEOUT_S: Type.Integer({ minimum: 60, maximum: 300, default: 120, description: 'maxTimeoutSeconds offered in 402 challenges' }),
  PAYMENT_SETTLE: Type.Union([Type.Literal('sync'), Type.Literal('async'), Type.Literal('off')], {
    default: 'off',
    description: 'x402 settlement: sync (before answering), async (durable queue), off (record as unsettled)',
  }),
  PAYMENT_VERIFY: Type.Union([Type.Literal('local'), Type.Literal('facilitator'), Type.Literal('both')], {
    default: 'local',
    description:
      'who checks x402 signatures: local (svc, offline; smart-wallet signatures go to the facilitator), facilitator (its POST /verify), both; facilitator and both need X402_FACILITATOR_URL',
  }),
  X402_FACILITATOR_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'x402 facilitator base URL (GET /supported at start-up, POST /verify, POST /settle); required by sync and async settlement and by PAYMENT_VERIFY=facilitator|both',
    }),
  ),
  X402_FACILITATOR_AUTH: Type.Union([Type.Literal('none'), Type.Literal('bearer'), Type.Literal('cdp')], {
    default: 'none',
    description:
      'how svc authenticates to the facilitator: none (x402.org testnet), bearer (X402_FACILITATOR_TOKEN), cdp (a JWT per request from CDP_API_KEY_ID / CDP_API_KEY_SECRET)',
  }),
  X402_FACILITATOR_TOKEN: Type.Optional(Type.String({ minLength: 8, description: 'bearer token for X402_FACILITATOR_AUTH=bearer' })),
  CDP_API_KEY_ID: Type.Optional(
    Type.String({ minLength: 1, description: 'Coinbase Developer Platform API key id (X402_FACILITATOR_AUTH=cdp)' }),
  ),
  CDP_API_KEY_SECRET: Type.Optional(
    Type.String({ minLength: 40, description: 'CDP API key secret: EC private key PEM or base64 Ed25519 key (X402_FACILITATOR_AUTH=cdp)' }),
  ),
  STRIPE_SECRET_KEY: Type.Optional(
    Type.String({
      pattern: '^(sk|rk)_(live|test)_',
      expected: 'a Stripe secret or restricted key (sk_live_, sk_test_, rk_live_ or rk_test_…)',
      description: 'Stripe key for checkout-session payments',
    }),
  ),
  STRIPE_API_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/]+$',
      expected: 'an http(s) URL of scheme and host only',
      description: 'Stripe API base (tests point it at a fake)',
    }),
  ),
  SVC_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16, description: 'bearer token for the admin routes (API keys)' })),
  SVC_RATE_ANON_PER_MIN: Type.Integer({
    minimum: 1,
    default: 120,
    description: 'requests per minute per IP without a key or pass (token bucket, burst = one minute)',
  }),
  SVC_RATE_KEY_PER_MIN: Type.Integer({ minimum: 1, default: 600, description: 'requests per minute per standard API key' }),
  SVC_RATE_PRO_PER_MIN: Type.Integer({ minimum: 1, default: 6000, description: 'requests per minute per pro API key' }),
  SVC_RATE_PASS_PER_MIN: Type.Integer({ minimum: 1, default: 1200, description: 'requests per minute per day/week pass' }),
  SVC_STREAM_WATCH: Type.Optional(
    Type.String({
      pattern: '^(off|[a-z0-9-]+(,[a-z0-9-]+)*)$',
      expected: 'off or a comma-separated list of data types',
      description:
        'types the live stream polls (their catalog examples, each at its own interval: docs/streams.md): unset = every type, a comma list restricts it, `off` polls none',
    }),
  ),
  SVC_STREAM_POLL_S: Type.Integer({
    minimum: 5,
    maximum: 3600,
    default: 15,
    description: 'seconds between checks of the watch list for types due to be polled',
  }),
  SVC_STREAM_MAX_PER_IP: Type.Integer({ minimum: 1, maximum: 100, default: 3, description: 'concurrent anonymous streams per IP' }),
  SVC_SESSION_TTL_MAX_MIN: Type.Integer({
    minimum: 1,
    maximum: 10080,
    default: 1440,
    description: 'largest ttl_minutes an agent session may ask for (inactivity before it expires)',
  }),
  SVC_SESSION_RETENTION_H: Type.Integer({
    minimum: 1,
    maximum: 8760,
    default: 168,
    description: 'hours an ended or expired agent session stays viewable read-only before it is deleted',
  }),
  SVC_SESSION_WATCHERS_PER_IP: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 20,
    description: 'concurrent agent-session streams per IP, across instances',
  }),
  SVC_SESSION_WATCHERS_PER_SESSION: Type.Integer({
    minimum: 1,
    maximum: 1000000,
    default: 10000,
    description: 'concurrent watchers of one agent session, across instances',
  }),
  SVC_SESSION_IMAGES_PER_SESSION_MB: Type.Integer({
    minimum: 1,
    maximum: 1024,
    default: 16,
    description: 'MiB of screenshots one agent session may store (413 past it)',
  }),
  SVC_SESSION_IMAGES_PER_CLIENT_DAY_MB: Type.Integer({
    minimum: 1,
    maximum: 102_400,
    default: 64,
    description: 'MiB of screenshots one client address may store per UTC day (429 past it)',
  }),
  SVC_SESSION_IMAGES_BUDGET_MB: Type.Integer({
    minimum: 1,
    maximum: 1_048_576,
    default: 2048,
    description: 'MiB of screenshots stored in all; past it the images of the longest-ended sessions are evicted first',
  }),
  SVC_SCHEDULER: Flag('0 disables background jobs (snapshots, stream poller, viral refresh)', '1'),
  SVC_LLM_MODEL: Type.String({
    default: 'gpt-4o-mini',
    minLength: 1,
    description:
      'chat model that plans agent-context goals no built-in rule matches (OpenAI-compatible API at UPSTREAM_LLM_URL; needs UPSTREAM_LLM_KEY)',
  }),
  SVC_FETCH_ALLOWED_PORTS: Type.String({
    pattern: '^[0-9]{1,5}(,[0-9]{1,5})*$',
    expected: 'a comma-separated list of port numbers',
    default: '80,443',
    description: 'ports that fetches of user-given URLs (scrape) may connect to, comma-separated; redirects are held to the same list',
  }),
  SVC_WEBHOOK_ALLOWED_ADDRESSES: Type.Optional(
    Type.String({
      pattern: '^[0-9A-Fa-f.:]+(,[0-9A-Fa-f.:]+)*$',
      expected: 'a comma-separated list of IP addresses',
      description:
        'calib-pro webhooks: IP addresses allowed although not public, comma-separated (tests, or a receiver on a private network); default none',
    }),
  ),
  SVC_MODELS: Type.Optional(
    Type.String({
      minLength: 2,
      description:
        'language models by role: a JSON array (or the path of a JSON file) of {id, vendor, model, base_url?, key_env?, price_in_per_mtok?, price_out_per_mtok?, roles?, vision?}; see docs/models.md',
    }),
  ),
  SVC_MODEL_DEADLINE_MS: Type.Integer({
    minimum: 1000,
    maximum: 300000,
    default: 30000,
    description: 'deadline of one model call (a structured answer’s repair retry included)',
  }),
  SVC_MODEL_BUDGET_USD_PER_DAY: Type.Optional(
    Type.Number({ minimum: 0, description: 'spend cap per UTC day across all models; reached → 503 model_budget_exhausted' }),
  ),
  SVC_SECRET_KEY: Type.Optional(
    Type.String({
      pattern: '^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$',
      expected: '32 bytes as 64 hex digits or base64',
      description: '32-byte key (64 hex or base64) that encrypts stored secrets (Plaid access tokens) with AES-256-GCM',
    }),
  ),
  SVC_SECRET_KEY_PREVIOUS: Type.Optional(
    Type.String({ description: 'former SVC_SECRET_KEY values, comma-separated: still decrypt, never encrypt (key rotation)' }),
  ),
  ...PLAID_ENV,
  SVC_CRON_KEY: Type.Optional(Type.String({ minLength: 16, description: 'shared secret for GET /api/v1/viral/refresh?key=' })),
  ...MCP_STDIO_ENV,
  ...LOG_ENV,
});

export type Env = Static<typeof EnvSchema>;
