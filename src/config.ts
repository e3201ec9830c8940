import Value from 'typebox/value';
import type { HostName } from './upstream/hosts.js';
import type { ModelSpec } from './config-models.js';
import type { FacilitatorAuth } from './payments/facilitator.js';
import { EnvSchema, type Env } from './config-env.js';
import type { TracingSettings } from './core/tracing.js';
import { variableProblems } from './config-rules.js';
import type { McpGuard } from './config-mcp-guard.js';
import { readTlog, type TlogConfig } from './config-tlog.js';
import { readCorroborationRules } from './config-env-corroboration.js';
import {
  checkFacilitatorNeeded,
  checkPayTo,
  readFacilitatorAuth,
  readModels,
  readPlaid,
  readProcessRules,
  readSecretKeys,
  readUpstreams,
} from './config-read.js';
import { configOf } from './config-settings.js';

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

/** Pure: env → Config. Throws ConfigError naming every bad variable at once, in the order the variables are read. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { known, parsed } = parseEnv(env);
  const problems = variableProblems(known, parsed);
  const upstreams = readUpstreams(env, problems);
  const { workers, fetchAllowedPorts } = readProcessRules(parsed, problems);
  checkFacilitatorNeeded(parsed, problems);
  const models = readModels(parsed, env, upstreams.llm, problems);
  const secretKeys = readSecretKeys(parsed, problems);
  const plaid = readPlaid(parsed, secretKeys, problems);
  checkPayTo(parsed, problems);
  const facilitatorAuth = readFacilitatorAuth(parsed, problems);
  const publicUrl = parsed.SVC_PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  const tlog = readTlog(parsed, publicUrl, problems);
  const corroboration = readCorroborationRules(parsed.SVC_CORROBORATION_RULES, problems);
  if (problems.length) throw new ConfigError(problems);
  return configOf(parsed, {
    publicUrl,
    upstreams,
    workers,
    fetchAllowedPorts,
    models,
    secretKeys,
    plaid,
    facilitatorAuth,
    tlog,
    corroboration,
  });
}

/** The variables the schema knows, set and not empty, converted to their types with the defaults filled in. */
function parseEnv(env: NodeJS.ProcessEnv): { known: Record<string, string>; parsed: Env } {
  const known: Record<string, string> = Object.fromEntries(
    Object.keys(EnvSchema.properties).flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])),
  );
  // `https://svc.example.org/` is the same public URL as without its slash; the service appends paths to it.
  if (known.SVC_PUBLIC_URL) known.SVC_PUBLIC_URL = known.SVC_PUBLIC_URL.replace(/\/+$/, '');
  return { known, parsed: Value.Default(EnvSchema, Value.Convert(EnvSchema, known)) as Env };
}
