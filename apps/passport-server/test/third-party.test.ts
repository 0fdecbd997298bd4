import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_STARTS_PER_IP } from '../src/flows/third-party';
import {
  affiliatePaths as aff,
  CodeType,
  ErrorCode,
  OrganisationErrorCode,
  paths,
  thirdPartyPaths,
} from '../src/protocol';
import { continueBySms, emailCode, isSignedIn, mobileCode, passCooldown, signInBySms } from './support/flows';
import { type Browser, codeFor, freshEmail, startServer, type TestServer } from './support/server';
import {
  callbackFrom,
  linkedByMobile as linkedBy,
  linksOf,
  ORIGIN,
  type ProviderName,
  personAt,
  startThirdPartyPeers,
  type ThirdPartyPeers,
} from './support/third-party';

/**
 * Third-party sign-in (issue 14 part 1) against real peers on loopback: a real OpenID provider for
 * Google (GOOGLE_ISSUER) and a GitHub-shaped server (GITHUB_BASE_URL, GITHUB_API_URL).
 */

let peers: ThirdPartyPeers;
let server: TestServer;
let strict: TestServer;

beforeAll(async () => {
  peers = await startThirdPartyPeers();
  // A send cooldown of a few milliseconds: a test sends a second code to one target (passCooldown).
  server = await startServer({ oauth: peers.oauthConfig() }, { limits: { sendCooldownMs: 5 } });
  // Second verification on: a third-party sign-in from a new device goes through it like any other.
  strict = await startServer(
    { oauth: peers.oauthConfig(), secondVerify: true },
    { limits: { sendCooldownMs: 5 } },
  );
});
afterAll(async () => {
  await server?.close();
  await strict?.close();
  await peers?.close();
});

/** A person at the provider, with what the provider says about their e-mail. */
const person = (
  provider: ProviderName,
  account: { email?: string; verified?: boolean; name?: string } = {},
) => personAt(peers, provider, account);

/** Starts at the redirect and signs in at the provider: answers the callback page's parameters. */
const atProvider = (browser: Browser, provider: ProviderName, who: string, query = '') =>
  callbackFrom(peers, browser, provider, who, query);

const userCount = async (s: TestServer) =>
  Number(
    (
      await s.app.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A linked identity's owner: signs up by SMS and links through mobile/bind_login. */
const linkedByMobile = (provider: ProviderName, s: TestServer = server) => linkedBy(s, peers, provider);

describe.each(['google', 'github'] as const)('%s sign-in', (provider) => {
  it('organisation mode: subject_aid lands the sign-in in the person’s identity in that organisation', async () => {
    const { browser, who } = await linkedByMobile(provider);
    const created = await browser.post(aff.subjectCreateByMobile, {
      subject_name: 'Harbour Works',
      deputy_name: 'Boss',
    });
    expect(created.body.message, 'fixture: create subject').toBe('success');
    const subject = created.body.data.sec_subject_uid as string;
    const again = server.browser();
    const signIn = await again.post(
      paths.web.authLoginOnly,
      await atProvider(again, provider, who, `&subject_aid=${encodeURIComponent(subject)}`),
    );
    expect(signIn.body.message, JSON.stringify(signIn.body)).toBe('success');
    const info = await again.get(paths.web.accountInfo);
    expect(info.body.data.org).toMatchObject({
      sec_subject_uid: subject,
      deputy_name: 'Boss',
      is_manager: true,
    });
    // Without it the same person lands in the personal identity, as before.
    const personal = server.browser();
    await personal.post(paths.web.authLoginOnly, await atProvider(personal, provider, who));
    expect((await personal.get(paths.web.accountInfo)).body.data.org).toBeUndefined();
  });

  it('organisation mode: a person who is no member of the organisation named is refused and not signed in', async () => {
    const owner = server.browser();
    await signInBySms(server, owner);
    const created = await owner.post(aff.subjectCreateByMobile, {
      subject_name: 'Other Ltd',
      deputy_name: 'Boss',
    });
    const subject = encodeURIComponent(created.body.data.sec_subject_uid as string);
    const { who } = await linkedByMobile(provider);
    for (const named of [subject, 'no-such-organisation']) {
      const browser = server.browser();
      const answer = await browser.post(
        paths.web.authLoginOnly,
        await atProvider(browser, provider, who, `&subject_aid=${named}`),
      );
      expect(answer.body.data.error_code, named).toBe(OrganisationErrorCode.subjectNotFound);
      expect(await isSignedIn(browser)).toBe(false);
    }
    // An identity no account links is nobody's membership: no account, no pending link is made for it.
    const before = await userCount(server);
    const stranger = server.browser();
    const created2 = await stranger.post(
      paths.web.authLogin,
      await atProvider(stranger, provider, person(provider), `&subject_aid=${subject}`),
    );
    expect(created2.body.data.error_code).toBe(OrganisationErrorCode.subjectNotFound);
    expect(created2.body.data.profile_key).toBeUndefined();
    expect(await userCount(server)).toBe(before);
    expect(await isSignedIn(stranger)).toBe(false);
  });

  it('an unlinked identity creates no account: login_only answers OAUTH_NOT_LINKED with a profile_key for get/oauth_profile', async () => {
    const browser = server.browser();
    const who = person(provider, { name: 'Ada Lovelace' });
    const before = await userCount(server);
    const answer = await browser.post(paths.web.authLoginOnly, await atProvider(browser, provider, who));
    expect(answer.body.message).toBe('error');
    expect(answer.body.data.error_code).toBe(ErrorCode.oauthNotLinked);
    expect(answer.body.data.profile_key).toMatch(/^[\w-]{20,}$/);
    expect(await userCount(server)).toBe(before);
    expect(await isSignedIn(browser)).toBe(false);

    const key = encodeURIComponent(answer.body.data.profile_key);
    const profile = await browser.get(`${paths.profile.getOauthProfile}?profile_key=${key}`);
    expect(profile.body.data).toMatchObject({ platform: provider, name: 'Ada Lovelace' });
    // The profile_key is worth nothing in another browser.
    const elsewhere = await server.browser().get(`${paths.profile.getOauthProfile}?profile_key=${key}`);
    expect(elsewhere.body.data.error_code).toBe(ErrorCode.oauthStateMismatch);
  });

  it('links to a new account by SMS code (mobile/bind_login), then signs in with the provider in one step', async () => {
    const { who, userId, mobile } = await linkedByMobile(provider);
    expect((await linksOf(server, userId)).map((l) => l.provider)).toEqual([provider]);
    const again = server.browser();
    const signIn = await again.post(paths.web.authLoginOnly, await atProvider(again, provider, who));
    expect(signIn.body.message, JSON.stringify(signIn.body)).toBe('success');
    expect(signIn.body.data.user_id).toBe(userId);
    expect(signIn.body.data.mobile.endsWith(mobile.slice(-4))).toBe(true);
    expect(await isSignedIn(again)).toBe(true);
  });

  it('open/third_party/auth (the authorization page’s exchange) signs in and up in the auth envelope', async () => {
    const { who, userId } = await linkedByMobile(provider);
    const browser = server.browser();
    const signIn = await browser.post(paths.open.thirdPartyAuth, await atProvider(browser, provider, who));
    expect(signIn.body, JSON.stringify(signIn.body)).toMatchObject({
      status_code: 0,
      data: { user_id: userId },
    });
    expect(await isSignedIn(browser)).toBe(true);
    // A state used once is refused in the auth envelope: status_code is the error code.
    const fresh = server.browser();
    const callback = await atProvider(fresh, provider, person(provider));
    const created = await fresh.post(paths.open.thirdPartyAuth, callback);
    expect(created.body.status_code, JSON.stringify(created.body)).toBe(0);
    expect(created.body.data.new_user).toBe(true);
    const replayed = await fresh.post(paths.open.thirdPartyAuth, callback);
    expect(replayed.body.status_code).toBe(ErrorCode.oauthStateMismatch);
  });

  it('auth/login with the profile_key creates the account; a verified provider e-mail becomes its e-mail', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const who = person(provider, { email, verified: true });
    const pending = await browser.post(paths.web.authLoginOnly, await atProvider(browser, provider, who));
    expect(pending.body.data.email_registered).toBe(false);
    const created = await browser.post(paths.web.authLogin, {
      platform_app_id: provider,
      profile_key: pending.body.data.profile_key,
    });
    expect(created.body.message, JSON.stringify(created.body)).toBe('success');
    expect(created.body.data.new_user).toBe(true);
    const user = await server.app.accounts.find({ kind: 'email', value: email });
    expect(user?.id).toBe(created.body.data.user_id);
    // The profile_key is used up.
    const twice = await browser.post(paths.web.authLogin, {
      platform_app_id: provider,
      profile_key: pending.body.data.profile_key,
    });
    expect(twice.body.data.error_code).toBe(ErrorCode.oauthStateMismatch);
  });

  it('a verified provider e-mail of an existing account offers sign-in-to-link, never a silent link', async () => {
    const owner = server.browser();
    const email = freshEmail();
    const code = await emailCode(server, owner, email, CodeType.emailLogin);
    const account = await owner.post(paths.web.emailCodeLogin, { email, code });
    const ownerId = account.body.data.user_id as string;

    const browser = server.browser();
    const who = person(provider, { email, verified: true });
    const pending = await browser.post(paths.web.authLoginOnly, await atProvider(browser, provider, who));
    expect(pending.body.data.error_code).toBe(ErrorCode.oauthNotLinked);
    expect(pending.body.data.email_registered).toBe(true);
    const key = pending.body.data.profile_key as string;
    const shown = await browser.get(
      `${paths.passport.authShowOauthMobile}?profile_key=${encodeURIComponent(key)}`,
    );
    expect(shown.body.data).toEqual({ email_registered: true, mobile: '' });
    const create = await browser.post(paths.web.authLogin, { platform_app_id: provider, profile_key: key });
    expect(create.body.data.error_code).toBe(ErrorCode.oauthAccountExists);
    expect(await linksOf(server, ownerId)).toEqual([]);

    // Signing in to the account with an e-mail code links it (auth/bind_login).
    await passCooldown();
    const linkCode = await emailCode(server, browser, email, CodeType.emailLogin);
    const linked = await browser.post(paths.web.authBindLogin, { profile_key: key, email, code: linkCode });
    expect(linked.body.message, JSON.stringify(linked.body)).toBe('success');
    expect(linked.body.data.user_id).toBe(ownerId);
    expect((await linksOf(server, ownerId)).map((l) => l.provider)).toEqual([provider]);
  });

  it('an unverified provider e-mail never links or matches: the new account does not get it', async () => {
    const owner = server.browser();
    const email = freshEmail();
    const code = await emailCode(server, owner, email, CodeType.emailLogin);
    const ownerId = (await owner.post(paths.web.emailCodeLogin, { email, code })).body.data.user_id as string;

    const browser = server.browser();
    const who = person(provider, { email, verified: false });
    const pending = await browser.post(paths.web.authLoginOnly, await atProvider(browser, provider, who));
    expect(pending.body.data.email_registered).toBe(false);
    expect(pending.body.data.email).toBe('');
    const created = await browser.post(paths.web.authLogin, {
      platform_app_id: provider,
      profile_key: pending.body.data.profile_key,
    });
    expect(created.body.message, JSON.stringify(created.body)).toBe('success');
    expect(created.body.data.user_id).not.toBe(ownerId);
    expect(created.body.data.email).toBe('');
    expect(await linksOf(server, ownerId)).toEqual([]);
  });

  it('refuses a state this browser did not start, a state used once, and a callback in another browser', async () => {
    const { who } = await linkedByMobile(provider);
    const browser = server.browser();
    const input = await atProvider(browser, provider, who);
    const forged = await browser.post(paths.web.authLoginOnly, { ...input, state: 'x'.repeat(64) });
    expect(forged.body.data.error_code).toBe(ErrorCode.oauthStateMismatch);
    const thief = server.browser();
    const stolen = await thief.post(paths.web.authLoginOnly, input);
    expect(stolen.body.data.error_code).toBe(ErrorCode.oauthStateMismatch);
    expect(await isSignedIn(thief)).toBe(false);
    const first = await browser.post(paths.web.authLoginOnly, input);
    expect(first.body.message).toBe('success');
    // A replay of the same callback: its state was used.
    const replay = await browser.post(paths.web.authLoginOnly, input);
    expect(replay.body.data.error_code).toBe(ErrorCode.oauthStateMismatch);
  });

  it('refuses a replayed code and a PKCE verifier that does not match (the provider refuses the exchange)', async () => {
    const { who } = await linkedByMobile(provider);
    const browser = server.browser();
    const used = await atProvider(browser, provider, who);
    expect((await browser.post(paths.web.authLoginOnly, used)).body.message).toBe('success');
    // The used code under a fresh state of this browser: the provider will not take the code twice.
    const fresh = await atProvider(browser, provider, who);
    const replayed = await browser.post(paths.web.authLoginOnly, { ...fresh, code: used.code });
    expect(replayed.body.data.error_code).toBe(ErrorCode.oauthExchangeFailed);
    // Two authorizations in one browser: code A sent with state B carries B's verifier, not A's.
    const a = await atProvider(browser, provider, who);
    const b = await atProvider(browser, provider, who);
    const crossed = await browser.post(paths.web.authLoginOnly, { ...b, code: a.code });
    expect(crossed.body.data.error_code).toBe(ErrorCode.oauthExchangeFailed);
  });

  it('a sign-in rotates the session: the browser’s previous session dies', async () => {
    const { who, userId } = await linkedByMobile(provider);
    const browser = server.browser();
    await signInBySms(server, browser);
    const before = browser.cookies.get('sessionid');
    const signIn = await browser.post(paths.web.authLoginOnly, await atProvider(browser, provider, who));
    expect(signIn.body.data.user_id).toBe(userId);
    const after = browser.cookies.get('sessionid');
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    const stale = server.browser();
    stale.cookies.set('sessionid', before ?? '');
    expect(await isSignedIn(stale)).toBe(false);
  });

  it('goes through second verification from a device the account has not used (2046, then sms_login_continue)', async () => {
    const { who, mobile } = await linkedByMobile(provider, strict);
    const device = strict.browser();
    const signIn = await device.post(paths.web.authLoginOnly, await atProvider(device, provider, who));
    expect(signIn.body.data.error_code).toBe(ErrorCode.secondVerify);
    expect(await isSignedIn(device)).toBe(false);
    const key = signIn.body.data.sms_code_key as string;
    await passCooldown();
    const sent = await device.post(paths.web.sendCode, { sms_code_key: key, type: CodeType.mobileLogin });
    expect(sent.body.message, JSON.stringify(sent.body)).toBe('success');
    const code = await codeFor(strict.app, mobile);
    const done = await device.post(paths.web.smsLoginContinue, { sms_code_key: key, code });
    expect(done.body.message, JSON.stringify(done.body)).toBe('success');
    expect(await isSignedIn(device)).toBe(true);
  });

  it('organisation mode: a sign-in continued after second verification lands in the same identity', async () => {
    const { browser, who, mobile } = await linkedByMobile(provider, strict);
    const created = await browser.post(aff.subjectCreateByMobile, {
      subject_name: 'Harbour Works',
      deputy_name: 'Boss',
    });
    const subject = created.body.data.sec_subject_uid as string;
    const device = strict.browser();
    const signIn = await device.post(
      paths.web.authLoginOnly,
      await atProvider(device, provider, who, `&subject_aid=${encodeURIComponent(subject)}`),
    );
    expect(signIn.body.data.error_code).toBe(ErrorCode.secondVerify);
    const done = await continueBySms(strict, device, signIn.body.data.sms_code_key as string, mobile);
    expect(done.body.message, JSON.stringify(done.body)).toBe('success');
    expect((await device.get(paths.web.accountInfo)).body.data.org?.sec_subject_uid).toBe(subject);
  });
});

describe('linked accounts while signed in', () => {
  it('links with auth/bind, refuses an identity linked elsewhere (also with unbind_exist=1), unlinks with auth/unbind', async () => {
    const other = await linkedByMobile('github');
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const who = person('google');
    const bound = await browser.post(
      paths.web.authBind,
      await atProvider(browser, 'google', who, '&action=bind'),
    );
    expect(bound.body.message, JSON.stringify(bound.body)).toBe('success');
    expect(bound.body.data.linked.map((l: { platform: string }) => l.platform)).toEqual(['google']);

    for (const unbind_exist of [0, 1]) {
      const taken = await browser.post(paths.web.authBind, {
        ...(await atProvider(browser, 'github', other.who, '&action=bind')),
        unbind_exist,
      });
      expect(taken.body.data.error_code).toBe(ErrorCode.oauthLinkedElsewhere);
    }
    expect((await linksOf(server, other.userId)).map((l) => l.provider)).toEqual(['github']);

    const listed = await browser.get(thirdPartyPaths.providers);
    expect(listed.body.data.providers).toEqual(['github', 'google']);
    expect(listed.body.data.can_unbind).toEqual({ google: true });

    const unbound = await browser.post(paths.web.authUnbind, { platform_app_id: 'google' });
    expect(unbound.body.data.linked).toEqual([]);
    expect(await linksOf(server, userId)).toEqual([]);
    const again = await browser.post(paths.web.authUnbind, { platform_app_id: 'google' });
    expect(again.body.data.error_code).toBe(ErrorCode.oauthNotBound);
  });

  it('refuses to unlink the last way in, and allows it once another identity is linked', async () => {
    const browser = server.browser();
    const pending = await browser.post(
      paths.web.authLoginOnly,
      await atProvider(browser, 'google', person('google')),
    );
    const created = await browser.post(paths.web.authLogin, {
      platform_app_id: 'google',
      profile_key: pending.body.data.profile_key,
    });
    const userId = created.body.data.user_id as string;
    const refused = await browser.post(paths.web.authUnbind, { platform_app_id: 'google' });
    expect(refused.body.data.error_code).toBe(ErrorCode.oauthLastWayIn);
    expect((await linksOf(server, userId)).length).toBe(1);

    const gh = await browser.post(
      paths.web.authBind,
      await atProvider(browser, 'github', person('github'), '&action=bind'),
    );
    expect(gh.body.message, JSON.stringify(gh.body)).toBe('success');
    const allowed = await browser.post(paths.web.authUnbind, { platform_app_id: 'google' });
    expect(allowed.body.message).toBe('success');
    const last = await browser.post(paths.web.authUnbind, { platform_app_id: 'github' });
    expect(last.body.data.error_code).toBe(ErrorCode.oauthLastWayIn);
  });

  it('switches to another provider account with auth/switch_bind; the old identity no longer signs in', async () => {
    const { browser, who: old, userId } = await linkedByMobile('github');
    const replacement = person('github');
    const switched = await browser.post(
      paths.web.authSwitchBind,
      await atProvider(browser, 'github', replacement, '&action=switch_bind'),
    );
    expect(switched.body.message, JSON.stringify(switched.body)).toBe('success');
    expect((await linksOf(server, userId)).map((l) => l.subject)).toEqual([replacement]);
    const stranger = server.browser();
    const oldSignIn = await stranger.post(paths.web.authLoginOnly, await atProvider(stranger, 'github', old));
    expect(oldSignIn.body.data.error_code).toBe(ErrorCode.oauthNotLinked);
    // Switching a provider the account has not linked is refused.
    const none = await browser.post(
      paths.web.authSwitchBind,
      await atProvider(browser, 'google', person('google')),
    );
    expect(none.body.data.error_code).toBe(ErrorCode.oauthNotBound);
  });

  it('binding needs a session; share_login answers the shared session or NOT_LOGGED_IN', async () => {
    const browser = server.browser();
    const input = await atProvider(browser, 'google', person('google'));
    const bind = await browser.post(paths.web.authBind, input);
    expect(bind.body.data.error_code).toBe(ErrorCode.notLoggedIn);
    expect((await browser.post(paths.web.authShareLogin)).body.data.error_code).toBe(ErrorCode.notLoggedIn);
    const { userId } = await signInBySms(server, browser);
    const shared = await browser.post(paths.web.authShareLogin);
    expect(shared.body.data.user_id).toBe(userId);
  });
});

describe('refusals while linking and signing in', () => {
  it('an account links one identity per provider: linking a second one by code is refused (OAUTH_ALREADY_LINKED)', async () => {
    const { mobile, userId } = await linkedByMobile('github');
    const browser = server.browser();
    const pending = await browser.post(
      paths.web.authLoginOnly,
      await atProvider(browser, 'github', person('github')),
    );
    await passCooldown();
    const code = await mobileCode(server, browser, mobile, CodeType.mobileLogin);
    const refused = await browser.post(paths.web.mobileBindLogin, {
      profile_key: pending.body.data.profile_key,
      mobile,
      code,
    });
    expect(refused.body.data.error_code).toBe(ErrorCode.oauthAlreadyLinked);
    expect((await linksOf(server, userId)).length).toBe(1);
  });

  it('a frozen account is refused by a linked identity like any other sign-in', async () => {
    const { who, userId } = await linkedByMobile('google');
    await server.app.db.updateTable('users').set({ is_frozen: 1 }).where('id', '=', userId).execute();
    const browser = server.browser();
    const signIn = await browser.post(paths.web.authLoginOnly, await atProvider(browser, 'google', who));
    expect(signIn.body.data.error_code).toBe(ErrorCode.accountFrozen);
    expect(await isSignedIn(browser)).toBe(false);
  });
});

describe('configuration and the redirect', () => {
  it('an unconfigured provider is refused, and lists only configured providers', async () => {
    const bare = await startServer({ oauth: { devOrigins: [] } });
    try {
      const browser = bare.browser();
      const start = await browser.get(`${paths.passport.authLogin}?platform_app_id=google`);
      expect(start.body.data.error_code).toBe(ErrorCode.oauthNotConfigured);
      expect((await browser.get(thirdPartyPaths.providers)).body.data.providers).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('caps the third-party sign-ins one address starts (each keeps a flow in the store)', async () => {
    const browser = server.browser();
    const start = () => browser.get(`${paths.passport.authLogin}?platform_app_id=github`);
    for (let i = 0; i < OAUTH_STARTS_PER_IP; i += 1) expect((await start()).status).toBe(302);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.body.data.error_code).toBe(ErrorCode.rateLimited);
    // Another address is not affected.
    expect((await server.browser().get(`${paths.passport.authLogin}?platform_app_id=github`)).status).toBe(
      302,
    );
  });

  it('the redirect carries state, PKCE S256 and (Google) a nonce, to the callback page', async () => {
    const browser = server.browser();
    const start = await browser.get(`${paths.passport.authLogin}?platform_app_id=google&next=/account`);
    const target = new URL(String(start.headers.location));
    expect(target.origin).toBe(peers.google.issuer);
    expect(target.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/google-oauth-callback`);
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    expect(target.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(target.searchParams.get('nonce')?.length).toBeGreaterThanOrEqual(32);
  });

  it('use_local_host relays GitHub through github-oauth-twice-redirect to an allow-listed loopback origin only', async () => {
    const browser = server.browser();
    const ok = await browser.get(
      `${paths.passport.authLogin}?platform_app_id=github&use_local_host=1&next=${encodeURIComponent('http://localhost:5173/')}`,
    );
    expect(ok.status).toBe(302);
    const redirectUri = new URL(new URL(String(ok.headers.location)).searchParams.get('redirect_uri') ?? '');
    expect(redirectUri.pathname).toBe('/github-oauth-twice-redirect');
    expect(redirectUri.searchParams.get('relay')).toBe('http://localhost:5173');
    const refused = await browser.get(
      `${paths.passport.authLogin}?platform_app_id=github&use_local_host=1&next=${encodeURIComponent('http://localhost:6666/')}`,
    );
    expect(refused.body.data.error_code).toBe(ErrorCode.redirectNotAllowed);
  });
});
