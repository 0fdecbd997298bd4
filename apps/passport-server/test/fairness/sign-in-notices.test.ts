import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountNotice, sendAccountNotice } from '../../src/delivery/account-notice';
import type { Language } from '../../src/delivery/templates';
import {
  SIGN_IN_NOTICE_FRESH_MS,
  SIGN_UP_MS,
  signInNoticesConsumer,
} from '../../src/events/consumers/sign-in-notices';
import type { StoredEvent } from '../../src/events/dispatcher';
import { CodeType, passkeyPaths, paths } from '../../src/protocol';
import { SoftwareAuthenticator } from '../support/authenticator';
import {
  emailCode,
  GOOD_PASSWORD,
  mobileCode,
  noticesTo as noticesOf,
  signInBySms,
  warmPasswordEstimator,
} from '../support/flows';
import { type Browser, freshEmail, freshMobile, startServer, type TestServer } from '../support/server';

/**
 * A new way into the account tells the account (docs/security.md, "Notices of a new way in"): every
 * verified channel but the one just added hears of it, in the person's saved language, in a fixed
 * template, through the gate's account-notice count. The notices' marks and that count are the store's,
 * the account and the outbox the database's: run on every backend.
 */

/** How many notices a channel may get in an hour here: the count a thief who repeats changes meets. */
const NOTICES_PER_HOUR = 4;
/** The server's clock ahead of the real one: each test lets the account's first minute (its sign-up) pass. */
let skew = 0;
let server: TestServer;
/** The server's log lines (JSON, one a line). */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});
beforeAll(async () => {
  server = await startServer(
    { logLevel: 'info' },
    {
      logStream,
      limits: { sendCooldownMs: 5, accountNoticesPerChannelPerHour: NOTICES_PER_HOUR },
      now: () => Date.now() + skew,
    },
  );
  await warmPasswordEstimator();
});
afterAll(async () => server?.close());

const noticesTo = (to: string) => noticesOf(server, to);

/** A person signed up by SMS a minute ago (past the sign-up), still within the step-up window. */
async function signedUp(): Promise<{ browser: Browser; mobile: string; userId: string }> {
  const browser = server.browser();
  const { mobile, userId } = await signInBySms(server, browser);
  skew += SIGN_UP_MS + 1_000;
  return { browser, mobile, userId };
}

async function bindEmail(browser: Browser): Promise<string> {
  const email = freshEmail();
  const code = await emailCode(server, browser, email, CodeType.bind);
  const bound = await browser.post(paths.web.emailBind, { email, code });
  expect(bound.body.message, JSON.stringify(bound.body)).toBe('success');
  return email;
}

const expectSuccess = (answer: { body: { message?: string } }) =>
  expect(answer.body.message, JSON.stringify(answer.body)).toBe('success');

/** An event of the outbox as the dispatcher hands it over. */
const eventFor = (userId: string, occurredAt: number, type = 'passkey.added'): StoredEvent => ({
  position: 1,
  id: randomUUID(),
  type,
  version: 1,
  stream: `user:${userId}`,
  actor: { kind: 'person', userId },
  actorUserId: userId,
  subjectId: null,
  targetUserId: userId,
  data: { passkeyId: randomUUID(), name: 'Thief', deviceType: 'multiDevice', backedUp: true },
  ip: null,
  deviceId: null,
  occurredAt,
});

/** The consumer on the server's store, recording what it sends, on a clock `ahead` of the server's. */
function recording(ahead = 0) {
  const sent: { notice: AccountNotice; language: Language }[] = [];
  const consumer = signInNoticesConsumer({
    db: server.app.db,
    store: server.app.store,
    now: () => server.app.runtime.now() + ahead,
    send: async (notice, language) => void sent.push({ notice, language }),
    log: server.app.log,
  });
  return { consumer, sent };
}

describe('a new way in', () => {
  it('an e-mail bound tells the mobile, with a pointer to the recent changes and no link; the new e-mail gets only its code', async () => {
    const { browser, mobile } = await signedUp();
    const email = await bindEmail(browser);

    const notices = await noticesTo(mobile);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('绑定了邮箱');
    expect(notices[0]).toContain('登录方式的近期变更');
    expect(notices[0]).not.toMatch(/https?:\/\/|www\./);
    // Masked or not, the new address is not in it: whoever added it chose it.
    expect(notices[0]).not.toContain(email.split('@')[0]);
    expect(await noticesTo(email)).toEqual([]);
  });

  it('a first password and a username tell every verified channel, in the language the person saved', async () => {
    const { browser, mobile } = await signedUp();
    const email = await bindEmail(browser);
    // Told before the language changes (a notice takes the language saved when it is sent).
    expect(await noticesTo(mobile)).toEqual([expect.stringContaining('绑定了邮箱')]);
    expectSuccess(await browser.post(paths.profile.updateLanguage, { language: 'en' }));

    expectSuccess(await browser.post(paths.web.passwordSet, { password: GOOD_PASSWORD }));
    expectSuccess(
      await browser.post(paths.passport.accountSet, {
        username: `n${randomBytes(5).toString('hex')}`,
        password: GOOD_PASSWORD,
      }),
    );

    // Two events may be told in the same millisecond: the outbox's order between them is not asserted.
    for (const to of [mobile, email]) {
      const english = (await noticesTo(to)).filter((text) => !text.includes('绑定了邮箱'));
      expect(english, `the notices to ${to}`).toHaveLength(2);
      expect(english).toContainEqual(expect.stringContaining('A password was just set on your account.'));
      expect(english).toContainEqual(expect.stringContaining('A username was just set on your account'));
      for (const text of english) expect(text).toContain('Recent changes to how you sign in');
    }
  });

  it('an authenticator app and a passkey tell the mobile', async () => {
    const { browser, mobile } = await signedUp();
    const started = await browser.post(paths.web.totpStart, {});
    expectSuccess(started);
    const secret = Secret.fromBase32(started.body.data.secret as string);
    const code = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      // The server's clock, which runs ahead of the real one here.
      timestamp: server.app.runtime.now(),
    });
    expectSuccess(await browser.post(paths.web.totpConfirm, { code }));
    const authenticator = new SoftwareAuthenticator({ origin: 'http://localhost:3000' });
    const options = await browser.post(passkeyPaths.registerOptions, {});
    expectSuccess(options);
    expectSuccess(
      await browser.post(passkeyPaths.registerVerify, {
        credential: authenticator.create(options.body.data.options).json,
        name: 'Laptop',
      }),
    );

    const notices = await noticesTo(mobile);
    expect(notices).toHaveLength(2);
    expect(notices).toContainEqual(expect.stringContaining('添加了通行密钥'));
    expect(notices).toContainEqual(expect.stringContaining('添加了身份验证器'));
    // The person's own name for the passkey is not in it.
    for (const text of notices) expect(text).not.toContain('Laptop');
  });

  it('a mobile changed tells the old number and the e-mail, never the new number, not even of an earlier change told late', async () => {
    const { browser, mobile, userId } = await signedUp();
    const email = await bindEmail(browser);
    const own = await mobileCode(server, browser, mobile, CodeType.oldMobile);
    const verified = await browser.post(paths.web.authVerify, { mobile, code: own });
    expectSuccess(verified);
    const replacement = freshMobile();
    const code = await mobileCode(server, browser, replacement, CodeType.newMobile);
    expectSuccess(
      await browser.post(paths.web.mobileChange, {
        mobile: replacement,
        code,
        ticket: verified.body.data.ticket,
      }),
    );

    expect(await noticesTo(mobile)).toContainEqual(expect.stringContaining('手机号刚刚被更换'));
    expect(await noticesTo(email)).toEqual([expect.stringContaining('手机号刚刚被更换')]);
    expect(await noticesTo(replacement)).toEqual([]);

    // Told late (the dispatcher behind), the e-mail's binding goes to no number: the mobile the account
    // has now came after it.
    const bound = await server.app.db
      .selectFrom('events')
      .selectAll()
      .where('target_user_id', '=', userId)
      .where('type', '=', 'account.identifier_bound')
      .executeTakeFirstOrThrow();
    const { consumer, sent } = recording();
    await consumer.handle({
      ...eventFor(userId, Number(bound.occurred_at), bound.type),
      position: Number(bound.position),
      data: JSON.parse(bound.data),
    });
    expect(sent).toEqual([]);
  });
});

describe('the notices’ consumer', () => {
  async function createdAt(userId: string): Promise<number> {
    const user = await server.app.db
      .selectFrom('users')
      .select('created_at')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(user.created_at);
  }

  it('sends one notice per channel for an event delivered twice, none in the sign-up minute, none once it is an hour old', async () => {
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const created = await createdAt(userId);
    const { consumer, sent } = recording();

    await consumer.handle(eventFor(userId, created + 1_000));
    expect(sent).toEqual([]);

    const event = eventFor(userId, created + SIGN_UP_MS + 1_000);
    await consumer.handle(event);
    await consumer.handle(event);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      notice: { kind: { wayIn: 'passkey' }, channel: 'mobile' },
      language: 'zh',
    });

    // A stale change is not told, and the log says so with its event id: an operator tells "not sent,
    // stale" from "lost". (Regression: it was dropped without a trace.) One line per batch, with the
    // count and the first event: after an upgrade a new consumer meets the whole outbox's backlog, and a
    // line per event flooded the log.
    const late = recording(SIGN_UP_MS + SIGN_IN_NOTICE_FRESH_MS + 60_000);
    const stale = [1_000, 2_000, 3_000].map((at) => eventFor(userId, created + SIGN_UP_MS + at));
    const [first] = stale;
    const ids = new Set(stale.map((e) => e.id));
    await late.consumer.handleBatch?.(stale);
    expect(late.sent).toEqual([]);
    const told = logLines
      .map((line) => JSON.parse(line))
      .filter((line) => ids.has(line.event) || ids.has(line.firstEvent));
    expect(told).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'sign-in notices not sent: the changes are older than an hour',
        count: 3,
        firstEvent: first?.id,
        firstType: 'passkey.added',
      }),
    ]);
    expect(told[0].firstAgeMs).toBeGreaterThan(SIGN_IN_NOTICE_FRESH_MS);
    // Events that add no way in are none of its business.
    await consumer.handle(eventFor(userId, created + SIGN_UP_MS + 1_000, 'passkey.removed'));
    expect(sent).toHaveLength(1);
  });

  it('stops at the account-notice count per channel: a thief who repeats changes cannot flood the owner', async () => {
    const browser = server.browser();
    const { mobile, userId } = await signInBySms(server, browser);
    const created = await createdAt(userId);
    const consumer = signInNoticesConsumer({
      db: server.app.db,
      store: server.app.store,
      now: () => server.app.runtime.now(),
      send: (notice, language) => sendAccountNotice(server.app, notice, language),
      log: server.app.log,
    });
    for (let i = 0; i < NOTICES_PER_HOUR + 2; i += 1)
      await consumer.handle(eventFor(userId, created + SIGN_UP_MS + 1_000));
    expect(await noticesTo(mobile)).toHaveLength(NOTICES_PER_HOUR);
  });
});
