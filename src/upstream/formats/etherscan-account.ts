import Type from 'typebox';

/** Etherscan V2 account module, `tokentx` items: ERC-20 transfers, amounts as integer text in the token's smallest unit. */
export const TokenTx = Type.Object({
  timeStamp: Type.String(),
  hash: Type.String(),
  from: Type.String(),
  to: Type.String(),
  contractAddress: Type.String(),
  value: Type.String(),
  tokenSymbol: Type.String(),
  tokenDecimal: Type.String(),
});
export type TokenTx = Type.Static<typeof TokenTx>;

/** `txlist` items: `value` in wei; `isError` "1" marks a reverted transaction that moved nothing. */
export const NativeTx = Type.Object({
  timeStamp: Type.String(),
  hash: Type.String(),
  from: Type.String(),
  to: Type.String(),
  value: Type.String(),
  isError: Type.String(),
});
export type NativeTx = Type.Static<typeof NativeTx>;

/** Logs module, `getLogs` items (the block time as decimal Unix seconds). */
export const ScanLog = Type.Object({
  topics: Type.Array(Type.String()),
  data: Type.String(),
  blockNumber: Type.String(),
  logIndex: Type.String(),
  transactionHash: Type.String(),
  timeStamp: Type.String(),
});
export type ScanLog = Type.Static<typeof ScanLog>;

/** Block module, `getblocknobytime`: the block number as text in `result` (or the reason when status is "0"). */
export const BlockByTime = Type.Object({ status: Type.String(), message: Type.String(), result: Type.String() });
export type BlockByTime = Type.Static<typeof BlockByTime>;
