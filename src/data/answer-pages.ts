import Type, { type Static } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import { paginate, type Json, type Page } from '../core/paginate.js';
import { errorResponses } from '../core/schemas.js';
import { TOKEN_BUDGET, tokenCounter } from '../core/token-budget.js';
import { IDEMPOTENCY_TTL_MS } from '../payments/idempotency.js';
import type { AnswerPagesRepo } from '../store/repos/answer-pages.js';

/**
 * Answers in pages, on request (issue 35, item 2, over REST): a paid bundle of 20 types or a 10,000-candle backtest
 * is far past what an agent pastes into its context. With `max_tokens` the answer is cut with the paginator MCP
 * uses (core/paginate.ts): the first page is the answer, and the others are stored for as long as a paid answer is
 * kept for retries (24 h) and read free through `GET /api/v1/answer-page`, so the payer pays once and loses nothing.
 * Without `max_tokens` nothing changes: the whole answer, as the interface description has it.
 */
export const ANSWER_CURSOR = 'svc-ans:';
export const MIN_PAGE_TOKENS = 1_000;
export const MAX_PAGE_TOKENS = 100_000;
/** What a page takes besides its data: `_page`, `_receipt` (with its log position) and the demo stamp. */
const ENVELOPE_TOKENS = 600;
const CURSOR = /^svc-ans:(ans_[\w-]{22})\.(\d{1,6})$/;

export const MaxTokensParam = Type.Optional(
  Type.Integer({
    minimum: MIN_PAGE_TOKENS,
    maximum: MAX_PAGE_TOKENS,
    examples: [TOKEN_BUDGET],
    description:
      'answer in pages of at most this many o200k tokens each (receipt included): the first page here with `_page`, the others free ' +
      'at GET /api/v1/answer-page?cursor=<_page.next> for 24 h. Absent: the whole answer',
  }),
);

export const PageInfoSchema = Type.Object(
  {
    answer: Type.String({ description: 'the id of the answer every page of it names (ans_…)' }),
    page: Type.Integer({ description: '1-based' }),
    pages: Type.Integer(),
    cut: Type.Optional(
      Type.Object(
        { path: Type.String(), from: Type.Integer(), to: Type.Integer(), total: Type.Integer() },
        { description: 'the list this page holds a run of (`data`, `results`, `results[3].data.results`): items [from, to) of total' },
      ),
    ),
    next: Type.Optional(Type.String({ description: 'cursor of the next page (svc-ans:…), absent on the last' })),
  },
  { title: 'PageInfo', description: 'present when the answer was asked for in pages (max_tokens): which part of the answer this page holds' },
);

export type PageInfo = Static<typeof PageInfoSchema>;
/** A page has its answer's shape (its lists cut to a run) and says which page it is. */
type Paged<T> = T & { _page: PageInfo };

export interface Provenance {
  asOf?: number;
  sources?: string[];
}

const withPage = (page: Page, answer: string, at: number, pages: number): Paged<Json> => {
  const next = at < pages ? { next: `${ANSWER_CURSOR}${answer}.${at + 1}` } : {};
  return { ...page.value, _page: { answer, page: at, pages, ...(page.cut ? { cut: page.cut } : {}), ...next } };
};

export class AnswerPages {
  constructor(
    private readonly repo: AnswerPagesRepo,
    private readonly clock: Clock,
  ) {}

  /** The answer's first page under `maxTokens` with its `_page`, the others stored (the whole answer when it fits). */
  async first<T extends object>(answer: T, maxTokens: number, provenance: Provenance): Promise<Paged<T>> {
    const tokens = await tokenCounter();
    const pages = paginate(answer as Json, tokens, tokens, maxTokens - ENVELOPE_TOKENS);
    const id = randomId('ans_');
    const expires_at = this.clock.now() + IDEMPOTENCY_TTL_MS;
    const provenanceColumns = { as_of: provenance.asOf ?? null, sources_json: JSON.stringify(provenance.sources ?? []) };
    await this.repo.save(
      pages.slice(1).map((page, i) => ({
        answer_id: id,
        page: i + 2,
        pages: pages.length,
        body_json: JSON.stringify(page),
        ...provenanceColumns,
        expires_at,
      })),
    );
    return withPage(pages[0]!, id, 1, pages.length) as Paged<T>;
  }

  /** The page a cursor names: 400 naming `cursor` when it is not one, 404 when it is unknown or past its 24 h. */
  async read(cursor: string): Promise<{ body: Paged<Json>; provenance: Provenance }> {
    const [, id, at] = CURSOR.exec(cursor) ?? [];
    if (!id) throw new ApiError('invalid_cursor', 'not an answer page cursor (svc-ans:…, the _page.next of a page)', { field: 'cursor' });
    const row = await this.repo.find(id, Number(at), this.clock.now());
    if (!row)
      throw new ApiError('not_found', 'no such answer page, or it expired (pages are kept 24 h, as the paid answer is)', { field: 'cursor' });
    const body = withPage(JSON.parse(row.body_json) as Page, id, row.page, row.pages);
    const asOf = row.as_of === null ? {} : { asOf: Number(row.as_of) };
    return { body, provenance: { ...asOf, sources: JSON.parse(row.sources_json) as string[] } };
  }

  purgeExpired(): Promise<number> {
    return this.repo.purgeExpired(this.clock.now());
  }
}

/** GET /api/v1/answer-page: the pages after the first of an answer asked for in pages; free, signed like the answer. */
export function registerAnswerPageRoute(app: FastifyInstance, pages: AnswerPages): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/v1/answer-page',
    {
      config: { signed: true },
      schema: {
        tags: ['data'],
        summary: 'The next page of an answer asked for in pages (max_tokens)',
        description:
          'A bundle, backtest or shield audit asked for with `max_tokens` answers its first page with `_page`; `_page.next` names the next page, read here ' +
          'free of charge (the payment bought the whole answer) for 24 h. A page has the answer’s shape: every field repeated, the list named ' +
          'by `_page.cut` holding items [from, to) of it; concatenating those runs in page order gives the whole list. Each page carries its ' +
          'own `_receipt` over this request and the page as sent, and `_page.answer` ties it to the first page.',
        querystring: Type.Object({ cursor: Type.String({ maxLength: 100, description: 'the `_page.next` of the previous page (svc-ans:…)' }) }),
        response: {
          200: Type.Object({ _page: PageInfoSchema }, { additionalProperties: true, title: 'AnswerPage', description: 'a page of the answer' }),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const { body, provenance } = await pages.read(request.query.cursor);
      reply.provenance = provenance;
      return body;
    },
  );
}
