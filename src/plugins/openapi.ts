import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.js';

export const API_VERSION = '6.8.0';

export const TAGS = [
  { name: 'data', description: 'Catalog, preview, bundle, stream, snapshot, backtest, gainers, viral, cams' },
  { name: 'entity', description: 'Canonical entity graph' },
  { name: 'agent-context', description: 'Goal → data fetches plus a decision recipe' },
  { name: 'receipts', description: 'Ed25519 receipts: verification and public key' },
  { name: 'payments', description: 'x402 micropayments, passes and checkout sessions' },
  { name: 'calibration', description: 'Claims, outcomes, reliability curves, agent cards' },
  { name: 'training-station', description: 'Public agent registration node' },
  { name: 'arena', description: 'Decision arena: paper trades and attestations' },
  { name: 'sessions', description: 'Live agent sessions and watch pages' },
  { name: 'protection', description: 'API keys, rate limits, abuse detection' },
  { name: 'discovery', description: 'Discovery files for crawlers and agents' },
  { name: 'ops', description: 'Health and metrics' },
];

const DESCRIPTION = `One HTTP/JSON service for many kinds of data, with one query shape (\`type\` + free-text \`q\`) and signed responses.

## Receipts
Signed responses carry \`_receipt\` = \`{v, request_hash, response_hash, as_of, issued_at, sources, issuer, kid, sig}\`. To verify offline:
1. \`response_hash\` = \`"sha256-" + base64url(SHA-256(JCS(body without _receipt)))\`, where JCS is RFC 8785 canonical JSON of the body exactly as you parsed it.
2. \`request_hash\` = \`"sha256-" + base64url(SHA-256(JCS({method, path, query, body})))\`: \`method\` upper-case, \`path\` without the query string, \`query\` an object of the query parameters (last value wins), \`body\` the JSON body or \`null\`.
3. \`sig\` = \`"ed25519-" + base64url(Ed25519(JCS(receipt without sig)))\` with the key published at \`/.well-known/svc-receipt-pubkey.json\` (SPKI and JWK; \`kid\` is its RFC 7638 thumbprint).
\`as_of\` and \`issued_at\` are Unix seconds. \`POST /api/v1/receipt/verify\` does the same server-side.

## Errors
Every 4xx/5xx body is \`{error, message, details?, request_id}\`; validation errors name the field and the rule in \`details\`.

## Licence
Data and metadata are offered under CC-BY-4.0. Attribute as: "Data via svc (CC-BY-4.0), from the upstream named in each row's \`source\`".`;

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'svc', version: API_VERSION, description: DESCRIPTION, license: { name: 'CC-BY-4.0 (data and metadata)', url: 'https://creativecommons.org/licenses/by/4.0/' } },
      servers: [{ url: config.publicUrl }],
      tags: TAGS,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true }, staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
