import { createHash } from 'node:crypto';
import Type from 'typebox';
import { sha256Tagged } from '../core/canonical-json.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Bus } from '../bus/index.js';
import { publishBatch } from '../stream/hub.js';
import type { CalibrationService } from '../calib/service.js';
import { resolverOf } from '../calib/resolvers/registry.js';
import type { Models, ModelSpec } from '../models/index.js';
import type { SigningKey } from '../core/signing-keys.js';
import { responseHash, signReceipt } from '../core/receipt.js';
import type { SourceRunner } from '../sources/runner.js';
import type { AnswerRow, EventRow, OlympicsRepo } from '../store/repos/olympics.js';
import type { OlympicsMode } from '../store/schema.js';
import { awardMedals, brier, scoredP } from './scoring.js';
import { TEMPLATES, type DataItem, type Draft, type Resolver, type Template } from './templates.js';

export const TICKER_CHANNEL = 'olympics:ticker';
export const TICKER_KINDS = ['opened', 'answered', 'resolved', 'medal'] as const;
export type TickerKind = (typeof TICKER_KINDS)[number];

/** An event whose outcome stays unreadable this long past resolves_at is void. */
export const RESOLVE_GRACE_S = 3600;
/** Claims outlive the event's resolution by this much, so the ledger never expires them before the olympics records the outcome. */
const CLAIM_MARGIN_H = 2;

export const Forecast = Type.Object(
  {
    p: Type.Number({ minimum: 0, maximum: 1, description: 'probability that the statement is true' }),
    rationale: Type.String({ maxLength: 600, description: 'one or two sentences on why' }),
  },
  { additionalProperties: false },
);

export const INSTRUCTIONS =
  'You are one of several models forecasting the same yes/no question over the same data. Give p, your probability that the statement is true, ' +
  'and a short rationale. You are scored by Brier score, so report your honest probability; an unanswerable question deserves p = 0.5.';

export interface OlympicsDeps {
  repo: OlympicsRepo;
  calib: CalibrationService;
  models: Models;
  runner: SourceRunner;
  bus: Bus;
  key: SigningKey;
  issuer: string;
  clock: Clock;
  deadlineMs: number;
}

/** A new event: a template's draft placed in time. */
export interface NewEvent extends Draft {
  template: string;
  /** What makes the event one of a kind within its template and mode (the live slot, or the replayed pair and moment). */
  key: string;
  discipline: string;
  mode: OlympicsMode;
  /** Unix ms: when the question is put (for backfill, the historical moment). */
  openedAt: number;
  resolvesAt: number;
}

/** `oly_` + 24 hex of SHA-256 over template, mode and key: the same event is opened once across instances and runs. */
export const eventId = (template: string, mode: OlympicsMode, key: string): string =>
  `oly_${createHash('sha256').update(`${template}|${mode}|${key}`).digest('hex').slice(0, 24)}`;

export class OlympicsService {
  constructor(private readonly deps: OlympicsDeps) {}

  /** The panel (up to four models of different vendors); 503 model_unavailable when none is configured. */
  panel(): ModelSpec[] {
    return this.deps.models.panel('panel');
  }

  /** The scheduler's opening pass: one event per template and slot, asked of every panel model. */
  async openDue(templates: readonly Template[] = TEMPLATES): Promise<number> {
    if (!this.deps.models.has('panel')) return 0;
    let opened = 0;
    for (const template of templates) {
      const now = this.deps.clock.now();
      const slot = Math.floor(now / template.everyMs);
      const key = `slot:${slot * template.everyMs}`;
      if (await this.deps.repo.event(eventId(template.id, 'live', key))) continue;
      const draft = await template.build(slot, this.deps.runner);
      if (!draft) continue;
      const resolvesAt = Math.floor(now / 1000) + template.horizonS;
      if (
        await this.play({ ...draft, template: template.id, key, discipline: template.discipline, mode: 'live', openedAt: now, resolvesAt })
      )
        opened++;
    }
    return opened;
  }

  /** Stores the event (once), then asks every panel model the same question over the same data with the same deadline. */
  async play(event: NewEvent): Promise<string | undefined> {
    const panel = this.panel();
    const id = eventId(event.template, event.mode, event.key);
    const data = event.data.map((item) => this.withReceipt(item));
    const row: EventRow = {
      id,
      discipline: event.discipline,
      template: event.template,
      mode: event.mode,
      question: event.question,
      data_json: JSON.stringify(data),
      resolver_json: JSON.stringify(event.resolver),
      opened_at: event.openedAt,
      resolves_at: event.resolvesAt,
      status: 'open',
      outcome: null,
      evidence_json: null,
      resolved_at: null,
    };
    if (!(await this.deps.repo.insertEvent(row))) return undefined;
    await this.publish('opened', { event_id: id, discipline: event.discipline, mode: event.mode, question: event.question });
    await Promise.all(panel.map((spec) => this.answer(row, event, spec)));
    return id;
  }

  private async answer(row: EventRow, event: NewEvent, spec: ModelSpec): Promise<void> {
    const result = await this.deps.models
      .structured(spec, {
        instructions: INSTRUCTIONS,
        prompt: `${event.question}\nThe outcome is read at ${new Date(event.resolvesAt * 1000).toISOString()}.`,
        data: event.data.map((item) => ({ label: item.label, value: { source: item.source, as_of: item.as_of, rows: item.rows } })),
        schema: Forecast,
        name: 'olympics_forecast',
        deadlineMs: this.deps.deadlineMs,
      })
      .catch((e: unknown) => ({
        ok: false as const,
        reason: 'vendor_error' as const,
        message: e instanceof ApiError ? `${e.code}: ${e.message}` : String(e),
      }));
    const base = { event_id: row.id, model_id: spec.id, vendor: spec.vendor, model: spec.model, answered_at: this.deps.clock.now() };
    const unscored = { brier: null, medal: null };
    let answer: AnswerRow;
    if (result.ok) {
      const claimId = await this.claim(row, event, spec, result.value.p);
      answer = {
        ...base,
        ...unscored,
        status: 'answered',
        p: result.value.p,
        rationale: result.value.rationale,
        reason: null,
        claim_id: claimId,
      };
    } else {
      const status = result.reason === 'timeout' ? 'timed_out' : 'failed';
      answer = { ...base, ...unscored, status, p: null, rationale: null, reason: result.message, claim_id: null };
    }
    await this.deps.repo.insertAnswer(answer);
    await this.publish('answered', { event_id: row.id, model_id: spec.id, status: answer.status, p: answer.p });
  }

  /** The answer as a calibration claim for olympics:<model-id>; backfill claims are kept apart by kind. */
  private async claim(row: EventRow, event: NewEvent, spec: ModelSpec, p: number): Promise<string> {
    const hoursLeft = Math.max(0, Math.ceil((event.resolvesAt - unixSeconds(this.deps.clock)) / 3600));
    const { claim_id } = await this.deps.calib.recordClaim({
      agent_id: `olympics:${spec.id}`,
      kind: event.mode === 'live' ? event.discipline : `${event.discipline}-backfill`,
      predicted_p: p,
      payload: { event_id: row.id, mode: event.mode, template: event.template, question: event.question, resolver: event.resolver },
      outcome_resolver: { type: 'manual', config: {} },
      ttl_hours: hoursLeft + CLAIM_MARGIN_H,
    });
    return claim_id;
  }

  /** The scheduler's resolution pass: read each due event's outcome with its resolver, then grade; void when unreadable past the grace. */
  async resolveDue(): Promise<{ resolved: number; voided: number }> {
    const nowS = unixSeconds(this.deps.clock);
    let resolved = 0;
    let voided = 0;
    for (const event of await this.deps.repo.due(nowS)) {
      const resolver = JSON.parse(event.resolver_json) as Resolver;
      const descriptor = resolverOf(resolver.type);
      const claim = { created_at: event.opened_at, expected_resolution_at: event.resolves_at };
      // A resolver that throws counts as data unavailable, so one bad event cannot stall the others.
      const resolution = await descriptor?.resolve?.(resolver.config, { runner: this.deps.runner, claim }).catch(() => undefined);
      if (resolution) {
        if (await this.settle(event.id, resolution.outcome, resolution.evidence)) resolved++;
      } else if (nowS > event.resolves_at + RESOLVE_GRACE_S) {
        if (
          await this.deps.repo.close(event.id, { status: 'void', outcome: null, evidence_json: null, resolved_at: this.deps.clock.now() })
        )
          voided++;
        await this.publish('resolved', { event_id: event.id, status: 'void', outcome: null });
      }
    }
    return { resolved, voided };
  }

  /** Records the outcome once, scores every answer, awards medals and resolves the answers' claims (verified outcomes). */
  async settle(eventId: string, outcome: 0 | 1, evidence: Record<string, unknown>): Promise<boolean> {
    const closed = await this.deps.repo.close(eventId, {
      status: 'resolved',
      outcome,
      evidence_json: JSON.stringify(evidence),
      resolved_at: this.deps.clock.now(),
    });
    if (!closed) return false;
    const answers = await this.deps.repo.answers([eventId]);
    const scores = answers.map((a) => ({ answer: a, brier: brier(scoredP(a), outcome) }));
    const medals = awardMedals(
      scores.filter((s) => s.answer.status === 'answered').map((s) => ({ model_id: s.answer.model_id, brier: s.brier })),
    );
    await this.publish('resolved', { event_id: eventId, status: 'resolved', outcome });
    for (const { answer, brier: score } of scores) {
      const medal = medals.get(answer.model_id) ?? null;
      await this.deps.repo.score(eventId, answer.model_id, score, medal);
      // A claim the ledger already expired (the event resolved after its margin) keeps that status.
      if (answer.claim_id)
        await this.deps.calib
          .recordOutcome(answer.claim_id, outcome, { event_id: eventId, ...evidence }, 'verified')
          .catch(() => undefined);
      if (medal) await this.publish('medal', { event_id: eventId, model_id: answer.model_id, medal, brier: score });
    }
    return true;
  }

  /** Signs the item as svc's receipt of a GET of the data route for its type and q, at the data's time. */
  private withReceipt(item: DataItem): DataItem & { _receipt: unknown } {
    const receipt = signReceipt(this.deps.key, {
      request_hash: sha256Tagged({ method: 'GET', path: '/api/data/preview', query: { type: item.type, q: item.q }, body: null }),
      response_hash: responseHash({ ...item }),
      as_of: item.as_of,
      issued_at: unixSeconds(this.deps.clock),
      sources: [item.source],
      issuer: this.deps.issuer,
    });
    return { ...item, _receipt: receipt };
  }

  private async publish(kind: TickerKind, payload: Record<string, unknown>): Promise<void> {
    await publishBatch(this.deps.bus, TICKER_CHANNEL, [{ kind, ts: this.deps.clock.now(), ...payload }]);
  }
}
