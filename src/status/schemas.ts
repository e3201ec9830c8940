import Type from 'typebox';
import { TYPE_STATES } from './view.js';
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
