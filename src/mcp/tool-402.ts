import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceAnswer } from './caller.js';
import { decodeBase64Json, PAYMENT_RESPONSE_META, paymentResponseOf } from './x402.js';

/**
 * The x402 `PaymentRequired` a paid tool answers unpaid, from its route's 402.
 * - v2 (the route's `PAYMENT-REQUIRED`), as the x402 MCP transport has it, with its Bazaar entry
 *   (`extensions.bazaar`) describing the tool (`input.type: "mcp"`), not the HTTP route behind it.
 * - Vercel's `x402-mcp` reads a v1 requirement (network `base`, `maxAmountRequired`) from `accepts`
 *   and pays it as `_meta["x402.payment"]`: the route's v1 requirements follow the v2 ones there (a v2
 *   client keeps only the networks it knows, `eip155:*`). v1 can say only how to call an HTTP route,
 *   so their `outputSchema` is left out.
 * A failed settlement adds its response, as the transport provides.
 */
export function toolPaymentRequired(answer: ServiceAnswer, tool: Tool): Record<string, unknown> {
  const body = (answer.body ?? {}) as { x402Version?: number; reason?: string; error?: string; accepts?: Record<string, unknown>[] };
  const v1 = (body.accepts ?? []).map(({ outputSchema: _route, ...requirement }) => requirement);
  const header = answer.headers['payment-required'];
  const v2 = header ? (decodeBase64Json(header) as V2PaymentRequired) : undefined;
  const required = v2
    ? { ...v2, accepts: [...v2.accepts, ...v1], extensions: { ...v2.extensions, bazaar: toolBazaar(tool, v2.extensions?.bazaar) } }
    : { x402Version: body.x402Version ?? 1, error: body.reason ?? body.error, accepts: v1 };
  const settlement = paymentResponseOf(answer);
  return settlement ? { ...required, [PAYMENT_RESPONSE_META]: settlement } : required;
}

interface HttpBazaar {
  info: { input: { queryParams?: Record<string, unknown>; body?: unknown }; output?: unknown };
}
interface V2PaymentRequired {
  accepts: Record<string, unknown>[];
  extensions?: { bazaar?: HttpBazaar } & Record<string, unknown>;
}

/**
 * The Bazaar entry of an MCP tool, in the shape `@x402/extensions`' `declareDiscoveryExtension`
 * gives one: the tool's name and input schema, the route's example call as the tool's arguments
 * (a tool's arguments are its route's query and body fields) and the route's example answer.
 */
function toolBazaar(tool: Tool, route: HttpBazaar | undefined) {
  const example = route?.info.input.body ?? route?.info.input.queryParams;
  const input = {
    type: 'mcp',
    toolName: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    transport: 'streamable-http',
    inputSchema: tool.inputSchema,
    ...(example && typeof example === 'object' ? { example } : {}),
  };
  return {
    info: { input, ...(route?.info.output ? { output: route.info.output } : {}) },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        input: {
          type: 'object',
          properties: {
            type: { type: 'string', const: 'mcp' },
            toolName: { type: 'string' },
            description: { type: 'string' },
            transport: { type: 'string', enum: ['streamable-http'] },
            inputSchema: { type: 'object' },
            example: { type: 'object' },
          },
          required: ['type', 'toolName', 'inputSchema'],
          additionalProperties: false,
        },
        output: { type: 'object', properties: { type: { type: 'string' }, example: {} }, required: ['type'] },
      },
      required: ['input'],
    },
  };
}
