import { describe, expect, it } from 'vitest';
import source, { courtFilter, filedAfter, parseLabel, toRows } from '../../src/sources/legal-courtlistener.js';
import type { FetchContext } from '../../src/sources/define.js';
import type { CallOptions, HostHttp } from '../../src/upstream/client.js';
import { UpstreamError } from '../../src/upstream/errors.js';

const result = (dateFiled: string, docketNumber: string | null = '24-1') => ({
  cluster_id: 1,
  caseName: 'A v. B',
  court: 'Supreme Court of the United States',
  court_id: 'scotus',
  dateFiled,
  docketNumber,
  citation: [],
  status: 'Published',
  absolute_url: '/opinion/1/a-v-b/',
});

/** A context whose HTTP client records the options it was called with and answers `answer`. */
function context(answer: () => unknown, name = 'courtlistener') {
  const calls: CallOptions[] = [];
  const http = {
    name,
    json: async (_path: string, _schema: unknown, options: CallOptions) => (calls.push(options), answer()),
  } as unknown as HostHttp;
  const ctx = { http, deadline: Date.now() + 1000, clock: { now: () => Date.UTC(2026, 10, 22, 12) } } as unknown as FetchContext;
  return { ctx, calls };
}

describe('legal-courtlistener label', () => {
  it('takes latest, federal or a federal appellate court id, in any case', () => {
    expect(['latest', 'SCOTUS', 'ca9', 'CADC', 'federal'].map(parseLabel)).toEqual(['latest', 'scotus', 'ca9', 'cadc', 'federal']);
    for (const q of ['', 'ca12', 'scotus,ca9', 'supreme court']) expect(() => parseLabel(q), q).toThrow(/<label>/);
  });

  it('filters courts: none for latest, all federal appellate courts space-separated for federal', () => {
    expect(courtFilter('latest')).toBeUndefined();
    expect(courtFilter('ca5')).toBe('ca5');
    expect(courtFilter('federal')).toMatch(/^scotus ca1 ca2 .* cadc cafc$/);
  });

  it('writes filed_after as MM/DD/YYYY thirty days back', () => {
    expect(filedAfter(Date.UTC(2026, 10, 22, 12))).toBe('10/23/2026');
    expect(filedAfter(Date.UTC(2026, 0, 5))).toBe('12/06/2025');
  });
});

describe('legal-courtlistener rows', () => {
  it('cuts datetimes to the date and turns an empty docket number into null', () => {
    const [row] = toRows({ results: [result('2026-11-20T00:00:00-08:00', '')] });
    expect(row).toMatchObject({
      filed_at: Date.UTC(2026, 10, 20) / 1000,
      docket_number: null,
      url: 'https://www.courtlistener.com/opinion/1/a-v-b/',
    });
  });

  it('says no_data for an empty page', () => {
    expect(() => toRows({ results: [] })).toThrow(expect.objectContaining({ reason: 'no_data' }));
  });
});

describe('legal-courtlistener search', () => {
  it('asks for the newest opinions of the court in the last 30 days', async () => {
    const { ctx, calls } = context(() => ({ results: [result('2026-11-20')] }));
    await source.upstreams.courtlistener!('ca9', ctx);
    expect(calls[0]).toMatchObject({ query: { type: 'o', order_by: 'dateFiled desc', court: 'ca9', filed_after: '10/23/2026' } });
  });

  it('reads a 401 to the anonymous host as a missing key', async () => {
    const { ctx } = context(() => {
      throw new UpstreamError('upstream_error', 'courtlistener-anon answered HTTP 401', { status: 401 });
    }, 'courtlistener-anon');
    await expect(source.upstreams['courtlistener-anon']!('latest', ctx)).rejects.toMatchObject({
      reason: 'upstream_key_missing',
      message: expect.stringContaining('UPSTREAM_COURTLISTENER_KEY'),
    });
  });
});
