import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * The signing secrets of webhook endpoints: `whsec_` and 32 random bytes in base64, as the Standard
 * Webhooks specification writes them. The receiver needs the secret itself to check a signature, so
 * it is kept sealed (AES-256-GCM, a key derived from SECRET), not hashed.
 */
export interface SecretSealer {
  seal(secret: string): string;
  open(sealed: string): string;
}

export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export function secretSealer(serverSecret: Buffer): SecretSealer {
  const key = Buffer.from(
    hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'portico/webhooks/secret/v1', 32),
  );
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open(sealed) {
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The Standard Webhooks headers for one attempt: `webhook-id` (the event's id, the same on every
 * attempt, so a receiver drops a duplicate), `webhook-timestamp` (seconds, the attempt's own: receivers
 * refuse old ones) and `webhook-signature`, one `v1,…` per secret in use (two during a rotation's
 * overlap), by the `standardwebhooks` library.
 */
export function signedHeaders(
  id: string,
  body: string,
  secrets: readonly string[],
  at = new Date(),
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
