import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM encryption at rest for private signing keys. The key is derived from the server secret
 * with HKDF-SHA256 (its own `info`, so it never equals a key used for CSRF or code hashes), the IV is
 * random per seal, and the row's kid is the additional data: a sealed key copied onto another row
 * does not open. Format: `v1.<iv>.<ciphertext>.<tag>`, each base64url.
 */
export interface Sealer {
  seal(plaintext: string, context: string): string;
  /** Throws when the secret differs or the value was altered. */
  open(sealed: string, context: string): string;
}

const INFO = 'portico/signing-keys/seal/v1';

export function createSealer(secret: Buffer): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), INFO, 32));
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url'));
      return `v1.${parts.join('.')}`;
    },
    open(sealed, context) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || !body || !tag) throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
