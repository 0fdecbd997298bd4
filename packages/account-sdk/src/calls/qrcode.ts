import type {
  NextPayload,
  QrConfirmPayload,
  QrcodeData,
  QrDecisionData,
  QrScanData,
  QrStatusData,
  QrTicketConfirmPayload,
  QrVerifyScanData,
  TokenPayload,
} from '../protocol/types';
import { nextRoot } from './defaults';
import { defineCall } from './define-call';

/**
 * QR sign-in (docs/qr-login.md). The browser that wants a session gets a code, polls it and, once a
 * signed-in phone has scanned it and confirmed the number the browser shows, redeems it with
 * `webLogin`. The phone scans, then confirms or cancels (or, for an account that must prove its mobile
 * first, the two-step variant: `verifyScanQrcode` then `confirmQrcodeByTicket`).
 */

/** Gets a QR code (and its token) for signing in from another device; binds this browser to it. */
export const getQrcode = /* @__PURE__ */ defineCall<NextPayload, QrcodeData>(
  '/passport/web/get_qrcode/',
  nextRoot,
  'GET',
  '/passport/sso/get_qrcode/',
);
/** Polls the state of this browser's QR code by its token (read-only). */
export const checkQrcode = /* @__PURE__ */ defineCall<TokenPayload, QrStatusData>(
  '/passport/web/check_qrconnect/',
  null,
  'GET',
  '/passport/sso/check_qrconnect/',
);
/** The signed-in device reports it scanned the QR code: what asks, and three numbers to pick from. */
export const scanQrcode = /* @__PURE__ */ defineCall<TokenPayload, QrScanData>('/passport/web/scan_qrcode/');
/** The signed-in device that scanned confirms with the number the browser shows, or cancels. */
export const confirmQrcode = /* @__PURE__ */ defineCall<QrConfirmPayload, QrDecisionData>(
  '/passport/web/confirm_qrcode/',
);
/** Two-step QR verify, step one: scan; resolves a ticket (and sends an SMS code when one is needed). */
export const verifyScanQrcode = /* @__PURE__ */ defineCall<TokenPayload, QrVerifyScanData>(
  '/passport/qrcode/scan_qrcode/',
);
/** Two-step QR verify, step two: confirm by the ticket from the scan (with the number and the code). */
export const confirmQrcodeByTicket = /* @__PURE__ */ defineCall<QrTicketConfirmPayload, QrDecisionData>(
  '/passport/qrcode/confirm_by_ticket/',
);
