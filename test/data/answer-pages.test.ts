import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';
import { unixSeconds } from '../../src/core/clock.js';
import { verifyReceipt } from '../../src/core/receipt.js';
import { AnswerPages } from '../../src/data/answer-pages.js';

/**
 * Paid answers in pages over REST (issue 35, item 2): `max_tokens` on a paid bundle of 20 types and a long backtest
 * answers the first page, the rest free at GET /api/v1/answer-page; every page fits, carries a receipt that verifies,
 * and together they hold the whole answer. A retry with the same payment gets the same first page and charges nothing.
 */
const BUDGET = 10_000;
/** The recorded world's answers are smaller than the default budget: a smaller page makes them page. */
const SMALL = 2_000;
const tokens = (text: string) => countTokens(text);
type Body = Record<string, any>;

describe.each(STORE_BACKENDS)('answers in pages on %s', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgres: store === 'postgres', env: { SVC_PAY_TO: PAY_TO } });
  });
  afterAll(() => t.close());

  const pay = async (amount: bigint) => ({ 'x-payment': await paymentHeader({ nowS: unixSeconds(t.clock), amount }) });
  const queries = () =>
    t.deps.registry
      .all()
      .slice(0, 20)
      .map((d) => ({ type: d.type, q: d.example }));

  /** A page as sent: under the budget (the text counted, receipt included), its receipt verifying against it. */
  const checked = (raw: string, where: string, budget = SMALL): Body => {
    expect(tokens(raw), where).toBeLessThanOrEqual(budget);
    const body = JSON.parse(raw) as Body;
    expect(verifyReceipt(t.deps.signingKey, body._receipt, body), where).toMatchObject({ valid: true });
    return body;
  };

  /** The pages after the first, read through their cursors. */
  async function rest(first: Body, budget = SMALL): Promise<Body[]> {
    const pages: Body[] = [];
    for (let next = first._page.next as string | undefined; next; next = pages.at(-1)!._page.next) {
      const res = await t.app.inject(`/api/v1/answer-page?cursor=${encodeURIComponent(next)}`);
      expect(res.statusCode, res.body).toBe(200);
      pages.push(checked(res.body, next, budget));
    }
    return pages;
  }

  it('a paid bundle of 20 types: pages under max_tokens that hold every row, read again free; a retry gets the same first page', async () => {
    const headers = await pay(8000n);
    const request = { method: 'POST' as const, url: `/api/data/bundle?max_tokens=${SMALL}`, headers, payload: { queries: queries() } };
    const res = await t.app.inject(request);
    expect(res.statusCode, res.body).toBe(200);
    const first = checked(res.body, 'page 1');
    expect(first).toMatchObject({ count: 20, free: false, payment: { method: 'x402' }, _page: { page: 1 } });
    expect(first._page.pages).toBeGreaterThan(1);
    const pages = [first, ...(await rest(first))];
    expect(pages.map((p) => p._page.page)).toEqual(pages.map((_, i) => i + 1));
    expect(new Set(pages.map((p) => p._page.answer)).size).toBe(1);
    // Every query's rows, across the pages that hold runs of them, add up to its count.
    const rows = new Map<string, { count: number; seen: number }>();
    for (const result of pages.flatMap((p) => p.results as Body[]).filter((r) => r.ok)) {
      const entry = rows.get(result.type) ?? { count: result.data.count, seen: 0 };
      entry.seen += result.data.results.length;
      rows.set(result.type, entry);
    }
    for (const [type, { count, seen }] of rows) expect(seen, type).toBe(count);
    const answered = new Set(pages.flatMap((p) => (p.results as Body[]).map((r) => r.type)));
    expect([...answered].sort()).toEqual(queries().map((q) => q.type).sort());

    const retry = await t.app.inject(request);
    expect(retry.body).toBe(res.body);
    const authorizations = await t.deps.store.db.selectFrom('payment_authorizations').select('auth_key').execute();
    expect(authorizations).toHaveLength(1);
    expect((await rest(JSON.parse(retry.body) as Body)).length).toBe(pages.length - 1);
  }, 120_000);

  it('a paid backtest at its longest range: pages that hold every candle once, in order', async () => {
    const to = unixSeconds(t.clock);
    const url = `/api/v1/backtest?type=crypto-price&q=BTC&interval=1m&from=${to - 7 * 86_400}&to=${to}&max_tokens=${SMALL}`;
    const res = await t.app.inject({ url, headers: await pay(5000n) });
    expect(res.statusCode, res.body).toBe(200);
    const first = checked(res.body, 'page 1');
    expect(first).toMatchObject({ paid: true, _page: { page: 1, cut: { path: 'data', from: 0 } } });
    const pages = [first, ...(await rest(first))];
    const candles = pages.flatMap((p) => p.data as { t: number }[]);
    expect(candles).toHaveLength(first.count);
    expect(first.count).toBeGreaterThan(100);
    expect(candles.every((c, i) => i === 0 || c.t > candles[i - 1]!.t)).toBe(true);
    for (const page of pages) expect(page).toMatchObject({ count: first.count, source: first.source, as_of: first.as_of });
  }, 120_000);

  it('10,000 candles (more than the recorded world holds): stored pages under the default budget, every candle once', async () => {
    const candle = (i: number) => ({ t: 1_790_000_000 + 60 * i, o: 91234.5 + i, h: 91300.25, l: 91200.75, c: 91250.5, v: 12.345 });
    const data = Array.from({ length: 10_000 }, (_, i) => candle(i));
    const answer = { type: 'crypto-price', q: 'BTC', interval: '1m', count: data.length, paid: true, source: 'binance', as_of: 1_790_600_000, data };
    const first = await new AnswerPages(t.deps.repos.answerPages, t.clock).first(answer, BUDGET, { asOf: answer.as_of, sources: ['binance'] });
    expect(tokens(JSON.stringify(first))).toBeLessThanOrEqual(BUDGET - 600);
    const pages = [first as Body, ...(await rest(first, BUDGET))];
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.flatMap((p) => p.data as unknown[])).toEqual(data);
    expect(pages.at(-1)!._page).toMatchObject({ page: pages.length, pages: pages.length, cut: { path: 'data', to: 10_000, total: 10_000 } });
    // The receipt of a stored page carries the answer's data time and upstream, as the first page's would.
    expect(pages[1]!._receipt).toMatchObject({ as_of: answer.as_of, sources: ['binance'] });
  }, 120_000);

  it('without max_tokens the answer is whole, as the interface description has it', async () => {
    const res = await t.app.inject({ url: '/api/v1/backtest?type=crypto-price&q=BTC&from=1735689600&to=1738368000' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('_page');
    const small = await t.app.inject({ url: '/api/v1/backtest?type=crypto-price&q=BTC&from=1735689600&to=1738368000&max_tokens=100000' });
    expect(small.json()._page).toEqual({ answer: expect.stringMatching(/^ans_/), page: 1, pages: 1 });
  });

  it('refuses a bad max_tokens or cursor by name, and forgets pages after 24 h', async () => {
    for (const value of ['999', '100001', 'many']) {
      const res = await t.app.inject({ url: `/api/v1/backtest?type=crypto-price&q=BTC&from=1735689600&to=1738368000&max_tokens=${value}` });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().details).toMatchObject({ field: 'max_tokens' });
    }
    const bad = await t.app.inject('/api/v1/answer-page?cursor=svc-page:abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_cursor', details: { field: 'cursor' } });
    const to = unixSeconds(t.clock);
    const url = `/api/v1/backtest?type=crypto-price&q=BTC&interval=1m&from=${to - 86_400}&to=${to}&max_tokens=1000`;
    const first = (await t.app.inject({ url, headers: await pay(5000n) })).json();
    const next = first._page.next as string;
    expect((await t.app.inject(`/api/v1/answer-page?cursor=${next}`)).statusCode).toBe(200);
    t.clock.advance(24 * 3_600_000);
    const gone = await t.app.inject(`/api/v1/answer-page?cursor=${next}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error: 'not_found', details: { field: 'cursor' } });
  }, 60_000);
});
