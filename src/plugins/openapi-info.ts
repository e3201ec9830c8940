import { ERROR_CODES } from '../core/errors.js';
import { FAILURE_REASONS } from '../upstream/errors.js';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Every error code with its HTTP status and meaning, as a Markdown table (docs/api.md and the OpenAPI description). */
export const errorCodeTable = (): string =>
  [
    '| code | status | meaning |',
    '|---|---|---|',
    ...Object.entries(ERROR_CODES).map(([code, { status, meaning }]) => `| \`${code}\` | ${status} | ${cell(meaning)} |`),
  ].join('\n');

/** Every failure reason of an `ok:false` result with its meaning, as a Markdown table. */
export const failureReasonTable = (): string =>
  [
    '| error | meaning |',
    '|---|---|',
    ...Object.entries(FAILURE_REASONS).map(([reason, meaning]) => `| \`${reason}\` | ${cell(meaning)} |`),
  ].join('\n');

/** The failure reasons as one inline list, for route descriptions that name them. */
export const failureReasonList = (): string => Object.keys(FAILURE_REASONS).join(', ');

/** The OpenAPI document's prose and declarations: tags, the top-level description, the security schemes. */
export const TAGS = [
  { name: 'data', description: 'Catalog, preview, bundle, stream, snapshot, backtest, gainers, viral, cams' },
  { name: 'entity', description: 'Canonical entity graph' },
  { name: 'agent-context', description: 'Goal → data fetches plus a decision recipe' },
  { name: 'receipts', description: 'Ed25519 receipts: verification and public key' },
  { name: 'payments', description: 'x402 micropayments, passes and checkout sessions' },
  { name: 'calibration', description: 'Claims, outcomes, reliability curves, agent cards' },
  {
    name: 'calib-pro',
    description: 'The paid tier of the calibration ledger: paid claims, verified-only cards, history windows, drift alerts, signed export',
  },
  { name: 'training-station', description: 'Public agent registration node' },
  { name: 'arena', description: 'Decision arena: paper trades and attestations' },
  {
    name: 'olympics',
    description: 'Model olympics: four models forecast the same live questions; medals, standings, ticker, scoreboard page',
  },
  { name: 'portfolio', description: 'Portfolio assistant: Plaid or manual holdings, computed insights, cited answers' },
  { name: 'shield', description: 'AgentShield: verify-before-act checks, exploit likelihood, tool-server audit, agent scan' },
  { name: 'chart', description: 'Chart analyzer: four vision models, a calibrated consensus, paper trades' },
  { name: 'sessions', description: 'Live agent sessions and watch pages' },
  { name: 'protection', description: 'API keys, rate limits, abuse detection' },
  {
    name: 'constitutional',
    description: 'Constitutional classifier: rule stage, model panel, honeypot, self-jailbreak, calibration ledger',
  },
  { name: 'mcp', description: 'Model Context Protocol server (streamable HTTP)' },
  { name: 'discovery', description: 'Discovery files for crawlers and agents' },
  { name: 'ops', description: 'Health and metrics' },
];

export const DESCRIPTION = `One HTTP/JSON service for many kinds of data, with one query shape (\`type\` + free-text \`q\`) and signed responses.

## Receipts
Signed responses carry \`_receipt\` = \`{v, request_hash, response_hash, as_of, issued_at, sources, issuer, kid, sig}\`. To verify offline:
1. \`response_hash\` = \`"sha256-" + base64url(SHA-256(JCS(body without _receipt)))\`, where JCS is RFC 8785 canonical JSON of the body exactly as you parsed it.
2. \`request_hash\` = \`"sha256-" + base64url(SHA-256(JCS({method, path, query, body})))\`: \`method\` upper-case, \`path\` without the query string, \`query\` an object of the query parameters (last value wins), \`body\` the JSON body or \`null\`.
3. \`sig\` = \`"ed25519-" + base64url(Ed25519(JCS(receipt without sig)))\` with the key published at \`/.well-known/svc-receipt-pubkey.json\` (SPKI and JWK; \`kid\` is its RFC 7638 thumbprint).
\`as_of\` and \`issued_at\` are Unix seconds. \`POST /api/v1/receipt/verify\` does the same server-side.

## Errors
Every 4xx/5xx body is \`{error, message, details?, request_id}\` (schema \`ErrorBody\`; \`/mcp\` answers JSON-RPC errors carrying the same fields in \`error.data\`); validation errors name the field and the rule in \`details\`.

${errorCodeTable()}

An upstream failure is not an HTTP error: the answer is a 200 with \`ok:false\` and \`error\` one of:

${failureReasonTable()}

An address that keeps sending invalid requests is blocked for a while: 403 \`blocked\` with \`Retry-After\`.

## Payments and credentials
Paid operations list their accepted credentials under \`security\`: an x402 payment (\`X-Payment\` for v1, \`PAYMENT-SIGNATURE\` for v2), a day or week pass (\`Authorization: Bearer svc-pass_…\`), or a checkout session. Without one they answer 402 with the challenge in the body (v1), the invoice's \`amount, asset, chain, recipient, memo, expires\` in \`X-Payment-Required\` and the v2 challenge in \`PAYMENT-REQUIRED\` (see docs/payments.md). An API key (\`X-API-Key: svc_key_…\`) is optional everywhere and only raises the rate-limit tier.

## Agents
The same operations are tools of the MCP server at \`/mcp\` (streamable HTTP, stateless) and of the \`svc-mcp\` stdio binary.

## Licence
Data and metadata are offered under CC-BY-4.0. Attribute as: "Data via svc (CC-BY-4.0), from the upstream named in each row's \`source\`".`;

export const SECURITY_SCHEMES = {
  x402: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Payment',
    description: 'x402 v1 payment: base64 (or raw) JSON of a signed USDC transferWithAuthorization matching the 402 challenge.',
  },
  passToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc-pass_…',
    description: 'Day or week pass bought at POST /api/v1/pass/{day,week} or redeemed from a checkout session (X-Svc-Pass).',
  },
  checkoutSession: {
    type: 'apiKey',
    in: 'query',
    name: 'session_id',
    description:
      'Hosted-checkout session id (cs_live_…), sent as `session_id` in the JSON body of POST /api/data/bundle (OpenAPI cannot name a body field as a credential); redeemed once into a pass returned in X-Svc-Pass.',
  },
  agentKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc-ak_…',
    description: 'The agent key returned once at agent registration; proves which agent writes.',
  },
  sessionToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ast_…',
    description: 'The session token returned once by POST /api/agent-session/start; only it may post to or end that session.',
  },
  portfolioToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The portfolio token returned once by POST /api/portfolio/link for a new user; every portfolio call for that user_id needs it.',
  },
  adminToken: { type: 'http', scheme: 'bearer', description: 'SVC_ADMIN_TOKEN, for key administration.' },
  cronKey: { type: 'apiKey', in: 'query', name: 'key', description: 'The shared cron secret (SVC_CRON_KEY).' },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'Optional API key (svc_key_…; also accepted as Authorization: Bearer) that raises the rate-limit tier.',
  },
  passHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Svc-Pass',
    description: 'A day or week pass (svc-pass_…) sent next to another credential in Authorization, e.g. on a calib-pro claim.',
  },
};
