import Type from 'typebox';
import { FreeObject, StringEnum } from '../core/schemas.js';
import { MODE_FILTERS } from './views.js';

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const EVENT_STATUSES = ['open', 'resolved', 'void'] as const;
const MEDALS = ['gold', 'silver', 'bronze'] as const;

export const ModeQuery = (defaultMode: 'live' | 'all') =>
  StringEnum(MODE_FILTERS, {
    default: defaultMode,
    description: `live (scheduled events), backfill (replayed history) or all; default ${defaultMode}`,
  });

export const EventsQuery = Type.Object({
  status: Type.Optional(
    StringEnum(EVENT_STATUSES, { description: 'open (waiting for its outcome), resolved or void (outcome unreadable)' }),
  ),
  discipline: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$', description: 'crypto, macro, weather' })),
  mode: Type.Optional(ModeQuery('all')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'next_cursor of the previous page' })),
});

export const EventParams = Type.Object({ id: Type.String({ pattern: '^oly_[0-9a-f]{24}$', description: 'an olympics event id' }) });

const Answer = Type.Object(
  {
    model_id: Type.String(),
    agent_id: Type.String({ description: 'olympics:<model-id>, the calibration-ledger agent of this model' }),
    vendor: Type.String(),
    model: Type.String(),
    status: StringEnum(['answered', 'failed', 'timed_out'] as const),
    p: NullableNumber("the model's probability that the statement is true; null without an answer"),
    rationale: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'why there is no answer' }),
    claim_id: Type.Union([Type.String(), Type.Null()]),
    answered_at: Type.Integer({ description: 'Unix ms' }),
    brier: NullableNumber('set when the event resolves; failures score as p = 0.5'),
    medal: Type.Union([StringEnum(MEDALS), Type.Null()]),
  },
  { title: 'OlympicsAnswer' },
);

const eventFields = {
  id: Type.String(),
  discipline: Type.String(),
  template: Type.String(),
  mode: StringEnum(['live', 'backfill'] as const),
  question: Type.String(),
  status: StringEnum(EVENT_STATUSES),
  opened_at: Type.Integer({ description: 'Unix ms when the question was put (for backfill, the historical moment)' }),
  resolves_at: Type.Integer({ description: 'Unix s when the outcome is read' }),
  resolved_at: Type.Union([Type.Integer(), Type.Null()], { description: 'Unix ms' }),
  outcome: Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Null()]),
  answers: Type.Array(Answer),
};

export const EventSummary = Type.Object(eventFields, { title: 'OlympicsEventSummary' });

export const EventDetail = Type.Object(
  {
    ...eventFields,
    resolver: FreeObject('{type, config}: how the outcome is read'),
    data: Type.Array(
      FreeObject("a fetched result every model saw: label, type, q, source, as_of, rows and svc's signed _receipt over the rest"),
    ),
    evidence: Type.Union([FreeObject('what the resolver read'), Type.Null()]),
    answer_deadline_ms: Type.Integer({ description: "every model's deadline for its answer" }),
  },
  { title: 'OlympicsEvent' },
);

export const EventPage = Type.Object({
  events: Type.Array(EventSummary),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as cursor for the next page; null on the last' }),
});

const Standing = Type.Object(
  {
    model_id: Type.String(),
    vendor: Type.String(),
    model: Type.String(),
    events: Type.Integer({ description: 'resolved events this model was asked' }),
    answered: Type.Integer(),
    failed: Type.Integer(),
    timed_out: Type.Integer(),
    gold: Type.Integer(),
    silver: Type.Integer(),
    bronze: Type.Integer(),
    brier: NullableNumber('mean Brier over resolved events, failures at p = 0.5'),
    log_loss: NullableNumber('mean log loss, same rule'),
    ece: NullableNumber('expected calibration error over answered events'),
  },
  { title: 'OlympicsStanding' },
);

export const Medals = Type.Object(
  {
    mode: StringEnum(MODE_FILTERS),
    resolved_events: Type.Integer(),
    medal_table: Type.Array(Standing, { description: 'every panel model, in medal order' }),
    by_discipline: Type.Array(Type.Object({ discipline: Type.String(), standings: Type.Array(Standing) })),
    scoring: Type.String({ description: 'the scoring and medal rules' }),
  },
  { title: 'OlympicsMedals' },
);

export const TickerMessage = Type.Object(
  {
    kind: StringEnum(['opened', 'answered', 'resolved', 'medal'] as const),
    event_id: Type.String(),
    ts: Type.Integer({ description: 'Unix ms' }),
  },
  {
    title: 'OlympicsTick',
    additionalProperties: true,
    description:
      'opened: discipline, mode, question; answered: model_id, status, p; resolved: status, outcome; medal: model_id, medal, brier',
  },
);
