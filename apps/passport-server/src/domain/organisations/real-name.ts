import { hkdfSync } from 'node:crypto';
import { createSealer, type Sealer } from '../tokens/seal';

/**
 * Real-name fields (identity_card, real_name) at rest: AES-256-GCM with the server's sealer
 * (domain/tokens/seal) under a key of their own, derived from the server secret with HKDF, and the
 * subject id and field name as additional data, so a sealed value copied to another row or field does
 * not open. A database dump shows neither in clear.
 */
export interface RealNameSealer {
  seal(subjectId: string, field: 'identity_card' | 'real_name', value: string): string;
  open(subjectId: string, field: 'identity_card' | 'real_name', sealed: string): string;
}

export function realNameSealer(secret: Buffer): RealNameSealer {
  const key = Buffer.from(
    hkdfSync('sha256', secret, Buffer.alloc(0), 'portico/organisations/real-name/v1', 32),
  );
  const sealer: Sealer = createSealer(key);
  return {
    seal: (subjectId, field, value) => sealer.seal(value, `${subjectId}:${field}`),
    open: (subjectId, field, sealed) => sealer.open(sealed, `${subjectId}:${field}`),
  };
}
