import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/protocol';
import { commitsDuring } from './support/commits';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, signInBySms, warmPasswordEstimator } from './support/flows';
import { type Browser, startServer, type TestServer } from './support/server';

/**
 * What a sign-in, a sign-out and a password change cost in commits on SQLite (each one fsync at
 * `synchronous=FULL`, on the event-loop thread): the change and the account event that describes it
 * commit together, once; the audit log's copy is the dispatcher's, one commit per batch, never the
 * request's. Counted from the write-ahead log, so the count holds on a loaded machine.
 */

let server: TestServer;
beforeAll(async () => {
  // The dispatcher runs only when a test asks (runOnce): its copies must not fall into a request's count.
  server = await startServer({}, { limits: { eventWakeDelayMs: 3_600_000, eventPollMs: 3_600_000 } });
  await warmPasswordEstimator();
});
afterAll(async () => server?.close());

/** An account with a password, signed out, and its mobile. */
async function account(): Promise<{ mobile: string; userId: string }> {
  const browser = server.browser();
  const { mobile, userId } = await signInBySms(server, browser);
  expect((await browser.post(paths.web.passwordSet, { password: GOOD_PASSWORD })).body.message).toBe(
    'success',
  );
  return { mobile, userId };
}

const signIn = async (browser: Browser, mobile: string, password = GOOD_PASSWORD) => {
  const answer = await browser.post(paths.web.userLogin, { mobile, password });
  expect(answer.body.message, JSON.stringify(answer.body)).toBe('success');
};

const auditRows = async (userId: string) =>
  (
    await server.app.db.selectFrom('audit_log').select('type').where('target_user_id', '=', userId).execute()
  ).map((row) => row.type);

// SQLite only: the file runs in the sqlite project (vitest.config.ts).
describe('commits per request on SQLite', () => {
  it('a password sign-in from a new browser commits once: session, device and event together', async () => {
    const { mobile } = await account();
    const browser = server.browser();
    await browser.get(paths.web.accountInfo); // its CSRF cookie, outside the count
    expect(await commitsDuring(server.app, () => signIn(browser, mobile))).toBe(1);
  });

  it('so does a sign-in that replaces a session and rotates a remembered device', async () => {
    const { mobile } = await account();
    const browser = server.browser();
    await signIn(browser, mobile);
    expect(browser.cookies.has('passport_device')).toBe(true);
    expect(await commitsDuring(server.app, () => signIn(browser, mobile))).toBe(1);
  });

  it('a sign-out commits once: the session and its event', async () => {
    const { mobile } = await account();
    const browser = server.browser();
    await signIn(browser, mobile);
    const commits = await commitsDuring(server.app, async () => {
      expect((await browser.post(paths.web.logout)).body.message).toBe('success');
    });
    expect(commits).toBe(1);
  });

  it('a password change commits once: the password, the sessions, the new session and the event; its notice after', async () => {
    const { mobile } = await account();
    const browser = server.browser();
    await signIn(browser, mobile);
    const commits = await commitsDuring(server.app, async () => {
      const answer = await browser.post(paths.web.passwordUpdate, {
        current_password: GOOD_PASSWORD,
        password: OTHER_GOOD_PASSWORD,
      });
      expect(answer.body.message, JSON.stringify(answer.body)).toBe('success');
    });
    // One for the change; one for the notice to the account's mobile, which the dev outbox keeps in a
    // table (a provider's send in production), delivered after the change committed.
    expect(commits).toBe(2);
  });

  it('a first password commits once: the password and the event', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    const commits = await commitsDuring(server.app, async () => {
      expect((await browser.post(paths.web.passwordSet, { password: GOOD_PASSWORD })).body.message).toBe(
        'success',
      );
    });
    expect(commits).toBe(1);
  });

  it('each consumer takes a batch of events in one commit, and an idle run commits nothing', async () => {
    const { mobile, userId } = await account();
    await server.app.events.dispatcher.runOnce();
    for (let i = 0; i < 3; i++) await signIn(server.browser(), mobile);
    // Two consumers, one commit each for the whole batch: the audit log and the webhooks' queue. The
    // notices of a new way in act on other types (`types`): sign-ins take no lease and no commit there.
    expect(await commitsDuring(server.app, () => server.app.events.dispatcher.runOnce())).toBe(2);
    expect((await auditRows(userId)).filter((type) => type === 'account.signed_in')).toHaveLength(4);
    expect(await commitsDuring(server.app, () => server.app.events.dispatcher.runOnce())).toBe(0);
  });
});
