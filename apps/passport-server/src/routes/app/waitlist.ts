import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { emailOf, mobileOf } from '../../domain/accounts/targets';
import { codeLaneOf } from '../../domain/codes/codes';
import { PassportError } from '../../errors';
import { rateLimitKey } from '../../lib/ip';
import { languageOf } from '../../lib/language';
import { HOUR } from '../../limits';
import { CodeType, paths, webSuccess } from '../../protocol';
import { Code, CommonQuery, Email, FORM, MixMode, Mobile, webResponses } from '../../schemas/common';
import { requireOperator } from '../monitor/index';

/** The operator's side of the waitlist (web family; the web app's monitoring page). */
export const WAITLIST_LIST_PATH = '/passport/web/waitlist/list/';
export const WAITLIST_ADMIT_PATH = '/passport/web/waitlist/admit/';

const State = Type.Union([Type.Literal('waiting'), Type.Literal('admitted'), Type.Literal('registered')]);

/** One entry as an operator sees it: the identifier masked. */
const WaitlistEntry = Type.Object({
  id: Type.String(),
  channel: Type.Union([Type.Literal('mobile'), Type.Literal('email')]),
  target: Type.String({ description: 'the mobile or e-mail, masked' }),
  note: Type.String(),
  state: State,
  joined_at: Type.Integer(),
  admitted_at: Type.Union([Type.Integer(), Type.Null()]),
});
export const WaitlistList = Type.Object({
  entries: Type.Array(WaitlistEntry),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});
const WaitlistPlace = Type.Object({
  state: State,
  position: Type.Integer(),
  waiting: Type.Integer(),
  joined_at: Type.Integer(),
});

/**
 * `/CheckWaitListEnable` and `/SubmitWaitList` (the app API, spec §7), and the operator's list and
 * admission. docs/monitoring.md, "The waitlist".
 */
const waitlistRoutes: FastifyPluginAsync = async (app) => {
  const { store, runtime } = app;

  app.get(
    paths.app.CheckWaitListEnable,
    {
      schema: {
        summary:
          'Whether new accounts need an admission (WAITLIST); with token, what a sign-up link is worth',
        tags: ['app'],
        querystring: Type.Intersect([
          CommonQuery,
          Type.Object({ token: Type.Optional(Type.String({ maxLength: 128 })) }),
        ]),
        response: webResponses(
          Type.Object({
            enable: Type.Boolean(),
            admission: Type.Optional(
              Type.Union([Type.Literal('admitted'), Type.Literal('registered'), Type.Literal('unknown')]),
            ),
          }),
        ),
      },
      config: { envelope: 'app' },
    },
    async (request) => {
      const { token } = request.query as { token?: string };
      const enable = app.config.waitlist;
      return webSuccess(
        token === undefined ? { enable } : { enable, admission: await app.waitlist.admission(token) },
      );
    },
  );

  app.post(
    paths.app.SubmitWaitList,
    {
      schema: {
        summary:
          'Join the waitlist with a mobile or e-mail and its register code (type 1); answers the place',
        tags: ['app'],
        consumes: FORM,
        querystring: CommonQuery,
        body: Type.Object(
          {
            mobile: Type.Optional(Mobile),
            email: Type.Optional(Email),
            code: Code,
            note: Type.Optional(Type.String({ maxLength: 200 })),
            mix_mode: MixMode,
          },
          { additionalProperties: true },
        ),
        response: webResponses(WaitlistPlace),
      },
      config: { envelope: 'app' },
    },
    async (request) => {
      if (!app.config.waitlist) throw new PassportError('waitlistOff');
      const body = request.body as { mobile?: string; email?: string; code: string; note?: string };
      const key = `waitlist:ip:${rateLimitKey(request.ip)}`;
      if ((await store.incr(key, HOUR)) > runtime.limits.waitlistSubmitsPerIpPerHour)
        throw new PassportError('rateLimited');
      const channel =
        body.mobile !== undefined && body.mobile !== '' ? 'mobile' : body.email ? 'email' : null;
      if (!channel) throw new PassportError('identifierRequired');
      const target = channel === 'mobile' ? mobileOf(app, body.mobile ?? '') : emailOf(body.email ?? '');
      const subject = { target: `${channel}:${target}` };
      await app.risk.require(request, 'signIn', subject);
      try {
        await app.codes.verify({
          channel,
          target,
          purpose: CodeType.register,
          code: body.code,
          lane: await codeLaneOf(app, request, channel, target),
        });
      } catch (error) {
        if (error instanceof PassportError && error.errorName === 'codeWrong')
          await app.risk.recordFailure(request, subject);
        throw error;
      }
      if (await app.accounts.find({ kind: channel, value: target }))
        throw new PassportError('waitlistAccountExists');
      // Control characters (NUL, which PostgreSQL refuses, among them) become spaces.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what this removes
      const note = (body.note ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
      return webSuccess(await app.waitlist.join({ channel, target, note, language: languageOf(request) }));
    },
  );

  app.get(
    WAITLIST_LIST_PATH,
    {
      schema: {
        summary: 'Operators: the waitlist by state, oldest first, identifiers masked',
        tags: ['waitlist'],
        querystring: Type.Intersect([
          CommonQuery,
          Type.Object({
            state: Type.Optional(State),
            page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
            page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          }),
        ]),
        response: webResponses(WaitlistList),
      },
      config: { envelope: 'web' },
    },
    async (request) => {
      requireOperator(app, request);
      const query = request.query as {
        state?: 'waiting' | 'admitted' | 'registered';
        page?: number;
        page_size?: number;
      };
      return webSuccess(
        await app.waitlist.list(query.state ?? 'waiting', query.page ?? 1, query.page_size ?? 20),
      );
    },
  );

  app.post(
    WAITLIST_ADMIT_PATH,
    {
      schema: {
        summary: 'Operators: admit one entry; its person receives a single-use sign-up link by SMS or e-mail',
        tags: ['waitlist'],
        consumes: FORM,
        querystring: CommonQuery,
        body: Type.Object(
          { id: Type.String({ minLength: 1, maxLength: 64 }) },
          { additionalProperties: true },
        ),
        response: webResponses(Type.Object({})),
      },
      config: { envelope: 'web' },
    },
    async (request) => {
      const operator = requireOperator(app, request);
      await app.waitlist.admit((request.body as { id: string }).id, operator);
      return webSuccess({});
    },
  );
};

export default waitlistRoutes;
