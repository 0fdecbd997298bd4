import { operationRoute } from '../../adapters/operation-route';
import {
  answerQrSignIn,
  checkQrcode,
  confirmQrcode,
  confirmQrcodeByTicket,
  getQrcode,
  proveQr,
  scanQrcode,
  verifyScanQrcode,
} from '../../flows/qr-login';
import { signInByQr } from '../../operations/sign-in/credentials';
import { paths } from '../../protocol';
import {
  checkQrcodeSchema,
  confirmByTicketSchema,
  confirmQrcodeSchema,
  getQrcodeSchema,
  QrcodeData,
  QrDecisionData,
  QrLoginData,
  QrScanData,
  QrStatusData,
  QrVerifyScanData,
  scanQrcodeSchema,
  verifyScanQrcodeSchema,
  webLoginSchema,
} from '../../schemas/qr';
import { flowRoute } from '../declare';

/** QR sign-in (flows/qr-login, docs/qr-login.md): the web, sso, legacy, open and two-step rows. */

export const qrGet = flowRoute({
  method: 'GET',
  schema: getQrcodeSchema,
  data: QrcodeData,
  at: [
    ['web', paths.web.getQrcode],
    ['sso', paths.sso.getQrcode],
    ['legacy', paths.legacy.getQrcode],
    ['open', paths.open.getQrcode],
  ],
  run: (app, request, reply) => getQrcode(app, request, reply, { next: request.query.next }),
});

export const qrCheck = flowRoute({
  method: 'GET',
  schema: checkQrcodeSchema,
  data: QrStatusData,
  at: [
    ['web', paths.web.checkQrconnect],
    ['sso', paths.sso.checkQrconnect],
    ['legacy', paths.legacy.checkQrconnect],
    ['open', paths.open.checkQrcode],
  ],
  run: (app, request) => checkQrcode(app, request, request.query.token),
});

export const qrScan = flowRoute({
  method: 'POST',
  schema: scanQrcodeSchema,
  data: QrScanData,
  at: [['web', paths.web.scanQrcode]],
  run: (app, request) => scanQrcode(app, request, request.body.token),
});

export const qrConfirm = flowRoute({
  method: 'POST',
  schema: confirmQrcodeSchema,
  data: QrDecisionData,
  at: [['web', paths.web.confirmQrcode]],
  run: (app, request) =>
    confirmQrcode(app, request, {
      token: request.body.token,
      number: request.body.number,
      cancel: request.body.cancel === 1,
    }),
});

export const qrVerifyScan = flowRoute({
  method: 'POST',
  schema: verifyScanQrcodeSchema,
  data: QrVerifyScanData,
  at: [['passport', paths.passport.qrcodeScanQrcode]],
  run: (app, request) => verifyScanQrcode(app, request, request.body.token),
});

export const qrConfirmByTicket = flowRoute({
  method: 'POST',
  schema: confirmByTicketSchema,
  data: QrDecisionData,
  at: [['passport', paths.passport.qrcodeConfirmByTicket]],
  run: (app, request) =>
    confirmQrcodeByTicket(app, request, {
      ticket: request.body.ticket,
      number: request.body.number,
      cancel: request.body.cancel === 1,
      code: request.body.code,
    }),
});

export const qrWebLogin = operationRoute(signInByQr, {
  method: 'POST',
  schema: webLoginSchema,
  data: QrLoginData,
  at: [['web', paths.web.webLogin]],
  principal: (app, request, body) => proveQr(app, request, body.token),
  after: answerQrSignIn,
});
