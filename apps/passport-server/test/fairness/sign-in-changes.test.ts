import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, passkeyPaths, paths } from '../../src/protocol';
import { openAuthRecordsLeft, seedAppGrant } from '../support/app-grants';
import { SoftwareAuthenticator } from '../support/authenticator';
import { emailCode, isSignedIn, signInBySms } from '../support/flows';
import { type Browser, freshEmail, startServer, type TestServer } from '../support/server';

/**
 * A stolen session's changes, seen and disowned: the account centre lists the changes to its sign-in
 * methods, and "this wasn't me" ends every session (the thief's too) and forgets every remembered
 * device. Their state (sessions, devices, the outbox) is the database's and the store's: run on every
 * backend.
 */

function browserOn(server: TestServer, address: string): Browser {
  const browser = server.browser();
  browser.remoteAddress = address;
  browser.cookies.set('s_v_web_id', `verify_${randomBytes(16).toString('hex')}`);
  return browser;
}

/** Another machine holding a copy of `browser`'s cookies: its session, stolen. */
function stolen(server: TestServer, browser: Browser, address: string): Browser {
  const thief = browserOn(server, address);
  for (const [name, value] of browser.cookies) thief.cookies.set(name, value);
  return thief;
}

const errorCodeOf = (answer: { body: { data: { error_code?: number } } }) => answer.body.data.error_code;

describe('recent changes to sign-in methods and “this wasn’t me”', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ secondVerify: true }, { limits: { sendCooldownMs: 5 } });
  });
  afterAll(async () => server?.close());

  it('lists what a stolen session bound, and disowning it ends every session and forgets every device', async () => {
    const home = browserOn(server, '198.51.100.20');
    const { mobile, userId } = await signInBySms(server, home);
    const thief = stolen(server, home, '203.0.113.66');
    const email = freshEmail();
    const bindCode = await emailCode(server, thief, email, CodeType.bind);
    const bound = await thief.post(paths.web.emailBind, { email, code: bindCode });
    expect(bound.body.message, JSON.stringify(bound.body)).toBe('success');

    // The owner, on a new laptop, signs in with their own mobile and sees the change.
    const laptop = browserOn(server, '198.51.100.21');
    await signInBySms(server, laptop, mobile);
    const listed = await laptop.get(paths.web.accountSignInChanges);
    expect(listed.body.message, JSON.stringify(listed.body)).toBe('success');
    const changes = listed.body.data.changes as {
      id: string;
      type: string;
      ip: string | null;
      data: { channel?: string; identifier?: string };
      disowned: boolean;
    }[];
    const change = changes.find((entry) => entry.type === 'account.identifier_bound');
    expect(change).toMatchObject({ ip: '203.0.113.66', disowned: false, data: { channel: 'email' } });
    // Masked, as every event keeps identifiers.
    expect(change?.data.identifier).not.toBe(email);
    // Sign-ins are not changes to sign-in methods.
    expect(changes.every((entry) => entry.type !== 'account.signed_in')).toBe(true);

    const disowned = await laptop.post(paths.web.accountSignInChangesDisown, { event_id: change?.id ?? '' });
    expect(disowned.body.message, JSON.stringify(disowned.body)).toBe('success');
    // The stolen cookie is the home session itself: it and the laptop's.
    expect(disowned.body.data.sessions_ended).toBe(2);
    expect(disowned.body.data.devices_forgotten).toBeGreaterThanOrEqual(2);

    // Every session is gone: the thief's, the owner's old one and this one.
    expect(await isSignedIn(thief)).toBe(false);
    expect(await isSignedIn(home)).toBe(false);
    expect(await isSignedIn(laptop)).toBe(false);
    // Every device is forgotten: the next sign-in there asks for the second verification.
    const devices = await server.app.db
      .selectFrom('devices')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(devices).toHaveLength(0);

    // Signed in again, the change shows as disowned; the disowning is in the person's activity.
    await signInBySms(server, laptop, mobile);
    const again = await laptop.get(paths.web.accountSignInChanges);
    const after = (again.body.data.changes as { id: string; disowned: boolean }[]).find(
      (entry) => entry.id === change?.id,
    );
    expect(after?.disowned).toBe(true);
    const event = await server.app.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('type', '=', 'account.change_disowned')
      .where('target_user_id', '=', userId)
      .executeTakeFirst();
    expect(JSON.parse(event?.data ?? '{}')).toEqual({
      eventId: change?.id,
      changeType: 'account.identifier_bound',
    });
  });

  it('undoes a disowned passkey: the thief’s passkey is deleted, and the apps the account authorised lose their grants', async () => {
    const home = browserOn(server, '198.51.100.40');
    const { mobile, userId } = await signInBySms(server, home);
    const thief = stolen(server, home, '203.0.113.67');
    const authenticator = new SoftwareAuthenticator({ origin: 'http://localhost:3000' });
    const options = await thief.post(passkeyPaths.registerOptions, {});
    expect(options.body.message, JSON.stringify(options.body)).toBe('success');
    const added = await thief.post(passkeyPaths.registerVerify, {
      credential: authenticator.create(options.body.data.options).json,
      name: 'Thief',
    });
    expect(added.body.message, JSON.stringify(added.body)).toBe('success');
    const passkeyId = added.body.data.id as string;
    // An app the account authorised (the provider's own records): its grant and a refresh token.
    const app = await seedAppGrant(server.app.db, userId);

    const laptop = browserOn(server, '198.51.100.41');
    await signInBySms(server, laptop, mobile);
    const changes = (await laptop.get(paths.web.accountSignInChanges)).body.data.changes as {
      id: string;
      type: string;
    }[];
    const change = changes.find((entry) => entry.type === 'passkey.added');
    const disowned = await laptop.post(paths.web.accountSignInChangesDisown, { event_id: change?.id ?? '' });
    expect(disowned.body.message, JSON.stringify(disowned.body)).toBe('success');

    const passkeys = await server.app.db
      .selectFrom('passkeys')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(passkeys).toEqual([]);
    expect(await openAuthRecordsLeft(server.app.db, app.ids)).toEqual([]);
    const events = await server.app.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('target_user_id', '=', userId)
      .where('type', 'in', ['passkey.removed', 'account.app_revoked'])
      .orderBy('position', 'asc')
      .execute();
    expect(events.map((event) => [event.type, JSON.parse(event.data)])).toEqual([
      ['passkey.removed', { passkeyId, name: 'Thief' }],
      ['account.app_revoked', { clientId: app.clientId, appName: app.clientId, reason: 'revoked' }],
    ]);
  });

  it('undoes a disowned authenticator app: the app the thief added no longer verifies the account', async () => {
    const home = browserOn(server, '198.51.100.50');
    const { mobile, userId } = await signInBySms(server, home);
    const thief = stolen(server, home, '203.0.113.68');
    const started = await thief.post(paths.web.totpStart, {});
    expect(started.body.message, JSON.stringify(started.body)).toBe('success');
    const secret = Secret.fromBase32(started.body.data.secret as string);
    const code = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    const confirmed = await thief.post(paths.web.totpConfirm, { code });
    expect(confirmed.body.message, JSON.stringify(confirmed.body)).toBe('success');

    const laptop = browserOn(server, '198.51.100.51');
    await signInBySms(server, laptop, mobile);
    const changes = (await laptop.get(paths.web.accountSignInChanges)).body.data.changes as {
      id: string;
      type: string;
    }[];
    const change = changes.find((entry) => entry.type === 'account.factor_added');
    const disowned = await laptop.post(paths.web.accountSignInChangesDisown, { event_id: change?.id ?? '' });
    expect(disowned.body.message, JSON.stringify(disowned.body)).toBe('success');

    const factors = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('target_user_id', '=', userId)
      .where('type', '=', 'account.factor_removed')
      .execute();
    expect(factors.map((event) => JSON.parse(event.data))).toEqual([{ method: 'totp' }]);
    // Signed in again, the account lists no authenticator app.
    await signInBySms(server, laptop, mobile);
    const listed = await laptop.get(paths.web.factorList);
    expect(listed.body.message, JSON.stringify(listed.body)).toBe('success');
    expect(listed.body.data.totp.enabled).toBe(false);
  });

  it('refuses another account’s change, a sign-in and an unknown id alike (NOT_FOUND), and a caller who is not signed in', async () => {
    const mine = browserOn(server, '198.51.100.30');
    await signInBySms(server, mine);
    const other = browserOn(server, '198.51.100.31');
    await signInBySms(server, other);
    const email = freshEmail();
    const code = await emailCode(server, other, email, CodeType.bind);
    expect((await other.post(paths.web.emailBind, { email, code })).body.message).toBe('success');
    const theirs = (await other.get(paths.web.accountSignInChanges)).body.data.changes[0].id as string;
    const signIn = await server.app.db
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'account.signed_in')
      .executeTakeFirstOrThrow();

    for (const eventId of [theirs, signIn.id, 'no-such-event']) {
      const refused = await mine.post(paths.web.accountSignInChangesDisown, { event_id: eventId });
      expect(errorCodeOf(refused)).toBe(ErrorCode.notFound);
    }
    expect(await isSignedIn(mine)).toBe(true);
    expect(await isSignedIn(other)).toBe(true);

    const anonymous = browserOn(server, '198.51.100.32');
    const nobody = await anonymous.post(paths.web.accountSignInChangesDisown, { event_id: theirs });
    expect(errorCodeOf(nobody)).toBe(ErrorCode.notLoggedIn);
    expect(await isSignedIn(other)).toBe(true);
  });
});
