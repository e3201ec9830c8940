/** svc's transparency log, verified with the C2SP formats only: any log that follows them can be checked. */
export { TlogError } from './errors.js';
export {
  leafHash,
  nodeHash,
  emptyRoot,
  merkleRoot,
  hashesEqual,
  verifyInclusion,
  verifyConsistency,
  RootAccumulator,
  type Hash,
} from './merkle.js';
export {
  parseNote,
  verifyNote,
  parseVerifierKey,
  formatVerifierKey,
  noteKeyId,
  cosignatureTimestamp,
  SIGNATURE_TYPE,
  type SignedNote,
  type NoteSignature,
  type NoteVerifier,
  type VerifiedNote,
} from './note.js';
export { parseCheckpoint, verifyCheckpoint, type Checkpoint, type VerifiedCheckpoint } from './checkpoint.js';
export { tilePath, tileWidth, httpTileFetcher, parseEntryBundle, TiledTree, TILE_HEIGHT, TILE_WIDTH, type TileFetcher } from './tiles.js';
export { parseTlogProof, formatTlogProof, verifyTlogProof, type TlogProof, type VerifiedTlogProof } from './proof.js';
export { monitorLog, type MonitorOptions, type MonitorReport } from './monitor.js';
export { LogClient, type CheckpointStep } from './client.js';
