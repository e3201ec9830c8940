import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { verifyReceipt } from '../../src/core/receipt.js';
import { AUDIT_MANIFEST } from '../../packages/client/src/conformance-pages.js';

/**
 * The audit of a 200-tool server is ~15,000 o200k tokens whole, past what an agent pastes into its context (issue 35,
 * item 2, over REST). With `max_tokens` it comes in pages like a bundle: each within the budget and signed, the tools
 * list cut into runs that together hold every tool once; without it the answer is whole, as before.
 */
const BUDGET = 4_000;
type Body = {
  tools: { name: string }[];
  summary: { tools: number };
  _page?: { page: number; pages: number; next?: string };
  _receipt: unknown;
};

describe('a tool audit in pages', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  const audit = (query: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/shield/tool-audit${query}`, payload: { manifest: AUDIT_MANIFEST } });
  const page = (raw: string) => {
    expect(countTokens(raw)).toBeLessThanOrEqual(BUDGET);
    const body = JSON.parse(raw) as Body;
    expect(verifyReceipt(t.deps.signingKey, body._receipt as never, body)).toMatchObject({ valid: true });
    return body;
  };

  it('answers every tool once across pages within max_tokens, each page signed', async () => {
    const whole = await audit('');
    expect(whole.statusCode).toBe(200);
    expect(countTokens(whole.body)).toBeGreaterThan(BUDGET);
    expect(whole.json<Body>()._page).toBeUndefined();

    const first = await audit(`?max_tokens=${BUDGET}`);
    expect(first.statusCode).toBe(200);
    const pages = [page(first.body)];
    while (pages.at(-1)!._page!.next) {
      const next = await t.app.inject(`/api/v1/answer-page?cursor=${encodeURIComponent(pages.at(-1)!._page!.next!)}`);
      expect(next.statusCode).toBe(200);
      pages.push(page(next.body));
    }
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.map((p) => p._page!.page)).toEqual(pages.map((_, i) => i + 1));
    expect(pages.every((p) => p.summary.tools === 200)).toBe(true);
    expect(pages.flatMap((p) => p.tools.map((tool) => tool.name))).toEqual(whole.json<Body>().tools.map((tool) => tool.name));
  });

  it('refuses a max_tokens below a page, naming it', async () => {
    const refused = await audit('?max_tokens=10');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'validation_failed', details: { field: 'max_tokens' } });
  });
});
