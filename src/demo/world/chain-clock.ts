/** Ethereum's clock in the demo world: a block every 12 s since the Merge (block 15,537,394 at 1663224179). */
const MERGE_BLOCK = 15_537_394;
const MERGE_S = 1_663_224_179;
export const BLOCK_S = 12;

export const blockAt = (unixS: number): number => MERGE_BLOCK + Math.floor((unixS - MERGE_S) / BLOCK_S);
export const blockTime = (block: number): number => MERGE_S + (block - MERGE_BLOCK) * BLOCK_S;
export const hexOf = (n: number): string => `0x${n.toString(16)}`;
