import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

/**
 * The SDK as a browser bundle (esbuild, platform browser: a `node:` import would fail the build), on a
 * page of another origin than the service: it queries svc and verifies the receipt with WebCrypto.
 */
const SDK_ENTRY = fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url));

let browser: Browser;
let t: TestApp;
let base: string;
let page: Server;
let pageUrl: string;
let bundle: string;

beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const built = await build({
    stdin: { contents: `export * from ${JSON.stringify(SDK_ENTRY)};`, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  bundle = built.outputFiles[0]!.text;
  page = createServer((request, response) => {
    if (request.url === '/sdk.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><script type="module">import * as svc from "/sdk.js"; window.svc = svc; document.title = "ready";</script>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => page?.close(resolve));
  await t?.close();
});

describe('the SDK in Chromium', () => {
  it('bundles without Node built-ins', () => {
    expect(bundle).not.toMatch(/["']node:|\bBuffer\.|require\(/);
  });

  it('runs a query against svc and verifies its receipt in the page (signature, response and request)', async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(pageUrl);
    await expect.poll(() => tab.title()).toBe('ready');
    const result = await tab.evaluate(async (baseUrl) => {
      const svc = (window as any).svc;
      const client = svc.createClient({ baseUrl });
      const bitcoin = await client.query({ type: 'crypto-price', q: 'bitcoin' });
      const ethereum = await client.query({ type: 'crypto-price', q: 'ethereum' });
      const jwk = await client.receiptKey();
      return {
        hasBuffer: 'Buffer' in globalThis,
        price: bitcoin.ok,
        requestId: client.metaOf(bitcoin)?.requestId,
        verdict: await client.verifyReceipt(bitcoin),
        tampered: await svc.verifyReceipt({ ...bitcoin, q: 'dogecoin' }, jwk),
        otherRequest: await client.verifyReceipt(ethereum, { request: client.metaOf(bitcoin).request }),
      };
    }, base);
    expect(result).toMatchObject({
      hasBuffer: false,
      price: true,
      requestId: expect.stringMatching(/\S/),
      verdict: { valid: true, checked: 'signature+response+request', kid: t.deps.signingKey.kid },
      tampered: { valid: false, reason: 'response_mismatch' },
      otherRequest: { valid: false, reason: 'request_mismatch' },
    });
    expect(errors).toEqual([]);
    await tab.close();
  });

  it('verifies a signed note and an RFC 6962 consistency proof in the page (WebCrypto Ed25519 raw keys, SHA-256)', async () => {
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    await expect.poll(() => tab.title()).toBe('ready');
    const result = await tab.evaluate(async () => {
      const svc = (window as any).svc;
      const key = await svc.parseVerifierKey('example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k');
      const note =
        'This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';
      const leaves = await Promise.all([1, 2, 3].map((i) => svc.leafHash(new Uint8Array([i]))));
      const [ab, abc] = [await svc.merkleRoot(leaves.slice(0, 2)), await svc.merkleRoot(leaves)];
      return {
        text: (await svc.verifyNote(note, [key])).text,
        consistent: await svc.verifyConsistency(2, 3, ab, abc, [leaves[2]]),
      };
    });
    expect(result).toEqual({ text: 'This is an example message.\n', consistent: true });
    await tab.close();
  });
});
