import Type from 'typebox';
import { ApiError } from '../core/errors.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { SigningKey } from '../core/signing-keys.js';
import { requestHash, responseHash, signReceipt, type Receipt } from '../core/receipt.js';
import type { EntityResolver } from '../entities/resolver.js';
import type { SourceRunner } from '../sources/runner.js';
import type { ModelRef, Models } from '../models/index.js';
import { goalFacts, planGoal, type Step } from '../agent-context/goals.js';
import { subjectOf } from '../agent-context/subject.js';
import type { Insights } from './insights.js';

/**
 * POST /api/portfolio/ask: the `answerer` model reads the user's insights and the data the question
 * calls for (the agent-context rule its words match, primary fetches only), each as signed evidence
 * with a receipt; it must cite those receipts, and citations of anything else are dropped.
 */
export const DISCLAIMER =
  'Not financial advice: figures computed from your holdings and public data, explained by a language model that can be wrong.';

export const AnswerSchema = Type.Object({
  answerable: Type.Boolean({ description: 'false when the quoted data cannot answer the question' }),
  answer: Type.String({ minLength: 1, maxLength: 3000 }),
  citations: Type.Array(
    Type.Object({
      claim: Type.String({ maxLength: 500 }),
      source_type: Type.String({ maxLength: 60 }),
      receipt_id: Type.String({ maxLength: 100 }),
    }),
    { maxItems: 20 },
  ),
});

const INSTRUCTIONS = [
  "You answer a question about the user's investment portfolio using only the quoted data.",
  'Every quoted item carries a receipt_id. Back each factual claim with a citation {claim, source_type, receipt_id} naming the item it comes from.',
  'If the data cannot answer the question, set answerable to false and say what is missing instead of guessing.',
  'State facts and computed figures; do not tell the user what to buy or sell.',
].join(' ');

export interface Evidence {
  receipt_id: string;
  source_type: string;
  label: string;
  data: Record<string, unknown>;
  _receipt: Receipt;
}

export interface AskAnswer {
  user_id: string;
  question: string;
  answerable: boolean;
  answer: string;
  citations: { claim: string; source_type: string; receipt_id: string }[];
  dropped_citations: number;
  evidence: Evidence[];
  model: ModelRef;
  disclaimer: string;
}

export class PortfolioAsk {
  constructor(
    private readonly o: { models: Models; sources: SourceRunner; resolver: EntityResolver; key: SigningKey; issuer: string; clock: Clock },
  ) {}

  async answer(userId: string, question: string, insights: Insights): Promise<AskAnswer> {
    const answerer = this.o.models.pick('answerer');
    const fetched = await this.fetchFor(question);
    const evidence = [
      this.sign(
        'portfolio-insights',
        'portfolio insights',
        insights as unknown as Record<string, unknown>,
        insights.as_of,
        insights.sources,
      ),
      ...fetched,
    ];
    const data = evidence.map((e) => ({ label: e.label, value: { receipt_id: e.receipt_id, source_type: e.source_type, ...e.data } }));
    const result = await this.o.models.structured(answerer, {
      instructions: INSTRUCTIONS,
      prompt: question,
      data,
      schema: AnswerSchema,
      name: 'portfolio_answer',
    });
    if (!result.ok)
      throw new ApiError('upstream_unavailable', `the answering model failed: ${result.message}`, {
        reason: result.reason,
        model: result.model,
      });
    const known = new Map(evidence.map((e) => [e.receipt_id, e.source_type]));
    const citations = result.value.citations
      .filter((c) => known.has(c.receipt_id))
      .map((c) => ({ ...c, source_type: known.get(c.receipt_id)! }));
    return {
      user_id: userId,
      question,
      answerable: result.value.answerable,
      answer: result.value.answer,
      citations,
      dropped_citations: result.value.citations.length - citations.length,
      evidence,
      model: result.model,
      disclaimer: DISCLAIMER,
    };
  }

  /** The primary fetches of the agent-context rule the question matches; none when no rule (or a rule missing a parameter) applies. */
  private async fetchFor(question: string): Promise<Evidence[]> {
    let steps: Step[];
    try {
      steps = planGoal(goalFacts(question, subjectOf(question, this.o.resolver)))?.primary ?? [];
    } catch (e) {
      if (e instanceof ApiError) return [];
      throw e;
    }
    const results = await Promise.all(steps.map((s) => this.o.sources.run(s.type, s.q)));
    return results.flatMap((r) =>
      r.ok
        ? [
            this.sign(
              r.type,
              `${r.type} ${r.q}`,
              { type: r.type, q: r.q, rows: r.rows.slice(0, 20), source: r.source, as_of: r.as_of },
              r.as_of,
              [r.source],
            ),
          ]
        : [],
    );
  }

  /** A receipt over the evidence item as served; its response_hash is the receipt_id citations use. */
  private sign(sourceType: string, label: string, data: Record<string, unknown>, asOf: number, sources: string[]): Evidence {
    const body = { source_type: sourceType, label, data };
    const receipt = signReceipt(this.o.key, {
      request_hash: requestHash({
        method: 'POST',
        path: '/api/portfolio/ask#evidence',
        query: { source_type: sourceType, label },
        body: null,
      }),
      response_hash: responseHash(body),
      as_of: asOf,
      issued_at: unixSeconds(this.o.clock),
      sources: [...new Set(sources)].sort(),
      issuer: this.o.issuer,
    });
    return { receipt_id: receipt.response_hash, ...body, _receipt: receipt };
  }
}
