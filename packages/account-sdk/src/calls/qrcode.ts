import { passportPaths, ssoPaths, webPaths } from '../protocol/paths';
import { nextRoot } from './defaults';
import { defineCall } from './define-call';
import type { Extra, NextPayload, TokenPayload } from './payloads';

/** Gets a QR code (and its token) for signing in from another device. */
export const getQrcode = /* @__PURE__ */ defineCall<NextPayload>(
  webPaths,
  'getQrcode',
  nextRoot,
  'GET',
  ssoPaths,
);
/** Polls the state of a QR code by its token. */
export const checkQrcode = /* @__PURE__ */ defineCall<TokenPayload>(
  webPaths,
  'checkQrconnect',
  null,
  'GET',
  ssoPaths,
);
/** The signed-in device reports it scanned the QR code. */
export const scanQrcode = /* @__PURE__ */ defineCall<TokenPayload>(webPaths, 'scanQrcode');
/** The signed-in device confirms the sign-in. */
export const confirmQrcode = /* @__PURE__ */ defineCall<TokenPayload>(webPaths, 'confirmQrcode');
/** Two-step QR verify, step one: scan; resolves a ticket. */
export const verifyScanQrcode = /* @__PURE__ */ defineCall<TokenPayload>(passportPaths, 'qrcodeScanQrcode');
/** Two-step QR verify, step two: confirm by the ticket from the scan. */
export const confirmQrcodeByTicket = /* @__PURE__ */ defineCall<{ ticket: string } & Extra>(
  passportPaths,
  'qrcodeConfirmByTicket',
);
