import { randomInt } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const LIMIT = 50;
const randomIp = () => `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** Audit finding 1: X-Forwarded-For is a claim, believed only from proxies the operator trusts. */
describe('client identity', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function statuses(app: TestApp, spoof: boolean, remoteAddress = '203.0.113.7'): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < 200; i++) {
      const headers = spoof ? { 'x-forwarded-for': randomIp() } : {};
      out.push((await app.app.inject({ url: '/api/v1/catalog', headers, remoteAddress })).statusCode);
    }
    return out;
  }

  it('by default, 200 requests with random X-Forwarded-For from one socket hit the anonymous limit exactly as without it', async () => {
    t = await startTestApp({ env: { SVC_RATE_ANON_PER_MIN: String(LIMIT) } });
    const spoofed = await statuses(t, true, '203.0.113.7');
    const plain = await statuses(t, false, '203.0.113.8');
    expect(spoofed.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(spoofed.filter((s) => s === 429)).toHaveLength(200 - LIMIT);
    expect(spoofed).toEqual(plain);
  });

  it('with SVC_TRUST_PROXY naming the proxy, the forwarded address is the client', async () => {
    t = await startTestApp({ env: { SVC_RATE_ANON_PER_MIN: String(LIMIT), SVC_TRUST_PROXY: '10.0.0.0/8' } });
    const viaProxy = await statuses(t, true, '10.1.2.3');
    expect(viaProxy.every((s) => s === 200)).toBe(true);
    // A caller that is not the trusted proxy still cannot choose its address.
    const direct = await statuses(t, true, '198.51.100.9');
    expect(direct.filter((s) => s === 200)).toHaveLength(LIMIT);
  });

  it('with a hop count, only that many hops are trusted', async () => {
    t = await startTestApp({ env: { SVC_RATE_ANON_PER_MIN: String(LIMIT), SVC_TRUST_PROXY: '1' } });
    // One trusted hop: the client is the last address the proxy appended, whatever the caller prepended.
    const res = [];
    for (let i = 0; i < LIMIT + 5; i++) {
      res.push(
        (
          await t.app.inject({
            url: '/api/v1/catalog',
            remoteAddress: '10.0.0.1',
            headers: { 'x-forwarded-for': `${randomIp()}, 192.0.2.44` },
          })
        ).statusCode,
      );
    }
    expect(res.filter((s) => s === 429)).toHaveLength(5);
  });

  it('a malformed SVC_TRUST_PROXY stops start-up naming the variable', () => {
    expect(() => loadConfig({ SVC_TRUST_PROXY: '10.0.0.0/8, 10.0.0.300' })).toThrow(/SVC_TRUST_PROXY: "10.0.0.300"/);
    expect(() => loadConfig({ SVC_TRUST_PROXY: 'yes' })).toThrow(/SVC_TRUST_PROXY/);
    expect(loadConfig({ SVC_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});
