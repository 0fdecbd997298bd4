import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PassportError } from '../../errors';
import { hmac, randomToken, sha256 } from '../../lib/crypto';
import { LIMITS } from '../../protocol';

/** How long a `sms_code_key` lives: one code's lifetime (10 minutes). */
export const SECOND_VERIFY_TTL_MS = 10 * 60_000;

/** The pending sign-in behind a `sms_code_key`, kept in the store under SHA-256 of the key. */
export interface PendingSignIn {
  userId: string;
  /** E.164: where the code goes. The client sees only the mask. */
  mobile: string;
  /**
   * The account's e-mail when an e-mail code may answer (a verified e-mail, and a sign-in not itself
   * proven by an e-mail code); '' otherwise. The client sees only the mask.
   */
  email?: string;
  /** SHA-256 of the device (fingerprint + did) the sign-in came from; '' when it sent none. */
  device: string;
  /** HMAC of the browser's pre-session (or session) id: the key works only in the browser that got it. */
  holder: string;
  expiresAt: number;
  /** The organisation the sign-in lands in once verified (a third-party redirect's `subject_aid`). */
  subject?: string;
}

const storeKey = (smsCodeKey: string) => `sv:${sha256(smsCodeKey)}`;

/** The browser a request comes from: its session or pre-session id (the CSRF binding), keyed. */
function holderOf(app: FastifyInstance, request: FastifyRequest): string {
  if (request.session) return hmac(app.secret, `sv|s|${request.session.id}`);
  if (request.preSessionId) return hmac(app.secret, `sv|p|${request.preSessionId}`);
  return '';
}

/** Stores a pending sign-in of this device and browser; answers its fresh `sms_code_key`. */
export async function savePendingSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: string,
  mobile: string,
  email = '',
  subject?: string,
): Promise<string> {
  const key = randomToken(32);
  const pending: PendingSignIn = {
    userId,
    mobile,
    email,
    device: app.devices.keyOf(request) ?? '',
    holder: holderOf(app, request),
    expiresAt: app.runtime.now() + SECOND_VERIFY_TTL_MS,
    ...(subject === undefined ? {} : { subject }),
  };
  await app.store.set(storeKey(key), JSON.stringify(pending), SECOND_VERIFY_TTL_MS);
  return key;
}

/** The live pending sign-in of a key, when this request comes from its device and browser. */
export async function pendingSignIn(app: FastifyInstance, request: FastifyRequest, smsCodeKey: string) {
  if (!smsCodeKey || smsCodeKey.length > LIMITS.smsCodeKeyMaxLength) throw new PassportError('ticketInvalid');
  let pending: PendingSignIn | null = null;
  try {
    pending = JSON.parse((await app.store.get(storeKey(smsCodeKey))) ?? 'null') as PendingSignIn | null;
  } catch {}
  if (
    !pending ||
    pending.expiresAt <= app.runtime.now() ||
    pending.device !== (app.devices.keyOf(request) ?? '') ||
    pending.holder !== holderOf(app, request)
  ) {
    throw new PassportError('ticketInvalid');
  }
  return pending;
}

/** Spends a key: of concurrent continuations exactly one gets true. */
export async function takePendingSignIn(app: FastifyInstance, smsCodeKey: string): Promise<boolean> {
  return (await app.store.take(storeKey(smsCodeKey))) !== null;
}
