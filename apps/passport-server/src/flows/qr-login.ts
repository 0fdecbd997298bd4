import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../adapters/invoke';
import type { User } from '../db/schema';
import { qrConfirmLaneOf } from '../domain/codes/codes';
import { userAgentSummary } from '../domain/devices/devices';
import { chargeQrPoll } from '../domain/limits/request-rates';
import { placeOf } from '../domain/qr/place';
import { isQrToken, type QrState, qrCodesOf } from '../domain/qr/qr-codes';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { randomToken, safeEqual, sha256 } from '../lib/crypto';
import { mask } from '../lib/identifiers';
import { rateLimitKey } from '../lib/ip';
import { languageOf } from '../lib/language';
import { safeRedirect } from '../lib/redirect';
import { HOUR } from '../limits';
import {
  CodeType,
  type QrcodeData,
  type QrDecisionData,
  type QrScanData,
  type QrStatusData,
  type QrVerifyScanData,
} from '../protocol';
import { admitSignIn, answerSignIn } from './complete-sign-in';

/**
 * QR sign-in (docs/qr-login.md; spec §1, §4, §7; SECURITY.md "QR login").
 *
 * 1. The browser that wants a session asks `get_qrcode`: it gets a token (256 bits, 120 s) and an
 *    HttpOnly cookie that binds it to the code. Only a request with that cookie can poll the code or
 *    redeem it, so a phishing page that relays our QR code never gets the session.
 * 2. A signed-in phone `scan_qrcode`s: the first session to scan owns the code. It is shown what asks
 *    (browser, approximate place, time) and three two-digit numbers; the browser now shows one of them.
 * 3. The phone `confirm_qrcode`s with the number the person picked: the right one confirms, a wrong
 *    one cancels the code (a relaying page cannot show the right number without our page). Or it
 *    cancels. Only the session that scanned may decide, once.
 * 4. The browser's poll (`check_qrconnect`, read-only) sees `confirmed`; it redeems the code with
 *    `web_login` (POST, CSRF-checked). Of concurrent redemptions exactly one creates a session.
 * The two-step variant (`qrcode/scan_qrcode`, `qrcode/confirm_by_ticket`) is the same with an SMS code
 * to the account's mobile in between, for a phone the account does not trust as a second factor.
 */

/** The binding cookie of the browser that asked for a code. */
function bindingCookie(app: FastifyInstance) {
  const secure = app.config.publicOrigin.startsWith('https:');
  return {
    name: secure ? '__Host-passport_qr' : 'passport_qr',
    options: { httpOnly: true, sameSite: 'lax' as const, path: '/', secure, maxAge: 24 * 3600 },
  };
}

const BINDING_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function bindingOf(app: FastifyInstance, request: FastifyRequest): string | null {
  const value = request.cookies?.[bindingCookie(app).name];
  return value && BINDING_PATTERN.test(value) ? value : null;
}

/** The code a request names, or QR_EXPIRED (a token never issued, malformed or long gone is expired). */
async function stateOf(app: FastifyInstance, token: string): Promise<QrState> {
  const state = await qrCodesOf(app).load(token);
  if (!state) throw new PassportError('qrExpired');
  return state;
}

/** The creating browser's view of its code; any other browser is refused before learning anything. */
async function ownState(app: FastifyInstance, request: FastifyRequest, token: string): Promise<QrState> {
  if (!isQrToken(token)) throw new PassportError('qrExpired');
  const state = await stateOf(app, token);
  const binding = bindingOf(app, request);
  if (!binding || !safeEqual(sha256(binding), state.code.binding)) throw new PassportError('qrOtherBrowser');
  return state;
}

/** The refusal for a code that can no longer be scanned or decided. */
function refuseTerminal(state: QrState): void {
  if (state.status === 'expired') throw new PassportError('qrExpired');
  if (state.status === 'cancelled') throw new PassportError('qrCancelled');
  if (state.status === 'consumed') throw new PassportError('qrUsed');
  if (state.status === 'confirmed') throw new PassportError('qrAlreadyDecided');
}

const secondsLeft = (app: FastifyInstance, state: QrState) =>
  Math.max(0, Math.ceil((state.code.expiresAt - app.runtime.now()) / 1000));

/** get_qrcode: a new code bound to this browser. */
export async function getQrcode(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { next: string | undefined },
): Promise<QrcodeData> {
  const perIp = await app.store.incr(`qr:ip:${rateLimitKey(request.ip)}`, HOUR);
  if (perIp > app.runtime.limits.qrCodesPerIpPerHour) throw new PassportError('rateLimited');
  const cookie = bindingCookie(app);
  let binding = bindingOf(app, request);
  if (!binding) {
    binding = randomToken(32);
    reply.setCookie(cookie.name, binding, cookie.options);
  }
  const ua = request.headers['user-agent'];
  const { config } = app;
  const { token, code } = await qrCodesOf(app).create({
    binding: sha256(binding),
    browser: userAgentSummary(typeof ua === 'string' ? ua.slice(0, 512) : null),
    place: placeOf(request.ip),
    next: safeRedirect(input.next, config.publicOrigin, config.allowedOrigins),
  });
  return {
    token,
    qrcode_index_url: `${config.publicOrigin}${qrConfirmPath(app)}?token=${token}`,
    expires_in: Math.round(app.runtime.limits.qrTtlMs / 1000),
    expires_at: code.expiresAt,
  };
}

/** Where a scanned QR code leads: the app flavour's confirmation page (apps/app-webview, at its mount). */
const qrConfirmPath = (app: FastifyInstance) =>
  `${app.config.apps.find((entry) => entry.name === 'app-webview')?.mount ?? '/app/'}qr`;

/** check_qrconnect: the state of this browser's code (read-only); the number while it is scanned. */
export async function checkQrcode(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<QrStatusData> {
  await chargeQrPoll(app, request);
  const state = await ownState(app, request, token);
  return {
    status: state.status,
    ...(state.status === 'scanned' && state.scan ? { number: state.scan.number } : {}),
    expires_in: secondsLeft(app, state),
  };
}

/** Whether this account must show a second factor before confirming from this device. */
async function needsSecondFactor(app: FastifyInstance, request: FastifyRequest, user: User) {
  return Boolean(
    app.config.secondVerify && user.mobile && !(await app.devices.isRemembered(user.id, request)),
  );
}

async function scanFor(app: FastifyInstance, request: FastifyRequest, token: string) {
  const session = requireSession(request);
  if (!isQrToken(token)) throw new PassportError('qrExpired');
  const state = await stateOf(app, token);
  if (state.status !== 'new' && state.status !== 'scanned') refuseTerminal(state);
  const scan = await qrCodesOf(app).scan(token, state, { userId: session.userId, sessionId: session.id });
  const data: QrScanData = {
    status: 'scanned',
    browser: state.code.browser,
    place: state.code.place,
    created_at: state.code.createdAt,
    expires_in: secondsLeft(app, state),
    choices: scan.choices,
    need_second_factor: await needsSecondFactor(app, request, session.user),
  };
  return { state, session, data };
}

/** scan_qrcode: a signed-in session scans; it alone may decide the code from now on. */
export async function scanQrcode(app: FastifyInstance, request: FastifyRequest, token: string) {
  return (await scanFor(app, request, token)).data;
}

/** The decision of the session that scanned: the number it picked, or a cancel. */
async function decide(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
  input: { number: number | undefined; cancel: boolean },
  secondFactorShown: boolean,
  verifiedAt: number | null,
): Promise<QrDecisionData> {
  const session = requireSession(request);
  const state = await stateOf(app, token);
  if (!state.scan) {
    if (state.status === 'new') throw new PassportError('qrNotScanned');
    refuseTerminal(state);
  }
  if (!state.scan || !safeEqual(state.scan.sessionId, session.id)) throw new PassportError('qrNotYourScan');
  refuseTerminal(state);
  const codes = qrCodesOf(app);
  if (input.cancel) {
    if (!(await codes.decide(token, state, { status: 'cancelled', userId: session.userId, reason: 'phone' })))
      throw new PassportError('qrAlreadyDecided');
    return { status: 'cancelled' };
  }
  if (input.number === undefined) throw new PassportError('invalidParam', { field: 'body/number' });
  if (input.number !== state.scan.number) {
    await codes.decide(token, state, { status: 'cancelled', userId: session.userId, reason: 'wrong_number' });
    throw new PassportError('qrWrongNumber');
  }
  if (!secondFactorShown && (await needsSecondFactor(app, request, session.user)))
    throw new PassportError('qrSecondFactorRequired');
  if (!(await codes.decide(token, state, { status: 'confirmed', userId: session.userId, verifiedAt })))
    throw new PassportError('qrAlreadyDecided');
  return { status: 'confirmed' };
}

/** confirm_qrcode: the scanning session confirms with the number, or cancels. */
export function confirmQrcode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { token: string; number: number | undefined; cancel: boolean },
) {
  if (!isQrToken(input.token)) throw new PassportError('qrExpired');
  // The new browser's session proves no more than the phone's: it keeps the phone's verification time.
  return decide(app, request, input.token, input, false, requireSession(request).verifiedAt);
}

/**
 * qrcode/scan_qrcode, the two-step variant: a scan that answers a ticket for `confirm_by_ticket` and,
 * for an account with a mobile, sends it a code (type 24, the owner's lane) that the confirmation
 * must carry.
 */
export async function verifyScanQrcode(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<QrVerifyScanData> {
  const { state, session, data } = await scanFor(app, request, token);
  const ticket = await qrCodesOf(app).issueTicket(token, state, session.id);
  const mobile = session.user.mobile;
  if (mobile) {
    await app.codes.send({
      channel: 'mobile',
      target: mobile,
      purpose: CodeType.mobileLogin,
      ip: request.ip,
      language: languageOf(request),
      lane: qrConfirmLaneOf(app, session.id),
    });
  }
  return { ...data, ticket, need_code: Boolean(mobile), mobile: mobile ? mask(mobile) : '' };
}

/** qrcode/confirm_by_ticket: the two-step decision; a confirmation carries the SMS code when one was sent. */
export async function confirmQrcodeByTicket(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { ticket: string; number: number | undefined; cancel: boolean; code: string | undefined },
) {
  const session = requireSession(request);
  const codes = qrCodesOf(app);
  const token = await codes.ticket(input.ticket, session.id);
  const mobile = session.user.mobile;
  if (!input.cancel && mobile) {
    if (!input.code) throw new PassportError('invalidParam', { field: 'body/code' });
    await app.codes.verify({
      channel: 'mobile',
      target: mobile,
      purpose: CodeType.mobileLogin,
      code: input.code,
      lane: qrConfirmLaneOf(app, session.id),
    });
  }
  // A code to the account's own mobile is a verification; without one, the phone's time carries over.
  const verifiedAt = mobile ? app.runtime.now() : session.verifiedAt;
  const decision = await decide(app, request, token, input, true, verifiedAt);
  await codes.dropTicket(input.ticket);
  return decision;
}

/** Where a redeemed code's browser goes next (its `next`), for the answer after the sign-in. */
const redeemed = new WeakMap<FastifyRequest, string>();

/**
 * web_login, before its operation (src/operations/sign-in/credentials.ts): the creating browser redeems
 * its confirmed code. Exactly one of concurrent redemptions gets the person (the store's setIfAbsent);
 * the others answer QR_USED. The phone's confirmation with the matched number is the second factor, so
 * no SECOND_VERIFY follows (flows/complete-sign-in).
 */
export async function proveQr(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<Principal> {
  const state = await ownState(app, request, token);
  if (state.status === 'new' || state.status === 'scanned') throw new PassportError('qrNotConfirmed');
  if (state.status !== 'confirmed' || !state.decision) refuseTerminal(state);
  if (!(await qrCodesOf(app).consume(token, state))) throw new PassportError('qrUsed');
  const user = await app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', state.decision?.userId ?? '')
    .executeTakeFirst();
  if (!user) throw new PassportError('qrExpired');
  redeemed.set(request, state.code.next);
  return admitSignIn(app, request, user, {
    newUser: false,
    proof: 'qr',
    verifiedAt: state.decision?.verifiedAt ?? null,
  });
}

/** web_login's answer once the sign-in committed: the account, its cookies, and where to go next. */
export async function answerQrSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  done: Parameters<typeof answerSignIn>[3],
) {
  const account = await answerSignIn(app, request, reply, done);
  return { ...account, redirect_url: redeemed.get(request) ?? '/' };
}
