/**
 * Where svc deliberately differs from the interface description it implements. Each sentence is appended to the
 * OpenAPI description of every operation it names, and docs/differences.md repeats them (a test keeps the two equal).
 */
export interface Difference {
  title: string;
  sentence: string;
  /** `METHOD /path` as the route is registered. */
  operations: string[];
}

export const DIFFERENCES: Difference[] = [
  {
    title: 'Owned writes need a credential',
    sentence:
      'Difference from the interface description: a write to something an agent owns needs its credential — events of a session need the `session_token` that session start returned, and calibration writes for an existing agent need its `agent_key` (Authorization: Bearer) — so no one can write in another agent’s name.',
    operations: ['POST /api/agent-session/event', 'POST /api/v1/calib/record_claim', 'POST /api/v1/calib/record_outcome'],
  },
  {
    title: 'A single query costs a 1-query bundle',
    sentence:
      'Difference from the interface description: a single paid query is a 1-query bundle and costs what the bundle tier table asks for 1–2 queries (0.001 USD), not the general per-call price of 0.0005 USD: svc has no other paid single-query path.',
    operations: ['POST /api/data/bundle'],
  },
  {
    title: 'Empty reliability bins carry null',
    sentence:
      'Difference from the interface description: an empty reliability bin carries `null` for `success_rate` and `avg_p`, and `ece` and `brier` are `null` while no claim is resolved (the description types them as numbers): a rate over no samples is unknown, not 0.',
    operations: ['GET /api/v1/calib/curve', 'GET /api/v1/calib/agent_card'],
  },
  {
    title: 'Claims expire',
    sentence:
      'Difference from the interface description: a claim still unresolved after its resolution time (plus an hour of retries for a resolver svc runs) becomes `expired`, a state the description does not name; it never enters the curves, and record_outcome on it is a 409 `already_resolved` with `details.status` = `expired`.',
    operations: ['POST /api/v1/calib/record_claim', 'POST /api/v1/calib/record_outcome'],
  },
  {
    title: '43 data types',
    sentence:
      'Difference from the interface description: the catalog counts 43 data types — every row of the description’s type table, which holds 43 rows although its text says 42.',
    operations: ['GET /api/v1/catalog'],
  },
  {
    title: 'Large answers in pages on request',
    sentence:
      'Difference from the interface description: svc adds the optional `max_tokens` parameter, which answers a bundle, a backtest or a shield audit in pages of at most that many o200k tokens (the first page with `_page`), and `GET /api/v1/answer-page`, which reads the other pages free of charge for 24 h; without `max_tokens` the answer is whole, as described.',
    operations: ['POST /api/data/bundle', 'GET /api/v1/backtest', 'GET /api/v1/answer-page'],
  },
  {
    title: 'A session’s history as JSON',
    sentence:
      'Difference from the interface description: svc adds `GET /api/agent-session/events`, a session’s events as JSON pages (`after`, `limit`, `next_after`), public like the stream, where the description delivers them only as server-sent events.',
    operations: ['GET /api/agent-session/events'],
  },
];

/** The difference sentences of one operation, in list order. */
export const differencesOf = (method: string, url: string): string[] =>
  DIFFERENCES.filter((d) => d.operations.includes(`${method.toUpperCase()} ${url}`)).map((d) => d.sentence);
