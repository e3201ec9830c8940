/** A malformed or unverifiable log artefact (note, checkpoint, proof, tile): the message says which and why. */
export class TlogError extends Error {
  override readonly name = 'TlogError';
}
