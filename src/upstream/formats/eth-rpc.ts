import Type, { type TSchema } from 'typebox';
import type { HostHttp } from '../client.js';
import { UpstreamError } from '../errors.js';

/** A JSON-RPC 2.0 answer: a result or an error object. */
export const Rpc = <T extends TSchema>(result: T) =>
  Type.Object({ id: Type.Integer(), result: Type.Optional(result), error: Type.Optional(Type.Object({ message: Type.String() })) });
export interface Rpc<T> {
  id: number;
  result?: T;
  error?: { message: string };
}

/** An `eth_getLogs` entry. */
export const Log = Type.Object({
  topics: Type.Array(Type.String()),
  data: Type.String(),
  blockNumber: Type.String(),
  logIndex: Type.String(),
  transactionHash: Type.String(),
  /** Newer nodes add the block time to each log (QuickNode documents it); others need a block lookup. */
  blockTimestamp: Type.Optional(Type.String()),
  removed: Type.Optional(Type.Boolean()),
});
export type Log = Type.Static<typeof Log>;
export const BlockHeader = Type.Object({ number: Type.String(), timestamp: Type.String() });
export type BlockHeader = Type.Static<typeof BlockHeader>;

/** The result of an answer, or the node's error as an UpstreamError. */
export function unwrap<T>(answer: Rpc<T>): T {
  if (answer.error) throw new UpstreamError('upstream_error', `eth-rpc: ${answer.error.message}`);
  if (answer.result === undefined) throw new UpstreamError('upstream_bad_response', 'eth-rpc answered without a result');
  return answer.result;
}

export const hex = (n: number): string => `0x${n.toString(16)}`;
export const rpcCall = (id: number, method: string, params: unknown[]) => ({ jsonrpc: '2.0', id, method, params });

/** POSTs one call or a batch to the node's root. */
export const rpcPost = <T>(http: HostHttp, body: unknown, schema: TSchema, deadline: number): Promise<T> =>
  http.json<T>('/', schema, { deadline, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
