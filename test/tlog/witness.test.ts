import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { generateKeyPairSync, sign } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { noteKeyId, rawPublicKey } from '../../src/core/signed-note.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** A witness from c2sp.org/tlog-witness, minimal: it remembers a size per origin, answers 409 on a stale old size, cosigns. */
function fakeWitness(name: string, startSize: number) {
  const { privateKey } = generateKeyPairSync('ed25519');
  const raw = rawPublicKey(privateKey);
  const keyId = noteKeyId(name, 0x04, raw);
  const requests: { old: number; proofLines: number; size: number }[] = [];
  let size = startSize;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const [head, checkpoint] = [body.slice(0, body.indexOf('\n\n')), body.slice(body.indexOf('\n\n') + 2)];
      const [oldLine, ...proof] = head.split('\n');
      const old = Number(oldLine!.slice('old '.length));
      const text = checkpoint.slice(0, checkpoint.indexOf('\n\n') + 1);
      const newSize = Number(text.split('\n')[1]);
      requests.push({ old, proofLines: proof.length, size: newSize });
      if (old !== size) return response.writeHead(409, { 'content-type': 'text/x.tlog.size' }).end(`${size}\n`);
      size = newSize;
      const stamp = Buffer.alloc(8);
      stamp.writeBigUInt64BE(1_800_000_000n);
      const signature = sign(null, Buffer.from(`cosignature/v1\ntime 1800000000\n${text}`), privateKey);
      response.writeHead(200).end(`— ${name} ${Buffer.concat([keyId, stamp, signature]).toString('base64')}\n`);
    });
  });
  const vkey = `${name}+${keyId.toString('hex')}+${Buffer.concat([Buffer.from([4]), raw]).toString('base64')}`;
  return {
    requests,
    vkey,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const previewAll = (t: TestApp, coins: string[]) =>
  Promise.all(coins.map((q) => t.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q } })));

/** Polls /log/checkpoint until it answers 200 (the witnesses answer in the background). */
async function cosignedCheckpoint(t: TestApp): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    await t.deps.tlog.integrate();
    const res = await t.app.inject({ url: '/log/checkpoint' });
    if (res.statusCode === 200) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no cosigned checkpoint');
}

let t: TestApp | undefined;
const witnesses: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  await Promise.all(witnesses.map((w) => w.close()));
});

describe('witnesses', () => {
  it('sends each checkpoint with a consistency proof, resends from the size a 409 names, and serves the cosignature (quorum 1)', async () => {
    const witness = fakeWitness('witness.test/w1', 1);
    witnesses.push(witness);
    const url = await witness.listen();
    t = await startTestApp({ env: { SVC_LOG_WITNESSES: `${witness.vkey}=${url}`, SVC_LOG_WITNESS_QUORUM: '1' } });
    await previewAll(t, ['bitcoin']);
    const unwitnessed = await t.app.inject({ url: '/log/checkpoint' });
    expect(unwitnessed.statusCode).toBe(503);
    await previewAll(t, ['ethereum']);
    const note = await cosignedCheckpoint(t);
    expect(note.split('\n').filter((line) => line.startsWith('— '))).toHaveLength(2);
    expect(note).toMatch(/\n— witness\.test\/w1 [A-Za-z0-9+/=]+\n$/);
    // The witness held size 1: svc's `old 0` got a 409 naming 1, and the resend carried a proof from 1.
    expect(witness.requests[0]).toMatchObject({ old: 0 });
    expect(witness.requests.find((r) => r.old === 1 && r.size === 2)).toMatchObject({ proofLines: 1 });
  });

  it('a dead witness blocks nothing with quorum 0', async () => {
    t = await startTestApp({ env: { SVC_LOG_WITNESSES: `${fakeWitness('witness.test/dead', 0).vkey}=http://127.0.0.1:9` } });
    const [answer] = await previewAll(t, ['bitcoin']);
    expect(answer!.statusCode).toBe(200);
    await t.deps.tlog.integrate();
    const checkpoint = await t.app.inject({ url: '/log/checkpoint' });
    expect(checkpoint.statusCode).toBe(200);
    expect(checkpoint.body.split('\n')[1]).toBe('1');
  });
});
