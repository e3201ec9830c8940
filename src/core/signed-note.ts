import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * c2sp.org/signed-note with Ed25519 (signature type 0x01), c2sp.org/tlog-checkpoint bodies, and the witnesses'
 * c2sp.org/tlog-cosignature (type 0x04) lines svc keeps and serves.
 */
export const SIG_ED25519 = 0x01;
export const SIG_COSIGNATURE_ED25519 = 0x04;

/** The 32-byte RFC 8032 encoding of an Ed25519 public key. */
export const rawPublicKey = (key: KeyObject): Buffer =>
  Buffer.from((createPublicKey(key).export({ format: 'jwk' }) as { x: string }).x, 'base64url');

/** `SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4]`: the key id signature lines carry. */
export const noteKeyId = (name: string, type: number, publicKey: Buffer): Buffer =>
  createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.from([type]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);

/** An Ed25519 key that signs notes under `name` (for svc: the log's origin). */
export interface NoteSigner {
  name: string;
  privateKey: KeyObject;
  publicKey: Buffer;
  keyId: Buffer;
}

export function noteSigner(name: string, privateKey: KeyObject): NoteSigner {
  if (!name || /[\s+]/u.test(name)) throw new Error(`note key name ${JSON.stringify(name)}: must be non-empty, without spaces or '+'`);
  const publicKey = rawPublicKey(privateKey);
  return { name, privateKey, publicKey, keyId: noteKeyId(name, SIG_ED25519, publicKey) };
}

/** The verifier key (vkey): `<name>+<hex key id>+<base64(0x01 ‖ public key)>`. */
export const verifierKey = (signer: NoteSigner): string =>
  `${signer.name}+${signer.keyId.toString('hex')}+${Buffer.concat([Buffer.from([SIG_ED25519]), signer.publicKey]).toString('base64')}`;

/** A signature line for `text` (which ends in a newline), without its own newline. */
export function signatureLine(signer: NoteSigner, text: string): string {
  const signature = sign(null, Buffer.from(text), signer.privateKey);
  return `— ${signer.name} ${Buffer.concat([signer.keyId, signature]).toString('base64')}`;
}

/** The whole signed note: text, blank line, signature lines. */
export const signNote = (signer: NoteSigner, text: string): string => `${text}\n${signatureLine(signer, text)}\n`;

/** c2sp.org/tlog-checkpoint body: origin, size, base64 root hash, each on its own line. */
export const checkpointBody = (origin: string, size: number, root: Buffer): string => `${origin}\n${size}\n${root.toString('base64')}\n`;

export interface ParsedSignature {
  name: string;
  keyId: Buffer;
  signature: Buffer;
  line: string;
}

/** Splits a note at its last blank line into its text and signature lines; undefined when it is not a signed note. */
export function parseNote(note: string): { text: string; signatures: ParsedSignature[] } | undefined {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return undefined;
  const lines = note.slice(split + 2, -1).split('\n');
  const signatures = lines.map(parseSignatureLine);
  if (signatures.some((s) => s === undefined)) return undefined;
  return { text: note.slice(0, split + 1), signatures: signatures as ParsedSignature[] };
}

export function parseSignatureLine(line: string): ParsedSignature | undefined {
  const match = /^— (\S+) ([A-Za-z0-9+/]+={0,2})$/u.exec(line);
  if (!match) return undefined;
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length < 5) return undefined;
  return { name: match[1]!, keyId: bytes.subarray(0, 4), signature: bytes.subarray(4), line };
}

/** A witness's Ed25519 cosigning key, parsed from its vkey `<name>+<hex id>+<base64(0x04 ‖ key)>`. */
export interface CosignerKey {
  name: string;
  keyId: Buffer;
  publicKey: KeyObject;
  vkey: string;
}

export function parseCosignerKey(vkey: string): CosignerKey {
  // base64 has '+' of its own: the name and the key id end at the first two.
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(vkey);
  const bytes = Buffer.from(match?.[3] ?? '', 'base64');
  if (!match || bytes.length !== 33 || bytes[0] !== SIG_COSIGNATURE_ED25519)
    throw new Error(`witness key ${JSON.stringify(vkey)}: expected <name>+<8 hex key id>+<base64 of 0x04 and a 32-byte Ed25519 key>`);
  const [, name, hexId] = match as unknown as [string, string, string];
  const raw = bytes.subarray(1);
  if (!noteKeyId(name, SIG_COSIGNATURE_ED25519, raw).equals(Buffer.from(hexId, 'hex')))
    throw new Error(`witness key ${JSON.stringify(vkey)}: the key id does not match the name and key`);
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  return { name, keyId: Buffer.from(hexId, 'hex'), publicKey, vkey };
}

/** Whether `line` is a valid tlog-cosignature/v1 by `key` on the checkpoint `body`. */
export function verifyCosignature(key: CosignerKey, body: string, line: string): boolean {
  const parsed = parseSignatureLine(line);
  if (!parsed || parsed.name !== key.name || !parsed.keyId.equals(key.keyId) || parsed.signature.length !== 8 + 64) return false;
  const timestamp = parsed.signature.readBigUInt64BE(0);
  const message = `cosignature/v1\ntime ${timestamp}\n${body}`;
  return verify(null, Buffer.from(message), key.publicKey, parsed.signature.subarray(8));
}

/** An Ed25519 private key from its 32-byte RFC 8032 seed. */
export const privateKeyFromSeed = (seed: Buffer): KeyObject =>
  createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
