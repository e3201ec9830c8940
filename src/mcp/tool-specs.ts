import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Toolset } from '../config-toolsets.js';

/**
 * The MCP tools. Each is one HTTP operation of the service, named by its OpenAPI operationId: the
 * input schema, output schema and description come from the OpenAPI document (so the `type` enum
 * is the registry's), and a call goes through the same route as any HTTP client.
 * tools/list carries a compact copy (short description, schemas cut down); the full definition is
 * the resource svc://tools/{name}. Adding a tool = one entry in TOOLS.
 */
export interface ToolSpec {
  name: string;
  operationId: string;
  toolset: Toolset;
  title: string;
  /** When to use it, in front of the operation's own summary and rules. */
  purpose: string;
  annotations: ToolAnnotations;
  /** Slow enough (upstream fan-out, model calls) to report progress when the client asks for it. */
  long?: boolean;
}

/** Reads our own state. */
const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Reads through to upstream APIs. */
const FETCH: ToolAnnotations = { ...READ, openWorldHint: true };
/** May spend money (x402 or a pass); a retry with the same payment returns the same answer. */
const PAID: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** Records something new. */
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const tool = (
  toolset: Toolset,
  name: string,
  operationId: string,
  title: string,
  annotations: ToolAnnotations,
  purpose: string,
  long = false,
): ToolSpec => ({ name, operationId, toolset, title, annotations, purpose, ...(long ? { long } : {}) });

/** Tools that record something (neither read-only nor idempotent) are left out in read-only mode. */
export const recordsSomething = (spec: ToolSpec) => !spec.annotations.readOnlyHint && !spec.annotations.idempotentHint;

export const TOOLS: ToolSpec[] = [
  tool(
    'data',
    'query',
    'getDataPreview',
    'Query one data type',
    FETCH,
    'Live data of one type (types and q shapes: resource svc://catalog); free. Re-poll with since=<_cursor> for changes only.',
  ),
  tool(
    'data',
    'bundle',
    'postDataBundle',
    'Run several queries at once',
    PAID,
    'Run 1-20 queries in one call; free=true runs up to 5 at one row each at no cost, otherwise the call is paid.',
    true,
  ),
  tool(
    'data',
    'resolve_entity',
    'getEntityResolve',
    'Resolve a name to an entity id',
    READ,
    'Turn a company, coin, ticker or identifier into an entity id (svc-ent:…) to pass as `entity` to query.',
  ),
  tool(
    'data',
    'backtest',
    'getBacktest',
    'Historical OHLCV candles',
    PAID,
    'Historical candles for crypto, stocks and forex; unpaid calls get the last 100 candles of the range.',
    true,
  ),
  tool(
    'data',
    'agent_context',
    'getAgentContext',
    'Data and a decision recipe for a goal',
    PAID,
    'Map a goal (e.g. "should I buy ETH") to the data that matters plus a decision recipe; free=1 for the unpaid preview.',
    true,
  ),
  tool(
    'data',
    'verify_receipt',
    'postReceiptVerify',
    'Verify a signed receipt',
    READ,
    'Check that a `_receipt` was signed by svc and, given the response, that it covers exactly that response.',
  ),
  tool(
    'calibration',
    'record_claim',
    'postCalibRecordClaim',
    'Record a calibration claim',
    WRITE,
    'Record a probabilistic claim (predicted_p) whose outcome later calibrates you; needs an agent key (Bearer svc-ak_…). Resolver configs: svc://tools/record_claim.',
  ),
  tool(
    'calibration',
    'record_outcome',
    'postCalibRecordOutcome',
    'Report the outcome of a manual claim',
    WRITE,
    'Report the outcome (0 or 1) of one of your claims with the manual resolver; needs the agent key that recorded it.',
  ),
  tool(
    'calibration',
    'calibrate_p',
    'postCalibCalibrateP',
    'Calibrate a probability',
    READ,
    'Map a raw probability to the calibrated one, from the resolved claims of this agent and kind.',
  ),
  tool(
    'calibration',
    'calibration_curve',
    'getCalibCurve',
    'Reliability curve of an agent',
    READ,
    'How well an agent’s probabilities of one kind came true: 10 bins with their success rates, ECE and Brier score.',
  ),
  tool(
    'sessions',
    'session_event',
    'postAgentSessionEvent',
    'Post to a live agent session',
    WRITE,
    'Post what you do (click, search, fetch, screenshot, thought, …) to a live session others watch; needs the session token (Bearer ast_…).',
  ),
  tool(
    'sessions',
    'session_history',
    'getAgentSessionEvents',
    'Read a session’s history',
    READ,
    'What happened in an agent session (live or ended), in seq order and in pages: pass next_after as after for the next page.',
  ),
  tool(
    'safety',
    'shield_verify',
    'postShieldVerify',
    'Is this safe? Verify before acting',
    FETCH,
    'Before approving, swapping, transferring, signing or visiting: allow/warn/block with findings for a token, contract, address, URL or domain.',
    true,
  ),
  tool(
    'safety',
    'tool_audit',
    'postShieldToolAudit',
    'Audit a tool server for poisoned tools',
    { ...FETCH, readOnlyHint: false, idempotentHint: false },
    'Before trusting an MCP server or API: audit its tools/list or OpenAPI (or URL) for hidden instructions, shadowing, broad powers and secrets.',
    true,
  ),
  tool(
    'safety',
    'classify',
    'postConstitutionalClassify',
    'Screen a text for prompt injection and unsafe output',
    WRITE,
    'Screen text before acting on it (direction input) or showing it (output): allow, flag or block, with the matched patterns.',
  ),
  tool(
    'arena',
    'arena_compare',
    'getArenaCompare',
    'Rank the arena strategies',
    READ,
    'Rank the arena strategy × asset combinations over 30d, 90d or all as a signed attestation you can cite by id.',
  ),
  tool(
    'arena',
    'olympics_standings',
    'getOlympicsMedals',
    'Model olympics medal table and standings',
    READ,
    'How well the panel models forecast the same live questions: medals, Brier, log loss and ECE per model and discipline.',
  ),
  tool(
    'chart',
    'analyze_chart',
    'postChartAnalyze',
    'Four vision models read a chart',
    { ...WRITE, openWorldHint: true },
    'Four vision models read a chart image (image_b64 PNG/JPEG/WebP, under ~700 KB over MCP) with a calibrated consensus; paper_trade=true opens an arena trade.',
    true,
  ),
  tool(
    'portfolio',
    'portfolio_insights',
    'getPortfolioInsights',
    'Insights on a linked portfolio',
    FETCH,
    'Value, allocation, concentration, P/L and risk of a portfolio linked at POST /api/portfolio/link; needs its portfolio token as Bearer.',
    true,
  ),
  tool(
    'portfolio',
    'portfolio_ask',
    'postPortfolioAsk',
    'Ask about a linked portfolio',
    { ...FETCH, idempotentHint: false },
    'Ask a question about a linked portfolio, answered by a model with citations to receipts; needs its portfolio token as Bearer.',
    true,
  ),
];
