import { createHash, hkdfSync } from 'node:crypto';
import { createSealer, type Sealer } from '../../domain/tokens/seal';
import { PassportError } from '../../errors';
import type { Store } from '../../store/store';

/**
 * Idempotency keys on the management API's creates (docs/management-api.md): a back end that did not
 * hear the answer sends the same request again with the same `Idempotency-Key` and gets the first
 * answer, not a second account. Kept per API key in the store for 24 hours:
 * - the same key and the same body (the same call, the same JSON whatever its members' order) answer
 *   the first answer again;
 * - the same key with another body is IDEMPOTENCY_KEY_REUSED (422): a client bug, never a silent reuse;
 * - while the first request runs, IDEMPOTENCY_KEY_IN_USE (409): retry later;
 * - a refused first request keeps nothing, so the call may be sent again with the same key.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const RUNNING_TTL_MS = 10 * 60 * 1000;

interface Kept {
  fingerprint: string;
  state: 'running' | 'done';
  /** The first answer, sealed: it may hold a secret shown once (a new app's), not to lie in the store. */
  sealed?: string;
}

/** The kept answers' sealer: a key of its own (HKDF of the server secret), the store key as AAD. */
export const keptAnswersSealer = (secret: Buffer): Sealer =>
  createSealer(
    Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'portico/management/idempotency/v1', 32)),
  );

/** JSON with every object's members in order: two encodings of one body compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

export async function idempotent<T>(
  store: Store,
  sealer: Sealer,
  apiKeyId: string,
  idempotencyKey: string,
  call: string,
  body: unknown,
  run: () => Promise<T>,
): Promise<T> {
  const key = `idempotency:${apiKeyId}:${sha256(idempotencyKey)}`;
  const fingerprint = sha256(`${call}\n${canonical(body)}`);
  const running: Kept = { fingerprint, state: 'running' };
  // A create still running holds its key for minutes, not the day a finished one is kept: a server that
  // died mid-create must not refuse the key's retry for a day.
  if (!(await store.setIfAbsent(key, JSON.stringify(running), RUNNING_TTL_MS))) {
    const kept = await store.get(key);
    // Gone between the two reads (a refused first request let it go): this one is the first now.
    if (kept === null) return idempotent(store, sealer, apiKeyId, idempotencyKey, call, body, run);
    const { fingerprint: first, state, sealed } = JSON.parse(kept) as Kept;
    if (first !== fingerprint) throw new PassportError('idempotencyKeyReused');
    if (state === 'running' || sealed === undefined) throw new PassportError('idempotencyKeyInUse');
    return JSON.parse(sealer.open(sealed, key)) as T;
  }
  let answer: T;
  try {
    answer = await run();
  } catch (error) {
    await store.delete(key);
    throw error;
  }
  const done: Kept = { fingerprint, state: 'done', sealed: sealer.seal(JSON.stringify(answer), key) };
  await store.set(key, JSON.stringify(done), IDEMPOTENCY_TTL_MS);
  return answer;
}
