import type { Extra, NextPayload, TokenPayload } from '../protocol/types';
import { nextRoot } from './defaults';
import { defineCall } from './define-call';

/** Gets a QR code (and its token) for signing in from another device. */
export const getQrcode = /* @__PURE__ */ defineCall<NextPayload>(
  '/passport/web/get_qrcode/',
  nextRoot,
  'GET',
  '/passport/sso/get_qrcode/',
);
/** Polls the state of a QR code by its token. */
export const checkQrcode = /* @__PURE__ */ defineCall<TokenPayload>(
  '/passport/web/check_qrconnect/',
  null,
  'GET',
  '/passport/sso/check_qrconnect/',
);
/** The signed-in device reports it scanned the QR code. */
export const scanQrcode = /* @__PURE__ */ defineCall<TokenPayload>('/passport/web/scan_qrcode/');
/** The signed-in device confirms the sign-in. */
export const confirmQrcode = /* @__PURE__ */ defineCall<TokenPayload>('/passport/web/confirm_qrcode/');
/** Two-step QR verify, step one: scan; resolves a ticket. */
export const verifyScanQrcode = /* @__PURE__ */ defineCall<TokenPayload>('/passport/qrcode/scan_qrcode/');
/** Two-step QR verify, step two: confirm by the ticket from the scan. */
export const confirmQrcodeByTicket = /* @__PURE__ */ defineCall<{ ticket: string } & Extra>(
  '/passport/qrcode/confirm_by_ticket/',
);
