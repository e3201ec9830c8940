import { base64Decode, base64Encode, utf8Encode } from '../bytes.js';
import { TlogError } from './errors.js';

/**
 * c2sp.org/signed-note: a text ending in a newline, a blank line, then signature lines
 * `— <key name> base64(key ID ‖ signature)`. Verification follows the spec's rule that matters most
 * in practice: signatures from unknown keys are ignored (a checkpoint cosigned by witnesses still
 * verifies with only the log's key), a known key whose signature fails rejects the whole note, and a
 * note with no verified known signature is rejected.
 */

export interface NoteSignature {
  name: string;
  /** uint32, big-endian in the encoding. */
  keyId: number;
  /** The signature bytes after the 4-byte key ID. */
  signature: Uint8Array;
}

export interface SignedNote {
  /** The signed text, final newline included. */
  text: string;
  signatures: NoteSignature[];
}

/** A key a note may be verified with: name and key ID identify it, `verify` checks one signature. */
export interface NoteVerifier {
  name: string;
  keyId: number;
  /** 0x01 Ed25519 note signature, 0x04 Ed25519 timestamped cosignature (c2sp.org/tlog-cosignature). */
  type: number;
  verify(text: string, signature: Uint8Array): Promise<boolean>;
}

export const SIGNATURE_TYPE = { ed25519: 0x01, cosignatureV1: 0x04 } as const;

/** Signed-note asks verifiers to accept at least 16 signatures and to bound them: this is the bound. */
const MAX_SIGNATURES = 100;
const SIGNATURE_LINE = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/u;
/** Base64 may itself hold `+`: the name and the ID are what come before the second one. */
const VERIFIER_KEY = /^([^\s+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/u;

export function parseNote(note: string): SignedNote {
  if ([...note].some((char) => char < ' ' && char !== '\n')) throw new TlogError('note: control characters other than newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new TlogError('note: no blank line before the signatures, or no final newline');
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) throw new TlogError(`note: more than ${MAX_SIGNATURES} signatures`);
  const signatures = lines.map((line) => {
    const match = SIGNATURE_LINE.exec(line);
    if (!match) throw new TlogError(`note: malformed signature line ${JSON.stringify(line)}`);
    const bytes = base64Decode(match[2]!);
    if (bytes.length < 5) throw new TlogError(`note: signature by ${match[1]} is too short`);
    return { name: match[1]!, keyId: new DataView(bytes.buffer).getUint32(0), signature: bytes.slice(4) };
  });
  return { text: note.slice(0, split + 1), signatures };
}

/** The note's text once at least one known key verified it; the keys that did, in signature order. */
export interface VerifiedNote {
  text: string;
  verifiedBy: NoteVerifier[];
}

export async function verifyNote(note: string | SignedNote, verifiers: readonly NoteVerifier[]): Promise<VerifiedNote> {
  const parsed = typeof note === 'string' ? parseNote(note) : note;
  const verifiedBy: NoteVerifier[] = [];
  for (const signature of parsed.signatures) {
    const key = verifiers.find((v) => v.name === signature.name && v.keyId === signature.keyId);
    if (!key) continue;
    if (!(await key.verify(parsed.text, signature.signature)))
      throw new TlogError(`note: the signature by known key ${key.name}+${hex(key.keyId)} does not verify`);
    if (!verifiedBy.includes(key)) verifiedBy.push(key);
  }
  if (verifiedBy.length === 0) throw new TlogError('note: no signature from a known key');
  return { text: parsed.text, verifiedBy };
}

const hex = (keyId: number): string => keyId.toString(16).padStart(8, '0');

/** SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4] as a uint32. */
export async function noteKeyId(name: string, type: number, publicKey: Uint8Array): Promise<number> {
  const prefix = utf8Encode(`${name}\n`);
  const input = new Uint8Array([...prefix, type, ...publicKey]);
  return new DataView(await crypto.subtle.digest('SHA-256', input)).getUint32(0);
}

async function ed25519Verifier(
  publicKey: Uint8Array<ArrayBuffer>,
): Promise<(message: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>) => Promise<boolean>> {
  const key = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  return (message, signature) =>
    signature.length === 64 ? crypto.subtle.verify({ name: 'Ed25519' }, key, signature, message) : Promise.resolve(false);
}

/** tlog-cosignature: 8-byte big-endian timestamp ‖ Ed25519 over "cosignature/v1\ntime <t>\n" ‖ note text. */
export function cosignatureTimestamp(signature: Uint8Array): number {
  if (signature.length !== 72) throw new TlogError('cosignature: not 8 + 64 bytes');
  return Number(new DataView(signature.buffer, signature.byteOffset).getBigUint64(0));
}

/** Parses a verifier key `<name>+<hex key ID>+base64(type ‖ public key)` of type 0x01 or 0x04 (Ed25519). */
export async function parseVerifierKey(vkey: string): Promise<NoteVerifier> {
  const match = VERIFIER_KEY.exec(vkey.trim());
  if (!match) throw new TlogError(`verifier key: expected <name>+<8 hex>+<base64>, got ${JSON.stringify(vkey)}`);
  const [, name = '', id = '', material = ''] = match;
  const bytes = base64Decode(material);
  const type = bytes[0] ?? -1;
  const publicKey = bytes.slice(1);
  if (![SIGNATURE_TYPE.ed25519, SIGNATURE_TYPE.cosignatureV1].includes(type as 1 | 4) || publicKey.length !== 32)
    throw new TlogError(`verifier key ${name}: only Ed25519 keys (type 0x01 or 0x04, 32 bytes) are supported`);
  const keyId = await noteKeyId(name, type, publicKey);
  if (hex(keyId) !== id) throw new TlogError(`verifier key ${name}: key ID ${id} does not match the key (${hex(keyId)})`);
  const ed25519 = await ed25519Verifier(publicKey);
  const verify =
    type === SIGNATURE_TYPE.ed25519
      ? (text: string, signature: Uint8Array) => ed25519(utf8Encode(text), signature.slice())
      : (text: string, signature: Uint8Array) =>
          signature.length === 72
            ? ed25519(utf8Encode(`cosignature/v1\ntime ${cosignatureTimestamp(signature)}\n${text}`), signature.slice(8))
            : Promise.resolve(false);
  return { name, keyId, type, verify };
}

/** The vkey text of an Ed25519 public key: what /log/key publishes. */
export async function formatVerifierKey(name: string, type: number, publicKey: Uint8Array): Promise<string> {
  return `${name}+${hex(await noteKeyId(name, type, publicKey))}+${base64Encode(Uint8Array.of(type, ...publicKey))}`;
}
