import { parseBoolean } from './core/booleans.js';
import { parseTrustProxy } from './config-rules.js';
import { mcpGuardOf } from './config-mcp-guard.js';
import type { Env } from './config-env.js';
import type { Config } from './config.js';

/** What loadConfig read and checked across variables (src/config-read.ts and the tlog and corroboration readers). */
export type Checked = Pick<
  Config,
  | 'publicUrl'
  | 'upstreams'
  | 'workers'
  | 'fetchAllowedPorts'
  | 'models'
  | 'secretKeys'
  | 'plaid'
  | 'facilitatorAuth'
  | 'tlog'
  | 'corroboration'
>;

/** The Config of variables known to be valid, section by section (the key order is the interface's). */
export function configOf(parsed: Env, checked: Checked): Config {
  return {
    ...processSettings(parsed, checked),
    ...operationSettings(parsed),
    upstreams: checked.upstreams,
    payTo: parsed.SVC_PAY_TO,
    x402Network: parsed.X402_NETWORK,
    x402MaxTimeoutS: parsed.X402_MAX_TIMEOUT_S,
    ...streamSettings(parsed),
    scheduler: parseBoolean(parsed.SVC_SCHEDULER)!,
    cronKey: parsed.SVC_CRON_KEY,
    fetchAllowedPorts: checked.fetchAllowedPorts,
    webhookAllowedAddresses: parsed.SVC_WEBHOOK_ALLOWED_ADDRESSES?.split(',') ?? [],
    llmModel: parsed.SVC_LLM_MODEL,
    models: checked.models,
    modelDeadlineMs: parsed.SVC_MODEL_DEADLINE_MS,
    modelBudgetUsdPerDay: parsed.SVC_MODEL_BUDGET_USD_PER_DAY,
    secretKeys: checked.secretKeys,
    plaid: checked.plaid,
    paymentSettle: parsed.PAYMENT_SETTLE,
    paymentVerify: parsed.PAYMENT_VERIFY,
    facilitatorUrl: parsed.X402_FACILITATOR_URL?.replace(/\/+$/, ''),
    facilitatorAuth: checked.facilitatorAuth,
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
    tlog: checked.tlog,
    corroboration: checked.corroboration,
    mcpClient: mcpClientOf(parsed),
  };
}

type ProcessSettings = Pick<
  Config,
  | 'port'
  | 'host'
  | 'publicUrl'
  | 'issuer'
  | 'dataDir'
  | 'databaseUrl'
  | 'dbQueryTimeoutMs'
  | 'redisUrl'
  | 'redisPrefix'
  | 'redisTimeoutMs'
  | 'readyTimeoutMs'
  | 'shutdownTimeoutMs'
  | 'shutdownDrainMs'
  | 'trustProxy'
  | 'metricsToken'
  | 'workers'
  | 'server'
>;

/** Where the process listens and keeps its state, and how its server treats connections. */
function processSettings(parsed: Env, { publicUrl, workers }: Checked): ProcessSettings {
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
  };
}

type OperationSettings = Pick<
  Config,
  | 'signingKey'
  | 'signingKeysPrevious'
  | 'demo'
  | 'demoSeed'
  | 'demoPerturb'
  | 'testCrashAt'
  | 'userAgent'
  | 'logLevel'
  | 'logFormat'
  | 'logHealthProbes'
  | 'tracing'
>;

/** How the instance signs, whether it runs the demo world, and how it logs and traces. */
function operationSettings(parsed: Env): OperationSettings {
  return {
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
  };
}

/** The live data stream and the agent sessions: what they poll and how many watchers they take. */
function streamSettings(parsed: Env): Pick<Config, 'streamWatch' | 'streamPollS' | 'streamMaxPerIp' | 'session'> {
  return {
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
  };
}

/** What the svc-mcp stdio binary uses: the remote instance and the credentials its tools present. */
function mcpClientOf(parsed: Env): Config['mcpClient'] {
  return {
    baseUrl: parsed.SVC_BASE_URL?.replace(/\/+$/, ''),
    pass: parsed.SVC_MCP_PASS,
    agentKey: parsed.SVC_MCP_AGENT_KEY,
    apiKey: parsed.SVC_MCP_API_KEY,
    portfolioToken: parsed.SVC_MCP_PORTFOLIO_TOKEN,
    toolsets: parsed.SVC_MCP_TOOLSETS,
    readonly: parseBoolean(parsed.SVC_MCP_READONLY)!,
  };
}
