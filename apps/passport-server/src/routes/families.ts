import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { mobileOf } from '../domain/accounts/targets';
import { PassportError } from '../errors';
import { resetByCode } from '../flows/password';
import {
  checkLogin,
  codeSignIn,
  type PasswordSignIn,
  passwordSignIn,
  sendCode,
  signedInAccount,
  signOut,
  signOutByLink,
} from '../flows/sign-in';
import tickets from '../plugins/app/tickets';
import { type EnvelopeSource, paths, successEnvelope } from '../protocol';
import { AccountInfo } from '../schemas/account';
import { CheckLoginData } from '../schemas/app';
import { CodeTypeField, CommonQuery, FORM } from '../schemas/common';
import { EmailCodeLoginBody, PasswordLoginBody, SmsLoginBody } from '../schemas/login';
import { LogoutBody, LogoutData, LogoutQuery } from '../schemas/logout';
import { CodeResetBody, PasswordChanged } from '../schemas/password';
import { EmailSendCodeBody, SendCodeBody, SendCodeData } from '../schemas/send-code';
import { MobileCheckCodeBody, TicketData } from '../schemas/verify';
import { ticketForCode } from './web/verify';

/**
 * The other path families of spec §7 answer for the flows the web family serves: the sso flavour
 * (`/passport/sso/…`, sso envelope), the legacy root paths and the mobile family (web envelope), and
 * account/info v2. Each row names a path from the protocol, a flow and an envelope; the flows live in
 * flows/sign-in (and verify's ticketForCode), so no family carries its own copy of a flow.
 */

type Envelope = Extract<EnvelopeSource, 'web' | 'sso'>;
type Handler = (app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

interface Flow {
  summary: string;
  tags: string[];
  /** GET reads `query`; POST reads a form `body`. */
  method: 'GET' | 'POST';
  input?: TSchema;
  data: TSchema;
  /** Resolves the envelope's data; `undefined` means the handler answered itself (a redirect). */
  run: Handler;
}

// biome-ignore lint/suspicious/noExplicitAny: each flow reads the fields its own schema validated
type Input = any;
const body = (request: FastifyRequest): Input => request.body;
const query = (request: FastifyRequest): Input => request.query;

/** The sso flavour names the e-mail code purpose `ect_type`; the login takes it under either name. */
const EmailCodeLoginInput = Type.Object(
  { ...EmailCodeLoginBody.properties, ect_type: Type.Optional(CodeTypeField) },
  { additionalProperties: true },
);

const FLOWS = {
  sendMobileCode: {
    summary: 'Send a one-time code by SMS',
    tags: ['codes'],
    method: 'POST',
    input: SendCodeBody,
    data: SendCodeData,
    run: (app, request) => {
      const { mobile, type } = body(request);
      return sendCode(app, request, { channel: 'mobile', to: mobile, type });
    },
  },
  sendEmailCode: {
    summary: 'Send a one-time code by e-mail (the purpose as type or ect_type)',
    tags: ['codes'],
    method: 'POST',
    input: EmailSendCodeBody,
    data: SendCodeData,
    run: (app, request) => {
      const { email, type, ect_type } = body(request);
      return sendCode(app, request, { channel: 'email', to: email, type: type ?? ect_type });
    },
  },
  checkMobileCode: {
    summary: 'Check an SMS code for its purpose: uses the code up and answers a single-use verify ticket',
    tags: ['codes'],
    method: 'POST',
    input: MobileCheckCodeBody,
    data: TicketData,
    run: async (app, request) => {
      const { mobile, type, code } = body(request);
      const checked = await ticketForCode(app, request, {
        channel: 'mobile',
        target: mobileOf(app, mobile),
        purpose: type,
        code,
      });
      return checked.data;
    },
  },
  smsLogin: {
    summary: 'Sign in with an SMS code; registers the number when it has no account',
    tags: ['login'],
    method: 'POST',
    input: SmsLoginBody,
    data: AccountInfo,
    run: (app, request, reply) => {
      const { mobile, code, type } = body(request);
      return codeSignIn(app, request, reply, 'sms', { to: mobile, code, type });
    },
  },
  emailCodeLogin: {
    summary: 'Sign in with an e-mail code (the purpose as type or ect_type); registers the address',
    tags: ['login'],
    method: 'POST',
    input: EmailCodeLoginInput,
    data: AccountInfo,
    run: (app, request, reply) => {
      const { email, code, type, ect_type } = body(request);
      return codeSignIn(app, request, reply, 'email', { to: email, code, type: type ?? ect_type });
    },
  },
  passwordLogin: {
    summary: 'Sign in with a password and one of email, username, mobile or account',
    tags: ['login'],
    method: 'POST',
    input: PasswordLoginBody,
    data: AccountInfo,
    run: (app, request, reply) => passwordSignIn(app, request, reply, body(request) as PasswordSignIn),
  },
  checkLogin: {
    summary: 'Whether the request carries a valid session (never an error when it does not)',
    tags: ['account'],
    method: 'GET',
    data: CheckLoginData,
    run: async (_app, request) => checkLogin(request),
  },
  accountInfo: {
    summary: 'The signed-in account (NOT_LOGGED_IN without a session)',
    tags: ['account'],
    method: 'GET',
    data: AccountInfo,
    run: async (_app, request) => signedInAccount(request),
  },
  logoutLink: {
    summary: 'Sign out: kills the session; redirects to next unless not_redirect=1',
    tags: ['account'],
    method: 'GET',
    input: LogoutQuery,
    data: LogoutData,
    run: async (app, request, reply) => {
      const { next, redirect } = await signOutByLink(app, request, reply, query(request));
      if (!redirect) return { next };
      await reply.redirect(next, 302);
      return undefined;
    },
  },
  logout: {
    summary: 'Sign out: kills the session and answers the validated next address',
    tags: ['account'],
    method: 'POST',
    input: LogoutBody,
    data: LogoutData,
    run: (app, request, reply) => signOut(app, request, reply, query(request).next ?? body(request).next),
  },
  resetPassword: {
    summary:
      'Reset a forgotten password with a mobile number or e-mail address and its reset code; kills every session of the account',
    tags: ['password'],
    method: 'POST',
    input: CodeResetBody,
    data: PasswordChanged,
    run: (app, request, reply) => {
      const { mobile, email, code, type, password } = body(request);
      if (mobile !== undefined)
        return resetByCode(app, request, reply, { channel: 'mobile', to: mobile, code, type, password });
      if (email !== undefined)
        return resetByCode(app, request, reply, { channel: 'email', to: email, code, type, password });
      throw new PassportError('identifierRequired');
    },
  },
} satisfies Record<string, Flow>;

type FlowName = keyof typeof FLOWS;

/** [path, flow] rows per family, and the envelope the family answers in. */
const FAMILIES: { family: string; envelope: Envelope; routes: [path: string, flow: FlowName][] }[] = [
  {
    family: 'sso',
    envelope: 'sso',
    routes: [
      [paths.sso.sendCode, 'sendMobileCode'],
      [paths.sso.emailSendCode, 'sendEmailCode'],
      [paths.sso.smsLogin, 'smsLogin'],
      [paths.sso.emailCodeLogin, 'emailCodeLogin'],
      [paths.sso.userLogin, 'passwordLogin'],
      [paths.sso.checkLogin, 'checkLogin'],
      [paths.sso.logout, 'logoutLink'],
      [paths.sso.logout, 'logout'],
      [paths.sso.accountInfo, 'accountInfo'],
    ],
  },
  {
    family: 'legacy',
    envelope: 'web',
    routes: [
      [paths.legacy.sendActivationCode, 'sendMobileCode'],
      [paths.legacy.quickLogin, 'smsLogin'],
      [paths.legacy.accountLogin, 'passwordLogin'],
      [paths.legacy.checkLogin, 'checkLogin'],
      [paths.legacy.logout, 'logoutLink'],
      [paths.legacy.logout, 'logout'],
      [paths.legacy.resetPassword, 'resetPassword'],
    ],
  },
  {
    family: 'mobile',
    envelope: 'web',
    routes: [
      [paths.mobile.sendCode, 'sendMobileCode'],
      [paths.mobile.smsLogin, 'smsLogin'],
      [paths.mobile.login, 'passwordLogin'],
      [paths.mobile.checkCode, 'checkMobileCode'],
      [paths.mobile.resetPassword, 'resetPassword'],
    ],
  },
  { family: 'passport', envelope: 'web', routes: [[paths.passport.accountInfoV2, 'accountInfo']] },
];

/** The family table, for the README and the tests: which path serves which flow in which envelope. */
export const FAMILY_ROUTES = FAMILIES.flatMap(({ family, envelope, routes }) =>
  routes.map(([path, flow]) => ({ family, path, method: FLOWS[flow].method, flow, envelope })),
);

/** Documentation-only response schemas in the family's envelope (bodies are serialised as they are). */
function responses(envelope: Envelope, data: TSchema) {
  const failureData = Type.Object(
    { error_code: Type.Integer(), description: Type.String() },
    { additionalProperties: true },
  );
  if (envelope === 'sso') {
    const failure = Type.Object(
      { error_code: Type.Integer({ minimum: 1 }), description: Type.String(), data: failureData },
      { description: 'failure' },
    );
    return {
      200: Type.Union([
        Type.Object(
          { error_code: Type.Literal(0), description: Type.String(), data },
          { description: 'success' },
        ),
        failure,
      ]),
      '4xx': failure,
    };
  }
  const failure = Type.Object(
    { message: Type.Literal('error'), data: failureData },
    { description: 'failure' },
  );
  return {
    200: Type.Union([
      Type.Object({ message: Type.Literal('success'), data }, { description: 'success' }),
      failure,
    ]),
    '4xx': failure,
  };
}

/** Registers every row of the family table. */
const families: FastifyPluginAsync = async (app) => {
  // mobile/check_code hands out verify tickets; the service is scoped to the routes that use it.
  await app.register(tickets);
  for (const { path, flow: name, envelope } of FAMILY_ROUTES) {
    const flow: Flow = FLOWS[name];
    const schema = {
      summary: flow.summary,
      tags: flow.tags,
      ...(flow.method === 'POST'
        ? { consumes: FORM, querystring: CommonQuery, ...(flow.input ? { body: flow.input } : {}) }
        : { querystring: flow.input ?? CommonQuery }),
      response: {
        ...responses(envelope, flow.data),
        ...(name === 'logoutLink' ? { 302: Type.Null({ description: 'redirect to next' }) } : {}),
      },
    };
    app.route({
      method: flow.method,
      url: path,
      schema,
      config: { envelope },
      handler: async (request, reply) => {
        const data = await flow.run(app, request, reply);
        return data === undefined ? reply : successEnvelope(envelope, data);
      },
    });
  }
};

export default families;
