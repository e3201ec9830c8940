import { mcpClient, toolCaller } from './conformance-mcp.js';
import type { Run } from './conformance-run.js';

/**
 * Retry safety with a test payment, where the instance accepts test payments (Run.testPayment): ten concurrent retries
 * of one payment get one answer over HTTP and over MCP, and an Idempotency-Key returns the stored answer for a new
 * payment and 422 for another body.
 */

const BUNDLE = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };
const bundleRequest = (body: unknown) => ({ method: 'POST', path: '/api/data/bundle', body });

/** The `payments` phase: retry safety over HTTP, then over MCP. */
export async function retrySafety(run: Run): Promise<void> {
  const payment = await run.testPayment(bundleRequest(BUNDLE));
  if (!payment) {
    run.log('retry safety: the instance accepts no test payments (its x402 recipient is not the zero address); skipped');
    return;
  }
  run.log('retry safety: ten concurrent retries of one test payment');
  const pay = (headers: Record<string, string>, body: unknown = BUNDLE) => run.http('POST', '/api/data/bundle', { body, headers });
  const answers = await Promise.all(Array.from({ length: 10 }, () => pay({ [payment.name]: payment.value })));
  const same = answers.every((a) => a.status === 200 && JSON.stringify(a.body) === JSON.stringify(answers[0]!.body));
  run.check(
    'retry',
    'ten concurrent retries of one payment: one answer (same bytes, same receipt)',
    'POST /api/data/bundle',
    same ? undefined : `statuses ${answers.map((a) => a.status).join(',')}`,
  );

  const key = `conformance-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const paymentFor = async (body: unknown) => (await run.testPayment(bundleRequest(body)))!.value;
  const first = await pay({ [payment.name]: await paymentFor(BUNDLE), 'idempotency-key': key });
  const again = await pay({ [payment.name]: await paymentFor(BUNDLE), 'idempotency-key': key });
  run.check(
    'retry',
    'Idempotency-Key: same key and body, new payment → the stored answer',
    key,
    JSON.stringify(again.body) === JSON.stringify(first.body) ? undefined : 'another answer',
  );
  // A payment made for the other body (a v2 payment echoes its request's requirements), so only the key is wrong.
  const otherBody = { queries: [{ type: 'forex', q: 'EUR:USD' }] };
  const other = await pay({ [payment.name]: await paymentFor(otherBody), 'idempotency-key': key }, otherBody);
  run.check('retry', 'Idempotency-Key: same key, another body → 422', key, other.status === 422 ? undefined : `HTTP ${other.status}`);
  await mcpRetrySafety(run);
}

async function mcpRetrySafety(run: Run): Promise<void> {
  const payment = await run.testPayment(bundleRequest(BUNDLE));
  if (!payment) return;
  run.log('MCP retry safety: ten concurrent retries of one test payment');
  const client = await mcpClient(run, '?toolsets=all');
  const call = toolCaller(run, client);
  const wire = JSON.parse(atob(payment.value)) as unknown;
  const results = await Promise.all(Array.from({ length: 10 }, () => call('bundle', BUNDLE, 'bundle paid', { 'x402/payment': wire })));
  const same = results.every((r) => !r.isError && JSON.stringify(r.structuredContent) === JSON.stringify(results[0]!.structuredContent));
  run.check('retry', 'MCP: ten concurrent retries of one payment: one answer', 'tools/call bundle', same ? undefined : 'results differ');
  await client.close();
}
