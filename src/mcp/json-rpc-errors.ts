import Type from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FreeObject } from '../core/schemas.js';

/** A transport-level refusal in the MCP format: JSON-RPC 2.0 error object, the house error code and details kept in `data`. */
export const JsonRpcErrorSchema = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    error: Type.Object({
      code: Type.Integer({
        description: '-32700 unparsable JSON, -32600 invalid request, -32602 invalid params, -32000 other transport errors',
      }),
      message: Type.String(),
      data: Type.Optional(FreeObject('`{error, details?, request_id}`: the house error code, its details and the request id')),
    }),
  },
  { title: 'JsonRpcError', description: 'JSON-RPC 2.0 error response: how /mcp answers a request it refuses' },
);

const jsonRpcCode = (status: number, error: string) =>
  error === 'invalid_json' ? -32700 : error === 'validation_failed' ? -32600 : status === 400 ? -32602 : -32000;

/**
 * The house error body of a refused /mcp request (framework, protection or the checks below) rewritten
 * as a JSON-RPC error with the same status, keeping the house fields in `data`. Runs before
 * serialization, so the JSON-RPC error schema of the 4xx responses is what gets serialized.
 */
function asJsonRpcError(request: FastifyRequest, status: number, payload: unknown): unknown {
  const body = payload as { error?: unknown; message?: unknown; jsonrpc?: unknown } | null;
  if (status < 400 || !body || typeof body !== 'object' || body.jsonrpc || typeof body.error !== 'string') return payload;
  const { error, message, ...rest } = body;
  const id = (request.body as { id?: unknown } | undefined)?.id;
  return {
    jsonrpc: '2.0',
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: { code: jsonRpcCode(status, error), message: String(message), data: { error, ...rest } },
  };
}

/** The preSerialization hook of /mcp: refusals leave as JSON-RPC errors. */
export const jsonRpcErrors = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (e: null, p: unknown) => void) =>
  done(null, asJsonRpcError(request, reply.statusCode, payload));
