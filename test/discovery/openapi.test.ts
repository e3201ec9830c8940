import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operationIdFor } from '../../src/plugins/openapi.js';
import { rowComponentName } from '../../src/plugins/openapi-rows.js';
import { Ajv } from 'ajv';
import { unixSeconds } from '../../src/core/clock.js';
import { toJsonSchema } from '../../src/mcp/schema.js';
import { EXAMPLE_CALLS, recordExamples } from '../../scripts/openapi-examples.js';
import { PACKAGE_VERSION } from '../helpers/package-version.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, any>;
};

let t: TestApp;
let doc: any;
let scratch: string;
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, method, path, op })),
  );

beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.app.inject('/openapi.json')).json();
  scratch = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
});
afterAll(async () => {
  await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('OpenAPI', () => {
  it('is a valid OpenAPI 3.0.3 document at version 7.0.0', async () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe(PACKAGE_VERSION);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('passes `redocly lint` with the recommended ruleset: 0 errors, and only the known warnings', async () => {
    const file = join(scratch, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const bin = join(REPO, 'node_modules/.bin/redocly');
    const { stdout } = await run(bin, ['lint', file, '--extends=recommended', '--format=json', '--max-problems=1000'], {
      cwd: scratch,
      maxBuffer: 1 << 24,
    }).catch((e) => e);
    const problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] = JSON.parse(stdout).problems;
    const describe = (p: (typeof problems)[number]) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`;
    expect(problems.filter((p) => p.severity === 'error').map(describe)).toEqual([]);
    // /healthz and /readyz are outside the rate limiter and take no input: they have no 4xx to document.
    // agentKey is the scheme of agent-authenticated writes, used once those routes declare SECURITY.agent.
    const known = [
      'warn operation-4xx-response #/paths/~1healthz/get/responses',
      'warn operation-4xx-response #/paths/~1readyz/get/responses',
      'warn no-unused-components #/components/securitySchemes/agentKey',
      // X-API-Key is optional everywhere and only raises the rate-limit tier: no operation lists it (no lock on free routes).
      'warn no-unused-components #/components/securitySchemes/apiKey',
    ];
    expect(problems.map(describe).filter((d) => !known.some((k) => d.startsWith(k)))).toEqual([]);
  }, 60_000);

  it('gives every operation a unique camelCase operationId, tags, a summary and a security requirement', () => {
    const ids = new Set<string>();
    for (const { where, op } of operations()) {
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(ids.has(op.operationId!), `${where}: duplicate operationId ${op.operationId}`).toBe(false);
      ids.add(op.operationId!);
      expect(op.tags?.length, where).toBeGreaterThan(0);
      expect(op.summary, where).toBeTruthy();
      expect(Array.isArray(op.security), where).toBe(true);
      // Every route documents what it answers (a response schema), except acknowledgements without a body.
      const documented = Object.entries(op.responses).some(
        ([status, response]) => status.startsWith('2') && (response.content || status === '202' || status === '204'),
      );
      expect(documented, `${where}: add a 2xx response schema`).toBe(true);
      expect(
        Object.entries(op.responses).filter(([status, response]) => status.startsWith('2') && !response.content && status === '200'),
        where,
      ).toEqual([]);
    }
    expect(operationIdFor('GET', '/api/v1/entity/:id')).toBe('getEntityById');
    expect(operationIdFor('GET', '/.well-known/svc-receipt-pubkey.json')).toBe('getWellKnownSvcReceiptPubkeyJson');
    expect(doc.paths['/api/data/preview'].get.operationId).toBe('getDataPreview');
  });

  it('documents every asset with the media type it is sent as, and the HEAD the streams answer', async () => {
    const assets = Object.keys(doc.paths).filter((path) => /^\/(assets|widget)\//.test(path));
    expect(assets).toHaveLength(7);
    for (const path of assets) {
      const sent = (await t.app.inject(path)).headers['content-type'];
      expect(Object.keys(doc.paths[path].get.responses['200'].content), path).toEqual([String(sent).split(';')[0]]);
    }
    for (const path of ['/api/data/stream', '/api/agent-session/stream', '/api/v1/olympics/ticker']) {
      expect(doc.paths[path].head, path).toMatchObject({
        operationId: expect.stringMatching(/^head/),
        summary: expect.stringContaining('HEAD'),
      });
      const head = await t.app.inject({ method: 'HEAD', url: path });
      expect(Object.keys(doc.paths[path].head.responses), path).toContain(String(head.statusCode));
    }
  });

  it('says who may call: paid operations accept x402 and document the 402 headers; writes that answer 401 name their credential', async () => {
    for (const { where, op } of operations()) {
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      const anonymous = (op.security ?? []).some((s) => Object.keys(s).length === 0);
      if (op.responses['402']) {
        expect(schemes, where).toContain('x402');
        // The unpaid call is served (the challenge): without `{}` a validating proxy (Prism) answers 401 in svc's place.
        expect(anonymous, `${where} answers an unpaid call with 402 but does not declare it`).toBe(true);
        expect(Object.keys(op.responses['402'].headers), where).toEqual(expect.arrayContaining(['WWW-Authenticate', 'X-Payment-Required']));
        expect(op.responses['402'].content['application/json'].schema.$ref, where).toBe('#/components/schemas/PaymentChallenge');
      }
      // A route that refuses a missing credential must say which one (schema.security = SECURITY.agent, …).
      if (op.responses['401']) expect(anonymous && !schemes.length, `${where} answers 401 but names no credential`).toBe(false);
      for (const [status, response] of Object.entries(op.responses)) {
        // 402 is the x402 challenge; /mcp answers every error as JSON-RPC (the MCP transport's format), house fields in `data`.
        // Pages for people (the watch page) answer their 404 as a page; every other API error is the house body.
        const page = Boolean(response.content?.['text/html']);
        const errorBody = where.endsWith(' /mcp') ? '#/components/schemas/JsonRpcError' : '#/components/schemas/ErrorBody';
        if (status.startsWith('4') && status !== '402' && !page)
          expect(response.content['application/json'].schema.$ref, `${where} ${status}`).toBe(errorBody);
        if (!response.content?.['text/event-stream'])
          expect(Object.keys(response.headers ?? {}), `${where} ${status}`).toContain('X-Request-Id');
      }
    }
    expect(doc.paths['/api/data/bundle'].post.security).toEqual([{ x402: [] }, { passToken: [] }, { checkoutSession: [] }, {}]);
    expect(doc.paths['/api/v1/pass/day'].post.security).toEqual([{ x402: [] }, {}]);
    // A new agent's first claim needs no key; later ones do.
    expect(doc.paths['/api/v1/calib/record_claim'].post.security).toEqual(expect.arrayContaining([{ agentKey: [] }, {}]));
    expect(doc.paths['/api/v1/calib/record_outcome'].post.security).toEqual([{ agentKey: [] }]);
    expect(doc.paths['/api/v1/admin/keys'].get.security).toEqual([{ adminToken: [] }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining(['x402', 'passToken', 'checkoutSession', 'agentKey', 'adminToken']),
    );
    expect(doc.components.securitySchemes.x402).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Payment' });
    expect(doc.paths['/api/v1/catalog'].get.responses['429'].headers).toHaveProperty('Retry-After');
    const answer = await t.app.inject('/api/v1/catalog');
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers['ratelimit-policy']).toMatch(/^"anonymous";q=\d+;w=60$/);
    expect(doc.paths['/api/v1/catalog'].get.responses['200'].headers).toHaveProperty('RateLimit-Policy');
  });

  it('documents _receipt on every signed answer and shares Receipt, Cursor, ErrorBody, Entity, Bundle, Candle by $ref', async () => {
    for (const name of ['Receipt', 'Cursor', 'ErrorBody', 'PaymentChallenge', 'Entity', 'Bundle', 'Candle', 'Row'])
      expect(doc.components.schemas, name).toHaveProperty(name);
    const preview = doc.paths['/api/data/preview'].get.responses['200'].content['application/json'].schema;
    expect(preview.properties._receipt).toEqual({ $ref: '#/components/schemas/Receipt' });
    expect(preview.properties._cursor).toEqual({ $ref: '#/components/schemas/Cursor' });
    expect(preview.properties.preview).toEqual({ $ref: '#/components/schemas/Row' });
    expect(doc.paths['/api/v1/backtest'].get.responses['200'].content['application/json'].schema.properties.data.items).toEqual({
      $ref: '#/components/schemas/Candle',
    });
    expect(doc.paths['/api/data/bundle'].post.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Bundle',
    });
    // Every route that signs must say so in its 200 schema: probe each signed GET that needs no input.
    const text = JSON.stringify(doc.paths['/api/v1/snapshot'].get.responses['200']);
    expect(text).toContain('#/components/schemas/Receipt');
  });

  it('types every data type’s row from its normalizer output, with units and a recorded example', () => {
    for (const type of t.deps.registry.types()) {
      const row = doc.components.schemas[rowComponentName(type)];
      expect(row, type).toBeDefined();
      expect(row.required, type).toEqual(expect.arrayContaining(['source', 'as_of']));
      expect(row.example, type).toBeTypeOf('object');
    }
    expect(doc.components.schemas.Row.anyOf).toHaveLength(t.deps.registry.types().length);
    const price = doc.components.schemas.CryptoPriceRow.properties;
    expect(price.market_cap_usd).toMatchObject({ type: 'number', description: 'US dollars' });
    expect(price.change_24h_pct.description).toBe('over 24 hours, percent');
    expect(doc.components.schemas.WeatherRow.properties.temp_c.description).toBe('degrees Celsius');
    expect(doc.components.schemas.EnergyOilRow.properties.price_usd_bbl.description).toBe('US dollars per barrel');
  });

  it('describes server-sent-event routes as text/event-stream with the message schema', () => {
    const ok = doc.paths['/api/data/stream'].get.responses['200'];
    expect(Object.keys(ok.content)).toEqual(['text/event-stream']);
    expect(ok.content['text/event-stream'].schema).toEqual({ $ref: '#/components/schemas/StreamTick' });
    expect(doc.components.schemas.StreamTick.properties.type.enum).toEqual(t.deps.registry.types());
    // No route may describe a stream as JSON: streams use EventStream() from core/schemas.
    for (const { where, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(JSON.stringify(response.content?.['application/json'] ?? {}), `${where} ${status}`).not.toMatch(/event-stream/);
      }
    }
  });

  it('carries response examples recorded from demo-mode answers, current and valid against their schemas (npm run docs:examples)', async () => {
    const recorded = await recordExamples(t.app, unixSeconds(t.clock), 'http://svc.test');
    // Signatures, cursors, memos and request ids depend on the instance's key and the request; the rest must match.
    const stable = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value, (key, v) =>
          ['_receipt', '_cursor', 'request_id', 'memo', 'nonce', 'x402Memo'].includes(key) ? '<varies>' : v,
        ),
      );
    const ajv = new Ajv({ strict: false });
    for (const call of EXAMPLE_CALLS) {
      const documented = doc.paths;
      const op = Object.values(documented as Record<string, Record<string, any>>)
        .flatMap((ops) => Object.values(ops))
        .find((o) => o.operationId === call.operationId);
      const media = op.responses[String(call.status)].content['application/json'];
      expect(stable(media.example), `${call.operationId} ${call.status}: run npm run docs:examples`).toEqual(
        stable(recorded[call.operationId]![String(call.status)]),
      );
      const validate = ajv.compile(toJsonSchema(media.schema, doc));
      expect(validate(media.example), `${call.operationId} ${call.status}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('documents the type enum from the registry and the receipt signing input', () => {
    const type = doc.paths['/api/data/preview'].get.parameters.find((p: { name: string }) => p.name === 'type');
    expect(type.schema.enum).toEqual(t.deps.registry.types());
    expect(doc.info.description).toContain('JCS(receipt without sig)');
  });

  it('generates TypeScript types with openapi-typescript that type-check a typed call (and reject a wrong one)', async () => {
    writeFileSync(join(scratch, 'svc-api.ts'), astToString(await openapiTS(doc)));
    writeFileSync(
      join(scratch, 'call.ts'),
      `import type { paths, components } from './svc-api.js';
type PreviewQuery = NonNullable<paths['/api/data/preview']['get']['parameters']['query']>;
type Preview = paths['/api/data/preview']['get']['responses'][200]['content']['application/json'];
type BundleBody = paths['/api/data/bundle']['post']['requestBody']['content']['application/json'];
type Challenge = paths['/api/data/bundle']['post']['responses'][402]['content']['application/json'];

export async function preview(base: string, query: PreviewQuery): Promise<Preview> {
  const url = new URL('/api/data/preview', base);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return (await fetch(url)).json() as Promise<Preview>;
}
export async function firstPrice(base: string): Promise<number> {
  const answer = await preview(base, { type: 'crypto-price', q: 'bitcoin' });
  const sig: string = answer._receipt.sig;
  const cursor: string | undefined = answer._cursor;
  const row = answer.preview as components['schemas']['CryptoPriceRow'];
  return sig.length + (cursor?.length ?? 0) + row.price;
}
export const body: BundleBody = { queries: [{ type: 'weather', q: '40.7,-74.0' }], free: true };
export const amount = (c: Challenge): string => c.invoice.amount;
// @ts-expect-error: the type enum comes from the registry
export const wrong: PreviewQuery = { type: 'not-a-type' };
`,
    );
    const program = ts.createProgram([join(scratch, 'call.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      typeRoots: [join(REPO, 'node_modules/@types')],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  }, 60_000);

  it('serves /docs so Try-it-out calls the origin the page came from, under a CSP that allows it', async () => {
    const res = await t.app.inject('/docs');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
    const spec = (await t.app.inject('/docs/json')).json();
    expect(spec.servers[0].url).toBe('/');
    const csp = String(
      (await t.app.inject('/docs/static/index.html')).headers['content-security-policy'] ??
        (await t.app.inject('/docs/')).headers['content-security-policy'],
    );
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect((await t.app.inject('/docs/static/swagger-initializer.js')).statusCode).toBe(200);
  });
});
