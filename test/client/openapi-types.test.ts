import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CLIENT_TYPES_FILE, clientTypes, freshOpenApiDocument } from '../../scripts/client-openapi.js';

describe('@svc-data/client route types', () => {
  it('match what openapi-typescript generates from a freshly built app (else run `npm run -w @svc-data/client gen`)', async () => {
    const generated = await clientTypes(await freshOpenApiDocument());
    expect(generated).toContain('"/api/data/bundle": {');
    expect(
      readFileSync(CLIENT_TYPES_FILE, 'utf8') === generated,
      'packages/client/src/openapi.d.ts is stale: run `npm run -w @svc-data/client gen`',
    ).toBe(true);
  });
});
