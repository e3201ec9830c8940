import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../packages/client/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BENIGN } from './corpus.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t.close());

describe('SDK: client.shield', () => {
  it('verifies a target and audits a manifest, with receipts the client verifies offline', async () => {
    const client = createClient({ baseUrl: base });
    const verdict = await client.shield.verify({ target: { kind: 'domain', value: 'app1e.com' }, action: 'visit' });
    expect(verdict).toMatchObject({ verdict: 'warn', findings: [{ id: 'lookalike_domain' }] });
    expect((await client.verifyReceipt(verdict)).valid).toBe(true);
    const audit = await client.shield.toolAudit({ manifest: BENIGN });
    expect(audit.summary).toEqual({ tools: 2, findings: 0, highest: null });
    expect((await client.verifyReceipt(audit)).valid).toBe(true);
  });
});
