import * as aff from '@portico/affiliate-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTER_CONFIRM_PATH } from '../../src/flows/register-link';
import { CodeType, ErrorCode, OrganisationErrorCode, paths } from '../../src/protocol';
import { signedInBySms } from '../sdk/profile-helpers';
import { decisionOf, solve } from '../support/challenge';
import { seedPasswordUser } from '../support/faults';
import {
  GOOD_PASSWORD,
  judgedWhile,
  mobileTicket,
  OTHER_GOOD_PASSWORD,
  passCooldown,
  signInBySms,
  warmPasswordEstimator,
} from '../support/flows';
import { type SdkServer, startSdkServer } from '../support/sdk-browser';
import { Browser, backend, codeFor, freshEmail, freshMobile } from '../support/server';

/** The newest message the dev outbox holds for a recipient, as text. */
async function mailFor(app: SdkServer['app'], to: string): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  return response.json().data.messages[0]?.text ?? '';
}

/**
 * The domain's one-time state under concurrency, on the backend of the project. On SQLite every query
 * of a server goes through one connection, one at a time, so a race the feature suites run there can
 * only interleave between queries; PostgreSQL runs them on a pool of connections at once, and Redis
 * holds the counters and one-time values beside the database. Each single-use thing the feature suites
 * race on SQLite (a code, a verify ticket, a first password, an invitation, the wrong-guess and
 * wrong-password budgets) is raced here on every backend.
 */
let server: SdkServer;
beforeAll(async () => {
  await warmPasswordEstimator();
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5, passwordFailuresPerAccount: 3 } });
}, 90_000);
afterAll(async () => server?.close());
/** A browser over app.inject (the invitation race goes through the SDK on the server's port). */
const browser = () => new Browser(server.app);

describe(`one-time state under concurrency on ${backend}`, () => {
  it('a code signs in exactly one of 30 concurrent requests, with one session', async () => {
    const mobile = freshMobile();
    const asker = browser();
    await asker.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    const code = await codeFor(server.app, mobile);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => asker.twin().post(paths.web.smsLogin, { mobile, code })),
    );
    const winners = answers.filter((a) => a.body.message === 'success');
    expect(winners).toHaveLength(1);
    const sessions = await server.app.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', winners[0]?.body.data.user_id)
      .execute();
    expect(sessions).toHaveLength(1);
  });

  it('30 concurrent wrong guesses spend a code’s five and no more', async () => {
    const mobile = freshMobile();
    const asker = browser();
    await asker.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    const code = await codeFor(server.app, mobile);
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        asker
          .twin()
          .post(paths.web.smsLogin, { mobile, code: String((Number(code) + 1 + i) % 1e6).padStart(6, '0') }),
      ),
    );
    expect(guesses.filter((g) => g.body.data.error_code === ErrorCode.codeWrong)).toHaveLength(5);
    const right = await asker.post(paths.web.smsLogin, { mobile, code });
    expect(right.body.data.error_code).toBe(ErrorCode.codeTooManyAttempts);
  });

  it('a verify ticket resets a password for exactly one of 8 concurrent requests', async () => {
    const { mobile, userId } = await signInBySms(server, browser());
    await passCooldown();
    const ticket = await mobileTicket(server, browser(), mobile, CodeType.resetPassword);
    const browsers = Array.from({ length: 8 }, () => browser());
    await Promise.all(browsers.map((b) => b.get(paths.web.accountInfo)));
    const answers = await Promise.all(
      browsers.map((b, i) =>
        b.post(paths.web.passwordResetByTicket, { ticket, password: `${GOOD_PASSWORD} ${i}` }),
      ),
    );
    const winners = answers.filter((a) => a.body.message === 'success');
    expect(winners).toHaveLength(1);
    expect(winners[0]?.body.data.user_id).toBe(userId);
  });

  it('a no-verify registration link makes one account for exactly one of 8 concurrent followings', async () => {
    const email = freshEmail();
    const asker = browser();
    const ask = (fields: Record<string, string> = {}) =>
      asker.post(`${paths.web.emailRegister}?fp=races_fp`, { email, password: GOOD_PASSWORD, ...fields });
    const pass = await solve(asker, decisionOf(await ask()).challenge_id, 'races_fp');
    expect((await ask({ challenge_pass: pass })).body.data.link_sent).toBe(true);
    const token = (await mailFor(server.app, email)).match(/token=([A-Za-z0-9_-]{43})/)?.[1] ?? '';
    // The link works only in the browser that asked: its eight followings at once (tabs, double clicks).
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => asker.post(REGISTER_CONFIRM_PATH, { token })),
    );
    expect(answers.filter((a) => a.body.message === 'success')).toHaveLength(1);
    expect(answers.filter((a) => a.body.data.error_code === ErrorCode.ticketInvalid)).toHaveLength(7);
    const accounts = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(accounts).toHaveLength(1);
  });

  it('one of two concurrent first-password sets wins', async () => {
    const owner = browser();
    await signInBySms(server, owner);
    const answers = await Promise.all([
      owner.post(paths.web.passwordSet, { password: GOOD_PASSWORD }),
      owner.post(paths.web.passwordSet, { password: OTHER_GOOD_PASSWORD }),
    ]);
    expect(answers.filter((a) => a.body.message === 'success')).toHaveLength(1);
    expect(answers.filter((a) => a.body.data.error_code === ErrorCode.passwordAlreadySet)).toHaveLength(1);
  });

  it('30 concurrent wrong passwords from one address reach the password check 3 times, then the lock', async () => {
    const email = freshEmail();
    await seedPasswordUser(server.app, email, GOOD_PASSWORD);
    const address = browser().remoteAddress;
    const browsers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const there = browser();
        there.remoteAddress = address;
        await there.get(paths.web.accountInfo);
        return there;
      }),
    );
    const { judged, codes } = await judgedWhile(
      server,
      browsers.map((b, i) => () => b.post(paths.web.userLogin, { email, password: `wrong ${i}` })),
    );
    // The lock's 3, then the locked lane's budget (docs/security.md), each answered as the lock is.
    expect(judged).toBe(3 + server.app.runtime.limits.lockedLaneGuessesPerAccount);
    expect(codes.filter((code) => code === ErrorCode.temporarilyLocked)).toHaveLength(27);
  });

  it('20 concurrent accepts of one invitation make exactly one membership', async () => {
    const person = async () => (await signedInBySms(server)).client;
    const boss = await person();
    const { sec_subject_uid: sid } = await aff.createSubjectByMobile(boss, {
      subject_name: 'Race Ltd',
      deputy_name: 'Boss',
    });
    const link = await aff.inviteByLink(boss, { subject_uid: sid, deputy_name: 'Racer' });
    const people = await Promise.all(Array.from({ length: 4 }, person));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        aff.acceptInvitation(people[i % people.length]!, { invite_ticket: link.invite_ticket }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes)
      if (o.status === 'rejected')
        expect((o.reason as { error_code: number }).error_code).toBe(OrganisationErrorCode.invitationUsed);
    const members = await server.app.db
      .selectFrom('deputies')
      .select('id')
      .where('subject_id', '=', sid)
      .execute();
    expect(members).toHaveLength(2);
  });
});
