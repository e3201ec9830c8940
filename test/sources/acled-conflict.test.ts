import { describe, expect, it, vi } from 'vitest';
import { eventRows, type Events } from '../../src/sources/acled-conflict.js';
import { withBearer } from '../../src/sources/lib/bearer-token.js';
import type { FetchContext } from '../../src/sources/define.js';
import type { HostHttp } from '../../src/upstream/client.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { ManualClock } from '../../src/core/clock.js';

const event = (id: string, date: string, extra: Partial<Events['data'][number]> = {}): Events['data'][number] => ({
  event_id_cnty: id,
  event_date: date,
  event_type: 'Battles',
  sub_event_type: 'Armed clash',
  actor1: 'A',
  actor2: '',
  country: 'Sudan',
  admin1: 'Khartoum',
  location: 'Omdurman',
  latitude: '15.6445',
  longitude: 32.4777,
  fatalities: '3',
  notes: 'n',
  ...extra,
});

describe('ACLED events', () => {
  it('turns string numbers into numbers, empty actor2 into null, and sorts newest first', () => {
    const rows = eventRows({ data: [event('SUD1', '2026-11-03'), event('SUD2', '2026-11-17', { actor2: 'B', fatalities: 0 })] });
    expect(rows.map((r) => [r.event_id, r.occurred_at, r.actor2, r.fatalities, r.lat, r.lon, r.as_of])).toEqual([
      ['SUD2', 1794873600, 'B', 0, 15.6445, 32.4777, 1794873600],
      ['SUD1', 1793664000, null, 3, 15.6445, 32.4777, 1793664000],
    ]);
    expect(rows[0]!.kind).toBe('event');
  });

  it('keeps the 20 newest and reads an empty answer as no data', () => {
    const many = Array.from({ length: 25 }, (_, i) => event(`SUD${i}`, `2026-10-${String(i + 1).padStart(2, '0')}`));
    expect(eventRows({ data: many }).map((r) => r.event_id)).toEqual(Array.from({ length: 20 }, (_, i) => `SUD${24 - i}`));
    expect(() => eventRows({ data: [] })).toThrow(expect.objectContaining({ reason: 'no_data' }));
  });
});

describe('bearer tokens (shared by ACLED and Reddit)', () => {
  const setup = (key = 'me@example.org:pa:ss') => {
    const clock = new ManualClock();
    const auth = { name: 'acled' } as HostHttp;
    const ctx = {
      clock,
      deadline: Date.now() + 1000,
      config: { upstreams: { acled: { baseUrl: `https://acled.test/${Math.random()}`, key } } },
    } as unknown as FetchContext;
    let sold = 0;
    const buy = vi.fn(async (credentials: string) => ({ access_token: `${credentials}#${++sold}`, expires_in: 3600 }));
    return { clock, auth, ctx, buy };
  };

  it('buys once and reuses the token until a minute before it expires', async () => {
    const { clock, auth, ctx, buy } = setup();
    const use = async (token: string) => token;
    expect(await withBearer(ctx, auth, buy, use)).toBe('me@example.org:pa:ss#1');
    clock.advance(3600_000 - 61_000);
    expect(await withBearer(ctx, auth, buy, use)).toBe('me@example.org:pa:ss#1');
    clock.advance(2_000);
    expect(await withBearer(ctx, auth, buy, use)).toBe('me@example.org:pa:ss#2');
    expect(buy).toHaveBeenCalledTimes(2);
  });

  it('buys a fresh token once when the upstream answers 401, and passes other errors on', async () => {
    const { auth, ctx, buy } = setup();
    const use = vi.fn(async (token: string) => {
      if (token.endsWith('#1')) throw new UpstreamError('upstream_error', 'HTTP 401', { status: 401 });
      return token;
    });
    expect(await withBearer(ctx, auth, buy, use)).toMatch(/#2$/);
    const failing = async () => {
      throw new UpstreamError('upstream_error', 'HTTP 500', { status: 500 });
    };
    await expect(withBearer(ctx, auth, buy, failing)).rejects.toMatchObject({ info: { status: 500 } });
    expect(buy).toHaveBeenCalledTimes(2);
  });
});
