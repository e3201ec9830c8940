import type { AnswerRow, EventFilter, EventRow, OlympicsRepo } from '../store/repos/olympics.js';
import type { OlympicsMode } from '../store/schema.js';
import type { ModelSpec } from '../models/index.js';
import { SCORING_RULES, table, type ModelIdentity, type ScoredRow } from './scoring.js';
import { DISCIPLINES } from './templates.js';

export const MODE_FILTERS = ['live', 'backfill', 'all'] as const;
export type ModeFilter = (typeof MODE_FILTERS)[number];

const modeOf = (mode: ModeFilter): OlympicsMode | undefined => (mode === 'all' ? undefined : mode);

const answerView = (a: AnswerRow) => ({
  model_id: a.model_id,
  agent_id: `olympics:${a.model_id}`,
  vendor: a.vendor,
  model: a.model,
  status: a.status,
  p: a.p,
  rationale: a.rationale,
  reason: a.reason,
  claim_id: a.claim_id,
  answered_at: a.answered_at,
  brier: a.brier,
  medal: a.medal,
});

/** An event with its answers. */
const summaryView = (e: EventRow, answers: AnswerRow[]) => ({
  id: e.id,
  discipline: e.discipline,
  template: e.template,
  mode: e.mode,
  question: e.question,
  status: e.status,
  opened_at: e.opened_at,
  resolves_at: e.resolves_at,
  resolved_at: e.resolved_at,
  outcome: e.outcome,
  answers: answers.filter((a) => a.event_id === e.id).map(answerView),
});

/** The summary plus the data (with receipts), the resolver and the evidence. */
const detailView = (e: EventRow, answers: AnswerRow[]) => ({
  ...summaryView(e, answers),
  resolver: JSON.parse(e.resolver_json) as Record<string, unknown>,
  data: JSON.parse(e.data_json) as Record<string, unknown>[],
  evidence: e.evidence_json === null ? null : (JSON.parse(e.evidence_json) as Record<string, unknown>),
});

export interface ListQuery {
  status?: EventRow['status'];
  discipline?: string;
  mode: ModeFilter;
  limit: number;
  before?: EventFilter['before'];
}

/** Read side of the olympics: events, one event, the medal table and standings. */
export class OlympicsViews {
  constructor(private readonly repo: OlympicsRepo) {}

  /** A page of events, newest first, and the keyset of the next page (undefined on the last). */
  async events(query: ListQuery) {
    const rows = await this.repo.events({ ...query, mode: modeOf(query.mode), limit: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const answers = await this.repo.answers(page.map((e) => e.id));
    const last = page.at(-1);
    const next = rows.length > query.limit && last ? { opened_at: last.opened_at, id: last.id } : undefined;
    return { events: page.map((e) => summaryView(e, answers)), next };
  }

  async event(id: string) {
    const row = await this.repo.event(id);
    return row && detailView(row, await this.repo.answers([id]));
  }

  /** Medal table and standings over resolved events of the mode; every panel model is listed, played or not. */
  async medals(panel: readonly ModelSpec[], mode: ModeFilter) {
    const roster: ModelIdentity[] = panel.map((s) => ({ model_id: s.id, vendor: s.vendor, model: s.model }));
    const rows: (ScoredRow & { discipline: string; event_id: string })[] = await this.repo.scored(modeOf(mode));
    const disciplines = [...new Set<string>([...DISCIPLINES, ...rows.map((r) => r.discipline)])];
    return {
      mode,
      resolved_events: new Set(rows.map((r) => r.event_id)).size,
      medal_table: table(roster, rows),
      by_discipline: disciplines.map((discipline) => ({
        discipline,
        standings: table(
          roster,
          rows.filter((r) => r.discipline === discipline),
        ),
      })),
      scoring: SCORING_RULES,
    };
  }
}
