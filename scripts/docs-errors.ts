/**
 * Regenerates the error tables of docs/api.md from the error codes (src/core/errors.ts) and the failure reasons
 * (src/upstream/errors.ts), so the documentation cannot drift: `npm run docs:errors`. A test fails when it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { errorCodeTable, failureReasonTable } from '../src/plugins/openapi-info.js';

export const API_DOC = new URL('../docs/api.md', import.meta.url);

const between = (text: string, name: string, table: string) =>
  text.replace(new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`), `$1\n${table}\n$2`);

/** The document with both tables replaced between their `<!-- …:start -->` / `<!-- …:end -->` markers. */
export const renderErrorTables = (text: string): string =>
  between(between(text, 'error-codes', errorCodeTable()), 'failure-reasons', failureReasonTable());

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(API_DOC, renderErrorTables(readFileSync(API_DOC, 'utf8')));
}
