import Value from 'typebox/value';
import ipaddr from 'ipaddr.js';
import { HOSTS, hostEnvName, type HostName } from './upstream/hosts.js';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { legacyModel, parseModels, type ModelSpec } from './config-models.js';
import type { FacilitatorAuth } from './payments/facilitator.js';
import { EnvSchema, type Env } from './config-env.js';
import type { TracingSettings } from './core/tracing.js';
import { parseBoolean } from './core/booleans.js';
import { parseTrustProxy, variableProblems } from './config-rules.js';
import { mcpGuardOf, type McpGuard } from './config-mcp-guard.js';
import { readTlog, type TlogConfig } from './config-tlog.js';
import { readCorroborationRules } from './config-env-corroboration.js';

export { EnvSchema, type Env } from './config-env.js';

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
  /** Postgres: how long a query may go unanswered before its connection is ended. */
  dbQueryTimeoutMs: number;
  redisUrl?: string;
  redisPrefix: string;
  /** Deadline of every Redis command. */
  redisTimeoutMs: number;
  /** How long /readyz waits for the database and Redis. */
  readyTimeoutMs: number;
  /** SIGTERM: how long in-flight requests have to finish. */
  shutdownTimeoutMs: number;
  /** SIGTERM: how long the instance serves while reporting not ready, before it stops accepting. */
  shutdownDrainMs: number;
  /** Fastify's trustProxy: false (socket address), a hop count, or a list of trusted proxy addresses/CIDRs. */
  trustProxy: false | number | string[];
  metricsToken?: string;
  /** Processes serving the port (SVC_WORKERS, `auto` resolved to the core count). */
  workers: number;
  server: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number; maxConnections: number };
  signingKey?: string;
  /** SVC_SIGNING_KEYS_PREVIOUS as given: earlier keys receipts are still checked against. */
  signingKeysPrevious?: string;
  demo: boolean;
  demoSeed: number;
  /** SVC_DEMO_PERTURB as given: upstreams the demo world answers wrongly (src/demo/perturb.ts). */
  demoPerturb: string;
  /** Test only: where the process kills itself (SVC_TEST_CRASH_AT). */
  testCrashAt?: 'after_charge';
  userAgent: string;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  /** Log requests to /healthz, /readyz and /metrics too. */
  logHealthProbes: boolean;
  /** OpenTelemetry export; undefined = tracing off. */
  tracing?: TracingSettings;
  upstreams: Record<HostName, UpstreamSetting>;
  payTo: string;
  x402Network: 'base' | 'base-sepolia';
  x402MaxTimeoutS: number;
  /** Types the live stream polls: every one, none, or the listed ones (checked against the registry by createDeps). */
  streamWatch: 'all' | 'off' | string[];
  streamPollS: number;
  streamMaxPerIp: number;
  session: {
    ttlMaxMin: number;
    retentionMs: number;
    watchersPerIp: number;
    watchersPerSession: number;
    images: { perSessionBytes: number; perClientDayBytes: number; budgetBytes: number };
  };
  scheduler: boolean;
  cronKey?: string;
  fetchAllowedPorts: number[];
  /** Non-public addresses calib-pro webhooks may reach (SVC_WEBHOOK_ALLOWED_ADDRESSES). */
  webhookAllowedAddresses: string[];
  llmModel: string;
  /** Language models by role (SVC_MODELS, else the legacy UPSTREAM_LLM_* model). */
  models: ModelSpec[];
  modelDeadlineMs: number;
  modelBudgetUsdPerDay?: number;
  /** AES-256-GCM keys for stored secrets: the current one first, then former ones (decrypt only). */
  secretKeys: Buffer[];
  /** Plaid credentials; undefined = account linking off (manual holdings still work). */
  plaid?: { clientId: string; secret: string; baseUrl: string };
  paymentSettle: 'sync' | 'async' | 'off';
  paymentVerify: 'local' | 'facilitator' | 'both';
  facilitatorUrl?: string;
  facilitatorAuth: FacilitatorAuth;
  stripeSecretKey?: string;
  stripeApiUrl?: string;
  adminToken?: string;
  ratePerMin: { anonymous: number; standard: number; pro: number; pass: number };
  /** What the svc-mcp stdio binary uses: a remote instance and the credentials its tools present. */
  mcpClient?: {
    baseUrl?: string;
    pass?: string;
    agentKey?: string;
    apiKey?: string;
    portfolioToken?: string;
    /** SVC_MCP_TOOLSETS as written (validated against the toolset words). */
    toolsets?: string;
    readonly?: boolean;
  };
  /** Which Host and Origin headers /mcp answers (DNS-rebinding guard). */
  mcpGuard: McpGuard;
  tlog: TlogConfig;
  /** The rule in effect for every corroborated type: declared, or as SVC_CORROBORATION_RULES replaces it. */
  corroboration: ReturnType<typeof readCorroborationRules>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    // One problem is one line, as every start-up error is; several are listed one a line.
    super(problems.length === 1 ? `invalid configuration: ${problems[0]}` : `invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

const isAddressOrCidr = (text: string) => ipaddr.isValid(text) || (text.includes('/') && ipaddr.isValidCIDR(text));

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

/** loadConfig for entry points (the service, the MCP stdio binary): bad variables go to stderr and the process exits 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
}

/** Pure: env → Config. Throws ConfigError naming every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const known: Record<string, string> = Object.fromEntries(
    Object.keys(EnvSchema.properties).flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])),
  );
  // `https://svc.example.org/` is the same public URL as without its slash; the service appends paths to it.
  if (known.SVC_PUBLIC_URL) known.SVC_PUBLIC_URL = known.SVC_PUBLIC_URL.replace(/\/+$/, '');
  const parsed = Value.Default(EnvSchema, Value.Convert(EnvSchema, known)) as Env;
  const problems = variableProblems(known, parsed);
  const upstreams = readUpstreams(env, problems);
  for (const entry of parsed.SVC_TRUST_PROXY?.includes('.') || parsed.SVC_TRUST_PROXY?.includes(':')
    ? parsed.SVC_TRUST_PROXY.split(',')
    : []) {
    if (!isAddressOrCidr(entry.trim())) problems.push(`SVC_TRUST_PROXY: "${entry.trim()}" is neither an IP address nor a CIDR range`);
  }
  if (parsed.SVC_HEADERS_TIMEOUT_MS > parsed.SVC_REQUEST_TIMEOUT_MS) {
    problems.push(`SVC_HEADERS_TIMEOUT_MS: must not exceed SVC_REQUEST_TIMEOUT_MS (${parsed.SVC_REQUEST_TIMEOUT_MS})`);
  }
  const fetchAllowedPorts = parsed.SVC_FETCH_ALLOWED_PORTS.split(',').map(Number);
  if (fetchAllowedPorts.some((port) => port < 1 || port > 65535))
    problems.push(`SVC_FETCH_ALLOWED_PORTS: ports are 1 to 65535 (got "${parsed.SVC_FETCH_ALLOWED_PORTS}")`);
  const workers = parsed.SVC_WORKERS === 'auto' ? availableParallelism() : Number(parsed.SVC_WORKERS);
  if (workers > 1 && !parsed.REDIS_URL)
    problems.push(
      `SVC_WORKERS: ${workers} processes need REDIS_URL: each receives the events of its own streams over the Redis bus (set REDIS_URL or SVC_WORKERS=1)`,
    );
  if (parsed.PAYMENT_SETTLE !== 'off' && !parsed.X402_FACILITATOR_URL)
    problems.push(`PAYMENT_SETTLE: "${parsed.PAYMENT_SETTLE}" needs X402_FACILITATOR_URL`);
  if (parsed.PAYMENT_VERIFY !== 'local' && !parsed.X402_FACILITATOR_URL)
    problems.push(`PAYMENT_VERIFY: "${parsed.PAYMENT_VERIFY}" needs X402_FACILITATOR_URL`);
  const models = readModels(parsed, env, upstreams.llm, problems);
  const secretKeys = [parsed.SVC_SECRET_KEY, ...(parsed.SVC_SECRET_KEY_PREVIOUS ?? '').split(',')].flatMap((k) =>
    k?.trim() ? [readSecretKey(k.trim(), problems)] : [],
  );
  const plaid = readPlaid(parsed, secretKeys, problems);
  if (parsed.PAYMENT_SETTLE !== 'off' && /^0x0{40}$/.test(parsed.SVC_PAY_TO)) {
    problems.push(`SVC_PAY_TO: PAYMENT_SETTLE="${parsed.PAYMENT_SETTLE}" would settle payments to the zero address; set your USDC address`);
  }
  const facilitatorAuth = readFacilitatorAuth(parsed, problems);
  const publicUrl = parsed.SVC_PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  const tlog = readTlog(parsed, publicUrl, problems);
  const corroboration = readCorroborationRules(parsed.SVC_CORROBORATION_RULES, problems);
  if (problems.length) throw new ConfigError(problems);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    publicUrl,
    issuer: new URL(publicUrl).hostname,
    dataDir: parsed.SVC_DATA_DIR,
    databaseUrl: parsed.DATABASE_URL,
    dbQueryTimeoutMs: parsed.SVC_DB_QUERY_TIMEOUT_MS,
    redisUrl: parsed.REDIS_URL,
    redisPrefix: parsed.SVC_REDIS_PREFIX,
    redisTimeoutMs: parsed.SVC_REDIS_TIMEOUT_MS,
    readyTimeoutMs: parsed.SVC_READY_TIMEOUT_MS,
    shutdownTimeoutMs: parsed.SVC_SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: parsed.SVC_SHUTDOWN_DRAIN_MS,
    trustProxy: parseTrustProxy(parsed.SVC_TRUST_PROXY),
    metricsToken: parsed.SVC_METRICS_TOKEN,
    workers,
    server: {
      headersTimeoutMs: parsed.SVC_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: parsed.SVC_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: parsed.SVC_KEEPALIVE_TIMEOUT_MS,
      maxConnections: parsed.SVC_MAX_CONNECTIONS,
    },
    signingKey: parsed.SVC_SIGNING_KEY,
    signingKeysPrevious: parsed.SVC_SIGNING_KEYS_PREVIOUS,
    demo: parseBoolean(parsed.SVC_DEMO)!,
    demoSeed: parsed.SVC_DEMO_SEED,
    demoPerturb: parsed.SVC_DEMO_PERTURB,
    ...(parsed.SVC_TEST_CRASH_AT ? { testCrashAt: parsed.SVC_TEST_CRASH_AT } : {}),
    userAgent: parsed.SVC_USER_AGENT,
    logLevel: parsed.LOG_LEVEL,
    logFormat: parsed.LOG_FORMAT,
    logHealthProbes: parseBoolean(parsed.SVC_LOG_HEALTH_PROBES)!,
    ...(parsed.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { tracing: { endpoint: parsed.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: parsed.OTEL_SERVICE_NAME } }
      : {}),
    upstreams,
    payTo: parsed.SVC_PAY_TO,
    x402Network: parsed.X402_NETWORK,
    x402MaxTimeoutS: parsed.X402_MAX_TIMEOUT_S,
    streamWatch:
      parsed.SVC_STREAM_WATCH === undefined ? 'all' : parsed.SVC_STREAM_WATCH === 'off' ? 'off' : parsed.SVC_STREAM_WATCH.split(','),
    streamPollS: parsed.SVC_STREAM_POLL_S,
    streamMaxPerIp: parsed.SVC_STREAM_MAX_PER_IP,
    session: {
      ttlMaxMin: parsed.SVC_SESSION_TTL_MAX_MIN,
      retentionMs: parsed.SVC_SESSION_RETENTION_H * 3_600_000,
      watchersPerIp: parsed.SVC_SESSION_WATCHERS_PER_IP,
      watchersPerSession: parsed.SVC_SESSION_WATCHERS_PER_SESSION,
      images: {
        perSessionBytes: parsed.SVC_SESSION_IMAGES_PER_SESSION_MB * 1_048_576,
        perClientDayBytes: parsed.SVC_SESSION_IMAGES_PER_CLIENT_DAY_MB * 1_048_576,
        budgetBytes: parsed.SVC_SESSION_IMAGES_BUDGET_MB * 1_048_576,
      },
    },
    scheduler: parseBoolean(parsed.SVC_SCHEDULER)!,
    cronKey: parsed.SVC_CRON_KEY,
    fetchAllowedPorts,
    webhookAllowedAddresses: parsed.SVC_WEBHOOK_ALLOWED_ADDRESSES?.split(',') ?? [],
    llmModel: parsed.SVC_LLM_MODEL,
    models,
    modelDeadlineMs: parsed.SVC_MODEL_DEADLINE_MS,
    modelBudgetUsdPerDay: parsed.SVC_MODEL_BUDGET_USD_PER_DAY,
    secretKeys,
    plaid,
    paymentSettle: parsed.PAYMENT_SETTLE,
    paymentVerify: parsed.PAYMENT_VERIFY,
    facilitatorUrl: parsed.X402_FACILITATOR_URL?.replace(/\/+$/, ''),
    facilitatorAuth,
    stripeSecretKey: parsed.STRIPE_SECRET_KEY,
    stripeApiUrl: parsed.STRIPE_API_URL,
    adminToken: parsed.SVC_ADMIN_TOKEN,
    ratePerMin: {
      anonymous: parsed.SVC_RATE_ANON_PER_MIN,
      standard: parsed.SVC_RATE_KEY_PER_MIN,
      pro: parsed.SVC_RATE_PRO_PER_MIN,
      pass: parsed.SVC_RATE_PASS_PER_MIN,
    },
    mcpGuard: mcpGuardOf(parsed),
    tlog,
    corroboration,
    mcpClient: {
      baseUrl: parsed.SVC_BASE_URL?.replace(/\/+$/, ''),
      pass: parsed.SVC_MCP_PASS,
      agentKey: parsed.SVC_MCP_AGENT_KEY,
      apiKey: parsed.SVC_MCP_API_KEY,
      portfolioToken: parsed.SVC_MCP_PORTFOLIO_TOKEN,
      toolsets: parsed.SVC_MCP_TOOLSETS,
      readonly: parseBoolean(parsed.SVC_MCP_READONLY)!,
    },
  };
}

/** SVC_MODELS inline (starts with `[`) or from a file; without it, the legacy UPSTREAM_LLM_* model. */
function readModels(parsed: Env, env: NodeJS.ProcessEnv, llm: UpstreamSetting, problems: string[]): ModelSpec[] {
  const source = parsed.SVC_MODELS?.trim();
  if (!source) return legacyModel(llm, parsed.SVC_LLM_MODEL);
  let text = source;
  if (!source.startsWith('[')) {
    try {
      text = readFileSync(source, 'utf8');
    } catch (e) {
      problems.push(`SVC_MODELS: cannot read the file "${source}" (${(e as Error).message})`);
      return [];
    }
  }
  const result = parseModels(text, env);
  problems.push(...result.problems);
  return result.models;
}

function readSecretKey(text: string, problems: string[]): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) problems.push(`SVC_SECRET_KEY: must be 32 bytes as 64 hex digits or base64 (got ${key.length} bytes)`);
  return key;
}

const PLAID_HOSTS = { sandbox: 'https://sandbox.plaid.com', production: 'https://production.plaid.com' } as const;

function readPlaid(parsed: Env, secretKeys: Buffer[], problems: string[]): Config['plaid'] {
  const { PLAID_CLIENT_ID: clientId, PLAID_SECRET: secret } = parsed;
  if (!clientId && !secret) return undefined;
  if (!clientId || !secret) problems.push('PLAID_CLIENT_ID and PLAID_SECRET: set both or neither');
  if (secretKeys.length === 0) problems.push('SVC_SECRET_KEY: required with PLAID_CLIENT_ID (Plaid access tokens are stored encrypted)');
  return clientId && secret
    ? { clientId, secret, baseUrl: (parsed.PLAID_BASE_URL ?? PLAID_HOSTS[parsed.PLAID_ENV]).replace(/\/+$/, '') }
    : undefined;
}

/** The facilitator auth mode with the secrets it needs; a missing secret is a problem named by its variable. */
function readFacilitatorAuth(parsed: Env, problems: string[]): FacilitatorAuth {
  switch (parsed.X402_FACILITATOR_AUTH) {
    case 'none':
      return { kind: 'none' };
    case 'bearer':
      if (!parsed.X402_FACILITATOR_TOKEN) problems.push('X402_FACILITATOR_TOKEN: required by X402_FACILITATOR_AUTH=bearer');
      return { kind: 'bearer', token: parsed.X402_FACILITATOR_TOKEN ?? '' };
    case 'cdp':
      if (!parsed.CDP_API_KEY_ID || !parsed.CDP_API_KEY_SECRET)
        problems.push('CDP_API_KEY_ID, CDP_API_KEY_SECRET: both required by X402_FACILITATOR_AUTH=cdp');
      return { kind: 'cdp', keyId: parsed.CDP_API_KEY_ID ?? '', keySecret: parsed.CDP_API_KEY_SECRET ?? '' };
  }
}
