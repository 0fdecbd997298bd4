import { Type } from 'typebox';
import { AccountInfo } from './account';
import { Code, CommonQuery, Flag, FORM, MixMode } from './common';

/** QR sign-in (flows/qr-login, docs/qr-login.md). */

const Token = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'the token of get_qrcode (256 bits, base64url)',
});
const Ticket = Type.String({ minLength: 1, maxLength: 128, description: 'the ticket of qrcode/scan_qrcode' });
const PickedNumber = Type.Optional(
  Type.Integer({ minimum: 0, maximum: 99, description: 'the two-digit number the person picked' }),
);
const Cancel = Flag;

export const QrcodeQuery = Type.Object(
  {
    ...CommonQuery.properties,
    next: Type.Optional(
      Type.String({ maxLength: 2048, description: 'where to go after; same-origin or allow-listed only' }),
    ),
  },
  { additionalProperties: true },
);
export const QrTokenQuery = Type.Object(
  { ...CommonQuery.properties, token: Token },
  { additionalProperties: true },
);
export const QrTokenBody = Type.Object({ token: Token, mix_mode: MixMode }, { additionalProperties: true });
export const QrConfirmBody = Type.Object(
  { token: Token, number: PickedNumber, cancel: Cancel, mix_mode: MixMode },
  { additionalProperties: true },
);
export const QrTicketConfirmBody = Type.Object(
  { ticket: Ticket, number: PickedNumber, cancel: Cancel, code: Type.Optional(Code), mix_mode: MixMode },
  { additionalProperties: true },
);

export const QrStatus = Type.Union([
  Type.Literal('new'),
  Type.Literal('scanned'),
  Type.Literal('confirmed'),
  Type.Literal('consumed'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
]);
export const QrcodeData = Type.Object({
  token: Type.String(),
  qrcode_index_url: Type.String({
    description: 'what the QR code encodes: the app flavour’s confirmation page',
  }),
  expires_in: Type.Integer({ description: 'seconds' }),
  expires_at: Type.Integer({ description: 'ms since the epoch' }),
});
export const QrStatusData = Type.Object({
  status: QrStatus,
  number: Type.Optional(Type.Integer({ description: 'the number to show while scanned' })),
  expires_in: Type.Integer(),
});
const QrPlace = Type.Object({
  kind: Type.Union([Type.Literal('loopback'), Type.Literal('private'), Type.Literal('public')]),
  network: Type.String(),
});
const scanFields = {
  status: Type.Literal('scanned'),
  browser: Type.String(),
  place: QrPlace,
  created_at: Type.Integer(),
  expires_in: Type.Integer(),
  choices: Type.Array(Type.Integer(), { minItems: 3, maxItems: 3 }),
  need_second_factor: Type.Boolean(),
};
export const QrScanData = Type.Object(scanFields);
export const QrVerifyScanData = Type.Object({
  ...scanFields,
  ticket: Type.String(),
  need_code: Type.Boolean(),
  mobile: Type.String(),
});
export const QrDecisionData = Type.Object({
  status: Type.Union([Type.Literal('confirmed'), Type.Literal('cancelled')]),
});
export const QrLoginData = Type.Intersect([AccountInfo, Type.Object({ redirect_url: Type.String() })]);

export const getQrcodeSchema = {
  summary: 'A QR sign-in code for this browser (binds the browser by an HttpOnly cookie; 120 s)',
  tags: ['qr'],
  querystring: QrcodeQuery,
};
export const checkQrcodeSchema = {
  summary: 'The state of this browser’s QR code (read-only); the number to show while scanned',
  tags: ['qr'],
  querystring: QrTokenQuery,
};
export const scanQrcodeSchema = {
  summary: 'A signed-in device scans a QR code: what asks, and three numbers to pick from',
  tags: ['qr'],
  consumes: FORM,
  querystring: CommonQuery,
  body: QrTokenBody,
};
export const confirmQrcodeSchema = {
  summary:
    'The device that scanned confirms with the number the browser shows (a wrong one cancels), or cancels',
  tags: ['qr'],
  consumes: FORM,
  querystring: CommonQuery,
  body: QrConfirmBody,
};
export const verifyScanQrcodeSchema = {
  summary: 'Two-step QR verify, step one: scan; a ticket, and an SMS code to the account’s mobile',
  tags: ['qr'],
  consumes: FORM,
  querystring: CommonQuery,
  body: QrTokenBody,
};
export const confirmByTicketSchema = {
  summary: 'Two-step QR verify, step two: decide by the ticket, with the number and the SMS code',
  tags: ['qr'],
  consumes: FORM,
  querystring: CommonQuery,
  body: QrTicketConfirmBody,
};
export const webLoginSchema = {
  summary: 'The browser that created a QR code redeems it once confirmed: a new session (once)',
  tags: ['qr'],
  consumes: FORM,
  querystring: CommonQuery,
  body: QrTokenBody,
};
