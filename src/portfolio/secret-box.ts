import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets svc must use again (Plaid access tokens). A sealed value is
 * `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url), bound to its owner through the additional
 * authenticated data, so a value copied to another user's row does not open. Rotation: the first
 * key seals, every key opens (the key id picks it); values sealed with a former key are re-sealed
 * the next time they are used.
 */
const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

export class SecretBox {
  private readonly byId: Map<string, Buffer>;

  constructor(private readonly keys: Buffer[]) {
    if (keys.length === 0) throw new Error('SecretBox needs at least one key');
    this.byId = new Map(keys.map((k) => [keyId(k), k]));
  }

  seal(plaintext: string, owner: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0]!, iv).setAAD(Buffer.from(owner));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      keyId(this.keys[0]!),
      iv.toString('base64url'),
      ciphertext.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  /** Throws when the key is unknown or the value was tampered with or belongs to another owner. */
  open(sealed: string, owner: string): string {
    const [version, kid, iv, ciphertext, tag] = sealed.split('.');
    const key = kid ? this.byId.get(kid) : undefined;
    if (version !== 'v1' || !key || !iv || !ciphertext || !tag) throw new Error('sealed value has an unknown format or key');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      .setAAD(Buffer.from(owner))
      .setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether the value was sealed with a former key. */
  stale(sealed: string): boolean {
    return sealed.split('.')[1] !== keyId(this.keys[0]!);
  }
}
