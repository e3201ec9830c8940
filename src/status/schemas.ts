import Type from 'typebox';
import { TYPE_STATES } from './view.js';
import { OUTLOOKS, SOURCE_STATES } from './corroboration.js';
import { BuildFields } from './build.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const UnixS = (description: string) => Nullable(Type.Integer({ description }));

export const Terms = Type.Object(
  {
    commercial: Type.Enum(['allowed', 'paid plan', 'unclear'], {
      description: 'whether the provider lets a commercial deployment use this upstream: allowed, only on a paid plan, or unclear',
    }),
    url: Type.String({ description: 'the provider page that states the terms' }),
    note: Type.Optional(Type.String()),
  },
  { description: "the provider's terms for commercial use" },
);

const stateDoc =
  'working: the primary upstream answered the last fresh fetch; degraded: a fallback or the curated file answered, or data was partial; ' +
  'failing: nothing answered; needs_key: no upstream can answer without a key; not_called: no fresh fetch since start';

export const availabilityFields = {
  state: Type.Enum(TYPE_STATES, { description: stateDoc }),
  reason: Type.String({ description: 'why, in words: which upstream answered, or what the failing one said' }),
  needs_key: Type.Optional(Type.String({ description: 'the variable whose key would let the first keyed upstream answer' })),
  signup_url: Type.Optional(Type.String({ description: 'where to get that key' })),
  terms: Type.Optional(Terms),
};

export const Availability = Type.Object(availabilityFields, {
  description: 'how the type fares on this deployment, from its configuration (keys) and recent upstream health',
});

const CorroborationStatus = Type.Object(
  {
    rule: Type.Object(
      {
        quorum: Type.Integer(),
        outlier_bps: Type.Number(),
        stale_after_s: Type.Integer(),
        quote: Type.Union([Type.String(), Type.Null()], {
          description: 'the currency rows are priced in; null: whichever most sources answer in (a stock in its listing currency)',
        }),
      },
      { description: 'the rule in effect: SVC_CORROBORATION_RULES, else the one the type declares' },
    ),
    answering: Type.Integer({ description: 'sources that answer at this site' }),
    answering_in_quote: Type.Integer({ description: 'of those, the ones pricing in the rule quote: what can make up the quorum' }),
    outlook: Type.Enum(OUTLOOKS, {
      description:
        'corroborated: at least the quorum of sources answer in the quote; below_quorum: too few can, rows will be single_source or disputed; unknown: sources not heard from yet may make it up',
    }),
    last_status: Nullable(
      Type.Enum(['agreed', 'disputed', 'single_source'], { description: 'the worst row status of the last fresh answer' }),
    ),
    sources: Type.Array(
      Type.Object({
        source: Type.String(),
        state: Type.Enum(SOURCE_STATES, {
          description:
            'from the configuration and what svc last saw, never from a call of its own: answering, no_key (its key is not set), region_blocked, erroring, not_called (no call since start)',
        }),
        quote: Type.Optional(Type.String({ description: 'the currency it priced in at the last answer that listed its value' })),
        reason: Type.Optional(Type.String({ description: 'why it does not answer, in words' })),
      }),
    ),
  },
  { description: 'corroborated price types only (docs/corroboration.md): how many of the sources answer here' },
);

export const TypeStatus = Type.Object({
  type: Type.String(),
  ...availabilityFields,
  source: Nullable(Type.String({ description: 'the upstream that answered the last fresh fetch (`curated`: the data file)' })),
  primary: Nullable(Type.String({ description: 'the upstream tried first for that fetch' })),
  upstreams: Type.Array(Type.String(), { description: 'primary first, then fallbacks; `curated` = a data file citing its origin' }),
  checked_at: UnixS('Unix s of the last fresh fetch (answers from cache are not counted)'),
  results: Type.Object(
    { ok: Type.Integer(), degraded: Type.Integer(), failed: Type.Integer() },
    { description: 'fresh fetches in the window by outcome' },
  ),
  corroboration: Type.Optional(CorroborationStatus),
});

export const HostStatus = Type.Object({
  name: Type.String({ description: 'the upstream host as named in UPSTREAM_<HOST>_URL' }),
  key: Type.Enum(['required', 'optional', 'none']),
  key_variable: Type.Optional(Type.String()),
  key_configured: Type.Boolean({ description: 'whether that variable is set (its value is never shown)' }),
  signup_url: Type.Optional(Type.String()),
  terms: Type.Optional(Terms),
  calls: Type.Integer({ description: 'calls in the window (retries of one call count once)' }),
  outcomes: Type.Record(Type.String(), Type.Integer(), {
    description: 'calls by outcome: ok, error, timeout, rate_limited, bad_response, circuit_open, key_missing',
  }),
  success_rate: Nullable(Type.Number({ description: 'ok ÷ calls that were attempted (a missing key sends nothing); null without calls' })),
  latency_ms: Nullable(
    Type.Object(
      { p50: Type.Integer(), p95: Type.Integer() },
      { description: 'wall time of attempted calls, retries included, from a histogram' },
    ),
  ),
  last_success_at: UnixS('Unix s of the last successful call'),
  last_error: Nullable(
    Type.Object({
      reason: Type.String({ description: 'upstream_error, upstream_timeout, upstream_rate_limited, …' }),
      status: Type.Optional(Type.Integer({ description: 'the HTTP status the upstream answered' })),
      message: Type.String({ description: 'the reason in words (never the upstream’s own text)' }),
      at: Type.Integer({ description: 'Unix s' }),
    }),
  ),
  circuit: Type.Enum(['closed', 'half_open', 'open'], {
    description: 'the circuit breaker: open = calls are refused without trying for 15 s after 5 consecutive failures',
  }),
});

export const StatusReport = Type.Object({
  ...BuildFields,
  generated_at: Type.Integer({ description: 'Unix s' }),
  window_s: Type.Integer({ description: 'counts, rates and latencies cover this many seconds' }),
  instances: Type.Integer({
    description: 'live service instances on this database (heartbeat within the last 15 s); with Redis their upstream figures are merged',
  }),
  summary: Type.Object(Object.fromEntries(TYPE_STATES.map((s) => [s, Type.Integer()])), { description: 'data types per state' }),
  types: Type.Array(TypeStatus),
  upstreams: Type.Array(HostStatus),
});
