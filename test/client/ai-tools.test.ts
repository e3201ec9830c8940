import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createClient } from '../../packages/client/src/index.js';
import { svcTools } from '../../packages/client/src/ai.js';

/** An AI SDK agent using svc through `svcTools(client)`, driven by the AI SDK's mock model. */
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model that calls `toolName` with `input`, then answers in text. */
const callingModel = (toolName: string, input: unknown) =>
  new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
    ],
  });

describe('svcTools for the Vercel AI SDK', () => {
  it('offers the tools with JSON Schema inputs, and a svc_query call returns the signed row to the model', async () => {
    const model = callingModel('svc_query', { type: 'crypto-price', q: 'bitcoin' });
    const client = createClient({ baseUrl: base });
    const result = await generateText({ model, tools: svcTools(client), stopWhen: stepCountIs(3), prompt: 'Price of bitcoin?' });

    const offered = model.doGenerateCalls[0]!.tools!;
    expect(offered.map((tool) => tool.name)).toEqual(['svc_catalog', 'svc_query', 'svc_bundle', 'svc_resolve_entity', 'svc_agent_context']);
    expect(offered.find((tool) => tool.name === 'svc_query')).toMatchObject({
      type: 'function',
      inputSchema: { type: 'object', required: ['type', 'q'] },
    });

    const output = result.steps[0]!.toolResults[0]!.output as Record<string, unknown>;
    expect(output).toMatchObject({ ok: true, type: 'crypto-price', _receipt: { kid: t.deps.signingKey.kid } });
    expect(await client.verifyReceipt(output)).toMatchObject({ valid: true, checked: 'signature+response+request' });
    // The model's second turn sees the tool's answer.
    const toolMessage = model.doGenerateCalls[1]!.prompt.find((message) => message.role === 'tool')!;
    expect(JSON.stringify(toolMessage.content)).toContain('"type":"crypto-price"');
    expect(result.text).toBe('done');
  });

  it('a free bundle and an entity lookup through the same tool set', async () => {
    const client = createClient({ baseUrl: base });
    const bundle = await generateText({
      model: callingModel('svc_bundle', { queries: [{ type: 'crypto-price', q: 'ethereum' }] }),
      tools: svcTools(client),
      stopWhen: stepCountIs(3),
      prompt: 'Ethereum?',
    });
    expect(bundle.steps[0]!.toolResults[0]!.output).toMatchObject({ results: [{ type: 'crypto-price', ok: true }] });

    const entity = await generateText({
      model: callingModel('svc_resolve_entity', { q: 'Ethereum' }),
      tools: svcTools(client),
      stopWhen: stepCountIs(3),
      prompt: 'What is Ethereum in svc?',
    });
    const { matches } = entity.steps[0]!.toolResults[0]!.output as { matches: { id: string }[] };
    expect(matches[0]).toMatchObject({ id: 'svc-ent:cr.ethereum', name: 'Ethereum' });
  });
});
