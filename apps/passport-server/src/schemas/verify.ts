import { Type } from 'typebox';
import { Code, CodeTypeField, CommonQuery, Email, FORM, MixMode, Mobile, webResponses } from './common';

/** A verify ticket as the client hands it back (a real one is 43 base64url characters). */
export const Ticket = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'a verify ticket from a code check',
});

export const MobileCheckCodeBody = Type.Object(
  { mobile: Mobile, code: Code, type: CodeTypeField, mix_mode: MixMode },
  { additionalProperties: true },
);

export const EmailCheckCodeBody = Type.Object(
  {
    email: Email,
    code: Code,
    type: Type.Optional(CodeTypeField),
    /** The sso flavour names the purpose ect_type. */
    ect_type: Type.Optional(CodeTypeField),
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const TicketData = Type.Object({
  ticket: Type.String({ description: 'single use; bound to the code purpose and target' }),
  verify_ticket: Type.String({ description: 'the same ticket, under the name the register calls send' }),
  expires_in: Type.Integer({ description: 'seconds the ticket stays valid' }),
});

const summary = (what: string) =>
  `Check ${what} code for its purpose (type): uses the code up and answers a single-use verify ticket`;

export const mobileCheckCodeSchema = {
  summary: summary('an SMS'),
  tags: ['codes'],
  consumes: FORM,
  querystring: CommonQuery,
  body: MobileCheckCodeBody,
  response: webResponses(TicketData),
};

export const emailCheckCodeSchema = {
  summary: summary('an e-mail'),
  tags: ['codes'],
  consumes: FORM,
  querystring: CommonQuery,
  body: EmailCheckCodeBody,
  response: webResponses(TicketData),
};
