import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { PassportError } from '../../errors';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto';
import type { QrPlace, QrStatus } from '../../protocol';

/**
 * QR sign-in codes (docs/qr-login.md), kept in the store (database or Redis): a code lives at most
 * 120 s, is read by one browser's polls and written by one phone, and needs no query but "by token" —
 * what the store is for, on every backend, with its atomic `setIfAbsent` (one winner of a race) and
 * key expiry. No table, no migration.
 *
 * One code is a handful of keys under `qr:<SHA-256 of the token>`, each written once:
 * - the code itself (the creating browser's binding, what to show the phone, the expiry);
 * - `:scan`, set by the first signed-in session that scans (the number and the three choices);
 * - `:decision`, set once: confirmed by that session (the account), or cancelled;
 * - `:consumed`, set once by the redemption that creates the session.
 * Because each key is set only when absent, the state only moves forward: new → scanned → confirmed →
 * consumed, or → cancelled; and past `expires_at` a code not yet consumed is expired. Every key
 * outlives the code by ten minutes so that a replay is told "used" or "expired", not "unknown".
 */

/** How long the keys stay after the code's expiry, so late callers get a precise answer. */
const AFTERLIFE_MS = 10 * 60_000;

export interface QrCode {
  /** SHA-256 of the creating browser's binding cookie. */
  binding: string;
  createdAt: number;
  expiresAt: number;
  /** "Chrome on macOS". */
  browser: string;
  place: QrPlace;
  /** Where the browser goes once signed in (already checked by the redirect rule). */
  next: string;
}

export interface QrScan {
  userId: string;
  /** The id (token hash) of the session that scanned: only it may decide. */
  sessionId: string;
  number: number;
  choices: number[];
  at: number;
}

export interface QrDecision {
  status: 'confirmed' | 'cancelled';
  userId: string;
  reason?: 'phone' | 'wrong_number';
  /**
   * A confirmation: when the person last proved it is them (ms; null: never), the scanning session's
   * time, or the confirmation's own after the two-step's code. The new session keeps it.
   */
  verifiedAt?: number | null;
}

export interface QrState {
  code: QrCode;
  scan: QrScan | null;
  decision: QrDecision | null;
  consumed: boolean;
  status: QrStatus;
}

const keyOf = (token: string) => `qr:${sha256(token)}`;

/** A token is 32 random bytes in base64url (256 bits, above the 128 the security table asks). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const isQrToken = (token: unknown): token is string =>
  typeof token === 'string' && TOKEN_PATTERN.test(token);

function parse<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** Three distinct two-digit numbers in random order, one of them `number`. */
function choicesFor(number: number): number[] {
  const choices = new Set([number]);
  while (choices.size < 3) choices.add(randomInt(10, 100));
  const out = [...choices];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = randomInt(0, i + 1);
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

export function createQrCodes(app: FastifyInstance) {
  const { store, runtime } = app;
  const ttlOf = (code: QrCode) => Math.max(1, code.expiresAt + AFTERLIFE_MS - runtime.now());

  /** The code's whole state, or null when the token is unknown (never issued, or long gone). */
  async function load(token: string): Promise<QrState | null> {
    if (!isQrToken(token)) return null;
    const key = keyOf(token);
    const [codeText, scanText, decisionText, consumedText] = await Promise.all([
      store.get(key),
      store.get(`${key}:scan`),
      store.get(`${key}:decision`),
      store.get(`${key}:consumed`),
    ]);
    const code = parse<QrCode>(codeText);
    if (!code) return null;
    const scan = parse<QrScan>(scanText);
    const decision = parse<QrDecision>(decisionText);
    const consumed = consumedText !== null;
    const expired = code.expiresAt <= runtime.now();
    const status: QrStatus = consumed
      ? 'consumed'
      : decision?.status === 'cancelled'
        ? 'cancelled'
        : expired
          ? 'expired'
          : decision
            ? 'confirmed'
            : scan
              ? 'scanned'
              : 'new';
    return { code, scan, decision, consumed, status };
  }

  return {
    load,

    /** A new code for a browser; answers the token. */
    async create(input: { binding: string; browser: string; place: QrPlace; next: string }) {
      const token = randomToken(32);
      const now = runtime.now();
      const code: QrCode = { ...input, createdAt: now, expiresAt: now + runtime.limits.qrTtlMs };
      await store.set(keyOf(token), JSON.stringify(code), ttlOf(code));
      return { token, code };
    },

    /** Marks the code scanned by a session (idempotent for that session); answers the scan. */
    async scan(token: string, state: QrState, by: { userId: string; sessionId: string }): Promise<QrScan> {
      const number = randomInt(10, 100);
      const scan: QrScan = { ...by, number, choices: choicesFor(number), at: runtime.now() };
      const won = await store.setIfAbsent(`${keyOf(token)}:scan`, JSON.stringify(scan), ttlOf(state.code));
      if (won) return scan;
      const existing = parse<QrScan>(await store.get(`${keyOf(token)}:scan`));
      if (!existing || !safeEqual(existing.sessionId, by.sessionId))
        throw new PassportError('qrAlreadyScanned');
      return existing;
    },

    /** Records the one decision; false when another was recorded first. */
    async decide(token: string, state: QrState, decision: QrDecision): Promise<boolean> {
      return store.setIfAbsent(`${keyOf(token)}:decision`, JSON.stringify(decision), ttlOf(state.code));
    },

    /** Spends a confirmed code: of concurrent redemptions exactly one gets true. */
    async consume(token: string, state: QrState): Promise<boolean> {
      return store.setIfAbsent(`${keyOf(token)}:consumed`, '1', ttlOf(state.code));
    },

    /** A two-step ticket for a scan: its holder may decide the code once the second factor is shown. */
    async issueTicket(token: string, state: QrState, sessionId: string): Promise<string> {
      const ticket = randomToken(32);
      await store.set(
        `qr:ticket:${sha256(ticket)}`,
        JSON.stringify({ token, sessionId }),
        Math.max(1, state.code.expiresAt - runtime.now()),
      );
      return ticket;
    },

    /** The code a ticket was issued for, when the ticket is live and this session holds it. */
    async ticket(ticket: string, sessionId: string): Promise<string> {
      if (!isQrToken(ticket)) throw new PassportError('ticketInvalid');
      const held = parse<{ token: string; sessionId: string }>(
        await store.get(`qr:ticket:${sha256(ticket)}`),
      );
      if (!held || !safeEqual(held.sessionId, sessionId)) throw new PassportError('ticketInvalid');
      return held.token;
    },

    async dropTicket(ticket: string): Promise<void> {
      await store.delete(`qr:ticket:${sha256(ticket)}`);
    },
  };
}

export type QrCodes = ReturnType<typeof createQrCodes>;

const services = new WeakMap<FastifyInstance, QrCodes>();

/** The QR codes service of a server instance (made on first use; it holds no state of its own). */
export function qrCodesOf(app: FastifyInstance): QrCodes {
  let service = services.get(app);
  if (!service) {
    service = createQrCodes(app);
    services.set(app, service);
  }
  return service;
}
