import type { Operation } from '../core/openapi-doc.js';
import { compact, toJsonSchema, type JsonSchema, type OpenApiDoc } from './schema.js';

/** What structuredContent holds next to the answer: where long strings were cut, and which page this is. */
const TRUNCATED: JsonSchema = {
  type: 'object',
  description:
    'Present when long strings were cut to keep the result small; the receipt covers the full answer (fetch it over HTTP to verify)',
};
const PAGE: JsonSchema = {
  type: 'object',
  description:
    'Present when the answer came in pages to fit the token budget: page, pages, cut {path, from, to, total} and next (a cursor for next_page) ' +
    'until the last page; the receipt covers the whole answer (fetch it over HTTP to verify)',
};
const ERROR_BODY: JsonSchema = {
  type: 'object',
  description: 'The error body: error code, message and details',
  required: ['error', 'message'],
  properties: { error: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
};
const PAYMENT_REQUIRED: JsonSchema = {
  type: 'object',
  description: 'x402 PaymentRequired: pay one of accepts and call again with the payment in _meta["x402/payment"]',
  required: ['x402Version', 'accepts'],
  properties: { x402Version: { type: 'integer' }, error: { type: 'string' }, resource: { type: 'object' }, accepts: { type: 'array' } },
};

/** The answer, the error body or (paid tools) the x402 PaymentRequired: structuredContent is always one of them. */
export function outputSchema(op: Operation, doc: OpenApiDoc, paid: boolean): JsonSchema {
  const ok = toJsonSchema(op.responses['200']?.content?.['application/json']?.schema ?? {}, doc);
  return {
    type: 'object',
    properties: { _truncated: TRUNCATED, _page: PAGE },
    anyOf: [ok, ERROR_BODY, ...(paid ? [PAYMENT_REQUIRED] : [])],
  };
}

/**
 * The output schema in tools/list: the answer's top-level fields and their types (rows, receipts and
 * nested objects in full are in svc://tools/{name} and svc://types/{type}); the error body and the
 * PaymentRequired by their required fields.
 */
export function outputOutline(full: JsonSchema): JsonSchema {
  const [ok, ...alternatives] = full.anyOf!;
  const outline = compact(ok!, 1, false);
  for (const field of Object.values(outline.properties ?? {})) delete field.enum;
  return { type: 'object', anyOf: [outline, ...alternatives.map((a) => ({ required: a.required }))] };
}
