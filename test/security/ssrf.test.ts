import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressRefusal, isPublicAddress } from '../../src/upstream/address-policy.js';
import { checkUrl, safeFetch, type Resolver, type SafeFetchOptions } from '../../src/upstream/safe-fetch.js';
import { parseUrl } from '../../src/sources/scrape.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Issue 11, finding 5: user-given URLs reach public addresses on allowed ports only, checked at every hop. */
describe('address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['fd00:ec2::254', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'site-local'],
    ['::7f00:1', 'IPv4-compatible'], // [::127.0.0.1] as a URL parser writes it
    ['::808:808', 'IPv4-compatible'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::ffff:0:808:808', 'IPv4-translated'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['64:ff9b::808:808', 'NAT64'],
    ['64:ff9b:1::a00:1', 'local NAT64'],
    ['2002:a00:1::', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['2001::1', 'Teredo'],
    ['c000::1', 'outside global unicast'],
  ])('refuses %s as %s', (address, reason) => {
    expect(addressRefusal(address)).toContain(reason);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('allows %s', (address) =>
    expect(addressRefusal(address)).toBeUndefined(),
  );

  it('refuses every address in the private ranges, and every IPv4 address wrapped in IPv6', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(fc.property(octet, octet, octet, (a, b, c) => !isPublicAddress(`10.${a}.${b}.${c}`)));
    fc.assert(fc.property(fc.integer({ min: 16, max: 31 }), octet, octet, (a, b, c) => !isPublicAddress(`172.${a}.${b}.${c}`)));
    fc.assert(fc.property(octet, octet, (b, c) => !isPublicAddress(`192.168.${b}.${c}`)));
    const hex16 = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const wrappers = fc.constantFrom('::ffff:', '::', '64:ff9b::', '::ffff:0:');
    fc.assert(fc.property(wrappers, hex16, hex16, (prefix, hi, lo) => !isPublicAddress(`${prefix}${hi}:${lo}`)));
    fc.assert(fc.property(hex16, hex16, (hi, lo) => !isPublicAddress(`2002:${hi}:${lo}::1`)));
  });
});

describe('scrape through HTTP', () => {
  let t: TestApp;
  let wide: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    wide = await startTestApp({ sim: t.sim, env: { SVC_FETCH_ALLOWED_PORTS: '443,8443' } });
  });
  afterAll(async () => {
    await wide.close();
    await t.close();
  });
  const scrape = (app: TestApp, q: string) => app.app.inject({ url: '/api/data/preview', query: { type: 'scrape', q } });

  it.each([
    ['http://[::127.0.0.1]/', 'IPv4-compatible'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped'],
    ['http://[::ffff:a9fe:a9fe]/latest/meta-data/', 'IPv4-mapped'],
    ['http://[64:ff9b::127.0.0.1]/', 'NAT64'],
    ['http://[2002:7f00:1::]/', '6to4'],
    ['http://[fd00:ec2::254]/', 'unique local'],
    ['http://0x7f000001/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://100.100.100.200/', 'carrier-grade NAT'],
    ['http://metadata.google.internal/', 'cloud metadata'],
  ])('refuses %s with a 400 naming the reason (%s), before any connection', async (q, reason) => {
    const res = await scrape(t, q);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_q', details: { field: 'q' } });
    expect(res.json().message).toContain(reason);
  });

  it('refuses port 8080 by default and allows the ports SVC_FETCH_ALLOWED_PORTS names', async () => {
    const refused = await scrape(t, 'https://news.example:8080/articles/solar-record');
    expect(refused.json()).toMatchObject({ ok: false, error: 'blocked_address' });
    expect(refused.json().message).toMatch(/port 8080 is not allowed \(allowed: 80, 443/);
    expect((await scrape(wide, 'https://news.example:8443/articles/solar-record')).json()).toMatchObject({ ok: true });
    expect((await scrape(wide, 'http://news.example/articles/solar-record')).json()).toMatchObject({ ok: false, error: 'blocked_address' });
  });
});

describe('scrape q', () => {
  it.each([
    'ftp://x.org/',
    'javascript:alert(1)',
    'http://127.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:7f00:1]/',
    'http://0x7f000001/',
    'http://user:pw@x.org/',
    'http://metadata.google.internal/',
    'nope',
  ])('refuses %s with a 400 before any connection', (q) => expect(() => parseUrl(q)).toThrow(/expected an absolute http\(s\) URL/));
});

/** A loopback server standing in for "the internet"; the injected resolver maps names to it or to private addresses. */
let server: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    const routes: Record<string, () => void> = {
      '/page': () => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>hello</p></body></html>'),
      '/to-private': () => res.writeHead(302, { location: 'http://intranet.example/secret' }).end(),
      '/to-ip': () => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/to-mapped': () => res.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${port}/page` }).end(),
      '/to-nat64-name': () => res.writeHead(302, { location: `http://nat64.example:${port}/page` }).end(),
      '/to-port': () => res.writeHead(302, { location: 'http://public.example:8080/page' }).end(),
      '/to-flip': () => res.writeHead(302, { location: `http://flip.example:${port}/page` }).end(),
      '/loop': () => res.writeHead(302, { location: '/loop' }).end(),
      '/pdf': () => res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF'),
      '/big': () => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(6 * 1024 * 1024)),
      '/slow': () => undefined,
    };
    (routes[req.url ?? ''] ?? (() => res.writeHead(404).end()))();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const PRIVATE_NAMES: Record<string, string> = {
  'intranet.example': '10.0.0.5',
  'rebind.example': '192.168.0.10',
  'nat64.example': '64:ff9b::7f00:1',
};
const resolver: Resolver = async (hostname) => [
  { address: PRIVATE_NAMES[hostname] ?? '127.0.0.1', family: PRIVATE_NAMES[hostname]?.includes(':') ? 6 : 4 },
];
const options = (overrides: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  deadline: Date.now() + 1500,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  accept: ['text/html', 'application/xhtml+xml', 'text/plain'],
  userAgent: 'svc-test',
  ports: [80, 443, port],
  resolver,
  // The test server stands in for a public host: only 127.0.0.1 is let through, nothing else private.
  allowAddress: (address) => address === '127.0.0.1',
  ...overrides,
});
const failure = (p: Promise<unknown>) =>
  p.then(
    () => ({ reason: 'ok', message: '' }),
    (e: { reason: string; message: string }) => ({ reason: e.reason, message: e.message }),
  );

describe('safe fetch', () => {
  it('fetches an allowed page', async () => {
    expect((await safeFetch(`http://public.example:${port}/page`, options())).body).toContain('hello');
  });

  it('refuses a name that resolves to a private or IPv4-in-IPv6 address (checked at connect time)', async () => {
    expect(await failure(safeFetch(`http://rebind.example:${port}/page`, options()))).toMatchObject({
      reason: 'blocked_address',
      message: expect.stringContaining('192.168.0.10'),
    });
    expect(await failure(safeFetch(`http://nat64.example:${port}/page`, options()))).toMatchObject({
      reason: 'blocked_address',
      message: expect.stringContaining('NAT64'),
    });
    expect((await failure(safeFetch(`http://public.example:${port}/page`, options({ allowAddress: undefined })))).reason).toBe(
      'blocked_address',
    );
  });

  it('re-checks every redirect hop: a private name, a metadata IP, a mapped literal, a NAT64 answer, a closed port; loops stop after 5', async () => {
    expect(await failure(safeFetch(`http://public.example:${port}/to-private`, options()))).toMatchObject({
      reason: 'blocked_address',
      message: expect.stringContaining('(10.0.0.5): private address'),
    });
    expect(await failure(safeFetch(`http://public.example:${port}/to-ip`, options()))).toMatchObject({
      reason: 'blocked_address',
      message: expect.stringContaining('link-local'),
    });
    expect(await failure(safeFetch(`http://public.example:${port}/to-mapped`, options()))).toMatchObject({
      reason: 'blocked_address',
      message: expect.stringContaining('IPv4-mapped'),
    });
    expect(await failure(safeFetch(`http://public.example:${port}/to-nat64-name`, options()))).toMatchObject({
      reason: 'blocked_address',
      message: expect.stringContaining('NAT64'),
    });
    expect(await failure(safeFetch(`http://public.example:${port}/to-port`, options()))).toMatchObject({
      reason: 'blocked_address',
      message: expect.stringContaining('port 8080'),
    });
    expect((await failure(safeFetch(`http://public.example:${port}/loop`, options()))).reason).toBe('too_many_redirects');
  });

  it('refuses port 8080 by default, before connecting', async () => {
    const before = hits;
    const refused = await failure(safeFetch('http://public.example:8080/page', options({ ports: [80, 443] })));
    expect(refused).toMatchObject({ reason: 'blocked_address', message: expect.stringContaining('port 8080 is not allowed') });
    expect((await failure(safeFetch(`http://public.example:${port}/page`, options({ ports: [80, 443] })))).reason).toBe('blocked_address');
    expect(hits).toBe(before);
  });

  it('pins each connection to the address its lookup vetted: a rebinding second answer cannot redirect it', async () => {
    const answers = ['127.0.0.1', '10.0.0.7'];
    let flips = 0;
    const lookups: string[] = [];
    const flipping: Resolver = async (hostname) => {
      const address = hostname === 'flip.example' ? answers[Math.min(flips++, 1)]! : '127.0.0.1';
      lookups.push(`${hostname}=${address}`);
      return [{ address, family: 4 }];
    };
    expect((await safeFetch(`http://flip.example:${port}/page`, options({ resolver: flipping }))).body).toContain('hello');
    expect(lookups).toEqual(['flip.example=127.0.0.1']); // one lookup: the check and the connection are the same answer
    const redirected = await failure(safeFetch(`http://public.example:${port}/to-flip`, options({ resolver: flipping })));
    expect(redirected).toMatchObject({ reason: 'blocked_address', message: expect.stringContaining('10.0.0.7') });
  });

  it('caps the body, the content type and the time', async () => {
    expect((await failure(safeFetch(`http://public.example:${port}/big`, options()))).reason).toBe('upstream_bad_response');
    expect((await failure(safeFetch(`http://public.example:${port}/pdf`, options()))).reason).toBe('unsupported_content_type');
    expect((await failure(safeFetch(`http://public.example:${port}/slow`, options({ deadline: Date.now() + 300 })))).reason).toBe(
      'upstream_timeout',
    );
  });

  it('refuses other schemes and literal private addresses before connecting', () => {
    expect(() => checkUrl('file:///etc/passwd')).toThrow(/refused scheme/);
    expect(() => checkUrl('http://0177.0.0.1/')).toThrow(/loopback address/);
    expect(() => checkUrl('http://[::127.0.0.1]/')).toThrow(/IPv4-compatible/);
  });
});
