import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { leafHash, rootFromInclusion } from '../../src/tlog/merkle.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';

let t: TestApp;

type Receipt = Record<string, unknown> & { log?: { origin: string; index: number } };

async function preview(q: string, type = 'crypto-price'): Promise<{ body: Record<string, unknown>; receipt: Receipt }> {
  const res = await t.app.inject({ url: '/api/data/preview', query: { type, q } });
  expect(res.statusCode).toBe(200);
  const body = res.json() as Record<string, unknown> & { _receipt: Receipt };
  return { body, receipt: body._receipt };
}

const get = (url: string) => t.app.inject({ url });

/** Checks a signed note's Ed25519 signature with the vkey /log/key publishes. */
function verifyNote(note: string, vkey: string): boolean {
  const [name, id, material] = [
    vkey.slice(0, vkey.indexOf('+')),
    vkey.split('+')[1]!,
    vkey.slice(vkey.indexOf('+', vkey.indexOf('+') + 1) + 1),
  ];
  const key = Buffer.from(material, 'base64');
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.subarray(1).toString('base64url') }, format: 'jwk' });
  const split = note.lastIndexOf('\n\n');
  const text = note.slice(0, split + 1);
  return note
    .slice(split + 2)
    .split('\n')
    .filter((line) => line.startsWith(`— ${name} `))
    .some((line) => {
      const sig = Buffer.from(line.split(' ')[2]!, 'base64');
      return sig.subarray(0, 4).toString('hex') === id && verify(null, Buffer.from(text), publicKey, sig.subarray(4));
    });
}

describe.each(STORE_BACKENDS)('receipts in the transparency log on %s', (backend) => {
  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres' });
  });
  afterAll(() => t.close());

  it('carry log {origin, index} inside what is signed, with consecutive indexes', async () => {
    await t.deps.tlog.stop(); // no checkpoint until the pending check is done: that check must not race the timer
    const a = await preview('bitcoin');
    const b = await preview('ethereum');
    expect(a.receipt.log).toEqual({ origin: 'svc.test/log', index: 0 });
    expect(b.receipt.log).toEqual({ origin: 'svc.test/log', index: 1 });
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt: a.receipt } });
    expect(verified.json()).toMatchObject({ valid: true, log: { status: 'pending' } });
    t.deps.tlog.start();
    const moved = await t.app.inject({
      method: 'POST',
      url: '/api/v1/receipt/verify',
      payload: { receipt: { ...a.receipt, log: { origin: 'svc.test/log', index: 1 } } },
    });
    expect(moved.json()).toMatchObject({ valid: false, reason: 'bad_signature' });
  });

  it('logs a body once: a cached resend of the same value carries an unlogged receipt', async () => {
    const resend = await preview('bitcoin');
    expect(resend.body.cached).toBe(true);
    expect(resend.receipt.log).toBeUndefined();
    expect((await preview('bitcoin')).receipt).toEqual(resend.receipt);
    expect(await t.deps.repos.tlog.size()).toBe(2);
  });

  it('publishes a signed checkpoint, tiles and bundles that hold the receipts, and proofs that verify', async () => {
    const { receipt } = await preview('EUR:USD', 'forex');
    await t.deps.tlog.integrate();
    const vkey = (await get('/log/key')).body.trim();
    expect(vkey).toMatch(/^svc\.test\/log\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);

    const checkpoint = await get('/log/checkpoint');
    expect(checkpoint.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(checkpoint.headers['cache-control']).toBe('public, max-age=2');
    const [origin, size, root] = checkpoint.body.split('\n');
    expect([origin, size]).toEqual(['svc.test/log', '3']);
    expect(verifyNote(checkpoint.body, vkey)).toBe(true);

    const tile = await get('/log/tile/0/000.p/3');
    expect(tile.headers['content-type']).toBe('application/octet-stream');
    expect(tile.rawPayload.subarray(64, 96).equals(leafHash(Buffer.from(canonicalJson(receipt))))).toBe(true);
    const bundle = (await get('/log/tile/entries/000.p/3')).rawPayload;
    const entries: string[] = [];
    for (let at = 0; at < bundle.length; at += 2 + bundle.readUInt16BE(at))
      entries.push(bundle.subarray(at + 2, at + 2 + bundle.readUInt16BE(at)).toString());
    expect(entries).toHaveLength(3);
    expect(entries[2]).toBe(canonicalJson(receipt));
    expect((await get('/log/tile/0/000')).statusCode).toBe(404);
    expect((await get('/log/tile/0/000.p/4')).statusCode).toBe(404);
    expect((await get('/log/tile/0/0')).json()).toMatchObject({ error: 'not_found' });

    const proof = await get('/api/v1/receipt/proof?index=2');
    expect(proof.headers['content-type']).toBe('text/plain; charset=utf-8');
    const [magic, indexLine, ...rest] = proof.body.split('\n');
    expect([magic, indexLine]).toEqual(['c2sp.org/tlog-proof@v1', 'index 2']);
    const path = rest.slice(0, rest.indexOf('')).map((line) => Buffer.from(line, 'base64'));
    expect(rest.slice(rest.indexOf('') + 1).join('\n')).toBe(checkpoint.body);
    expect(rootFromInclusion(path, 3, 2, leafHash(Buffer.from(canonicalJson(receipt))))?.toString('base64')).toBe(root);

    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt } });
    expect(verified.json()).toMatchObject({ valid: true, log: { status: 'included', checkpoint_size: 3 } });
  });

  it('answers 400 for a malformed index and 404 for one past the published checkpoint', async () => {
    const bad = await get('/api/v1/receipt/proof?index=01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'bad_request', details: { field: 'index' } });
    const later = await get('/api/v1/receipt/proof?index=99');
    expect(later.statusCode).toBe(404);
    expect(later.json()).toMatchObject({ error: 'not_found', message: expect.stringMatching(/not in a published checkpoint/) });
  });
});
