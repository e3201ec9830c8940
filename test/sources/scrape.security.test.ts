import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from '../../src/upstream/address-policy.js';
import { checkUrl, safeFetch, type SafeFetchOptions } from '../../src/upstream/safe-fetch.js';
import { parseUrl } from '../../src/sources/scrape.js';

describe('address policy', () => {
  it.each([
    '127.0.0.1', '127.1', '2130706433', '0177.0.0.1', '0x7f.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254',
    '224.0.0.1', '0.0.0.0', '255.255.255.255', '::1', '::', 'fc00::1', 'fd00:ec2::254', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:a00:1::',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => expect(isPublicAddress(address)).toBe(true));

  it('refuses every address in the private ranges', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(fc.property(octet, octet, octet, (a, b, c) => isPublicAddress(`10.${a}.${b}.${c}`) === false));
    fc.assert(fc.property(fc.integer({ min: 16, max: 31 }), octet, octet, (a, b, c) => isPublicAddress(`172.${a}.${b}.${c}`) === false));
    fc.assert(fc.property(octet, octet, (b, c) => isPublicAddress(`192.168.${b}.${c}`) === false));
  });
});

describe('scrape q', () => {
  it.each(['ftp://x.org/', 'javascript:alert(1)', 'http://127.0.0.1/', 'http://[::1]/', 'http://[::ffff:7f00:1]/', 'http://0x7f000001/', 'http://user:pw@x.org/', 'http://metadata.google.internal/', 'nope'])(
    'refuses %s with a 400 before any connection',
    (q) => expect(() => parseUrl(q)).toThrow(/expected an absolute http\(s\) URL/),
  );
});

/** A loopback server standing in for "the internet"; the injected resolver maps names to it or to private addresses. */
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => {
    const routes: Record<string, () => void> = {
      '/page': () => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>hello</p></body></html>'),
      '/to-private': () => res.writeHead(302, { location: 'http://intranet.example/secret' }).end(),
      '/to-ip': () => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
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

const resolver = async (hostname: string) => [{ address: hostname === 'intranet.example' ? '10.0.0.5' : hostname === 'rebind.example' ? '192.168.0.10' : '127.0.0.1', family: 4 }];
const options = (overrides: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  deadline: Date.now() + 1500,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  accept: ['text/html', 'application/xhtml+xml', 'text/plain'],
  userAgent: 'svc-test',
  resolver,
  // The test server stands in for a public host: only 127.0.0.1 is let through, nothing else private.
  allowAddress: (address) => address === '127.0.0.1',
  ...overrides,
});
const reason = (p: Promise<unknown>) => p.then(() => 'ok', (e: { reason?: string }) => e.reason);

describe('safe fetch', () => {
  it('fetches an allowed page', async () => {
    expect((await safeFetch(`http://public.example:${port}/page`, options())).body).toContain('hello');
  });

  it('refuses a name that resolves to a private address (checked at connect time)', async () => {
    expect(await reason(safeFetch(`http://rebind.example:${port}/page`, options()))).toBe('blocked_address');
    expect(await reason(safeFetch(`http://public.example:${port}/page`, options({ allowAddress: undefined })))).toBe('blocked_address');
  });

  it('re-checks every redirect hop: to a private name, to a metadata IP, and stops loops after 5', async () => {
    expect(await reason(safeFetch(`http://public.example:${port}/to-private`, options()))).toBe('blocked_address');
    expect(await reason(safeFetch(`http://public.example:${port}/to-ip`, options()))).toBe('blocked_address');
    expect(await reason(safeFetch(`http://public.example:${port}/loop`, options()))).toBe('too_many_redirects');
  });

  it('caps the body, the content type and the time', async () => {
    expect(await reason(safeFetch(`http://public.example:${port}/big`, options()))).toBe('upstream_bad_response');
    expect(await reason(safeFetch(`http://public.example:${port}/pdf`, options()))).toBe('unsupported_content_type');
    expect(await reason(safeFetch(`http://public.example:${port}/slow`, options({ deadline: Date.now() + 300 })))).toBe('upstream_timeout');
  });

  it('refuses other schemes and literal private addresses before connecting', () => {
    expect(() => checkUrl('file:///etc/passwd')).toThrow(/refused scheme/);
    expect(() => checkUrl('http://0177.0.0.1/')).toThrow(/not a public address/);
  });
});
