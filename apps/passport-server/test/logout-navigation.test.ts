import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/crypto';
import { affiliatePaths as aff, ErrorCode, paths } from '../src/protocol';
import { sessionCount, signInBySms } from './support/flows';
import { type Browser, startServer, type TestServer } from './support/server';

/**
 * Logout by GET (SECURITY.md, CSRF: no state change on GET but this one): only a navigation the browser
 * vouches for — `Sec-Fetch-Site: same-origin` or `none` (a typed address) — signs out at once. No header
 * (an old browser), `same-site` (a sibling subdomain) or a link from a trusted origin get a confirmation
 * page that keeps the session; its button is the POST logout with the CSRF header.
 */
let server: TestServer;
const SERVICE = 'https://svc.example.com';
/** An app on another origin that uses the SDK (CORS, allowed). */
const APP = 'https://app.example.com';
beforeAll(async () => {
  server = await startServer({ ssoServices: [SERVICE], allowedOrigins: [APP] });
});
afterAll(async () => server?.close());

const HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
/** Every GET logout and the POST its confirmation page sends the person's answer to. */
const LOGOUTS = [
  { get: paths.web.logout, post: paths.web.logout },
  { get: paths.sso.logout, post: paths.sso.logout },
  { get: paths.legacy.logout, post: paths.legacy.logout },
  { get: '/sso/logout', post: paths.sso.logout },
];

const signedIn = async (): Promise<Browser> => {
  const browser = server.browser();
  await signInBySms(server, browser);
  return browser;
};
const isSignedIn = async (browser: Browser) =>
  (await browser.get(paths.web.accountInfo)).body.data?.error_code !== ErrorCode.notLoggedIn;

describe('GET logout asks first unless the browser vouches for the navigation', () => {
  it.each(LOGOUTS)(
    '$get: no Sec-Fetch-Site, or same-site, keeps the session and answers the page',
    async ({ get, post }) => {
      for (const headers of [{}, { 'sec-fetch-site': 'same-site' }] as Record<string, string>[]) {
        const browser = await signedIn();
        const answer = await browser.get(`${get}?next=${encodeURIComponent('/after')}`, {
          accept: HTML,
          ...headers,
        });
        expect(answer.status, JSON.stringify(headers)).toBe(200);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(answer.raw.body).toContain(`<form method="post" action="${post}"`);
        expect(await isSignedIn(browser), JSON.stringify(headers)).toBe(true);
        // The page's button: the POST logout with the CSRF header from the readable cookie.
        const confirmed = await browser.post(post, {});
        expect(confirmed.status).toBe(200);
        expect(await isSignedIn(browser)).toBe(false);
      }
    },
  );

  it.each(LOGOUTS)('$get: same-origin or a typed address (none) signs out at once', async ({ get }) => {
    for (const site of ['same-origin', 'none']) {
      const browser = await signedIn();
      const answer = await browser.get(get, { accept: HTML, 'sec-fetch-site': site });
      expect(answer.status, site).toBe(302);
      expect(await isSignedIn(browser), site).toBe(false);
    }
  });

  /** A person signed in as the manager of a new organisation: the browser, the subject, the identity. */
  const inOrganisation = async (name = 'Harbour Works') => {
    const browser = await signedIn();
    const created = await browser.post(aff.subjectCreateByMobile, {
      subject_name: name,
      deputy_name: 'Boss',
    });
    expect(created.body.message, 'fixture: create subject').toBe('success');
    const subject = created.body.data.sec_subject_uid as string;
    const { id, user_id } = await server.app.db
      .selectFrom('deputies')
      .select(['id', 'user_id'])
      .where('subject_id', '=', subject)
      .executeTakeFirstOrThrow();
    const login = await browser.post(aff.subjectLogin, { login_subject_uid: subject, user_identity_id: id });
    expect(login.body.message, 'fixture: subject login').toBe('success');
    return { browser, subject, identity: id, userId: user_id };
  };
  const orgOf = async (browser: Browser) =>
    (await browser.get(paths.web.accountInfo)).body.data?.org?.sec_subject_uid as string | undefined;

  it('organisation mode: subject_aid leaves that organisation’s identity only; the person stays signed in', async () => {
    const { browser, subject } = await inOrganisation();
    const before = browser.cookies.get('sessionid');
    const answer = await browser.get(`${paths.web.logout}?subject_aid=${subject}&next=/after`, {
      accept: HTML,
      'sec-fetch-site': 'same-origin',
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/after');
    expect(await isSignedIn(browser)).toBe(true);
    expect(await orgOf(browser), 'back in the personal identity').toBeUndefined();
    // Leaving is a sign-in by the session itself: a new session token, the old one dead.
    expect(browser.cookies.get('sessionid')).not.toBe(before);
  });

  it('organisation mode: a session acting for another organisation, or as the person, is left as it is', async () => {
    const { browser, subject } = await inOrganisation();
    const other = await inOrganisation('Other Ltd');
    for (const named of [other.subject, 'no-such-organisation']) {
      const answer = await browser.post(`${paths.web.logout}?subject_aid=${encodeURIComponent(named)}`, {});
      expect(answer.body, named).toEqual({ message: 'success', data: { next: '/' } });
      expect(await orgOf(browser), named).toBe(subject);
    }
    const personal = await signedIn();
    await personal.post(paths.web.logout, { subject_aid: subject });
    expect(await isSignedIn(personal)).toBe(true);
  });

  it('organisation mode: the POST logouts take subject_aid in the form, the confirmation page keeps the session', async () => {
    const { browser, subject } = await inOrganisation();
    const page = await browser.get(`${paths.web.logout}?subject_aid=${subject}`, { accept: HTML });
    expect(page.status).toBe(200);
    expect(await orgOf(browser)).toBe(subject);
    // The page's button posts to the same family's POST logout with the same subject_aid.
    expect(page.raw.body).toContain(`action="${paths.web.logout}?subject_aid=${subject}"`);
    const confirmed = await browser.post(`${paths.web.logout}?subject_aid=${subject}`, {});
    expect(confirmed.status).toBe(200);
    expect(await isSignedIn(browser)).toBe(true);
    expect(await orgOf(browser)).toBeUndefined();
    // The sso flavour's POST logout takes it in the form.
    const again = await inOrganisation();
    const left = await again.browser.post(paths.sso.logout, { subject_aid: again.subject });
    expect(left.status).toBe(200);
    expect(await isSignedIn(again.browser)).toBe(true);
    expect(await orgOf(again.browser)).toBeUndefined();
    // Regression: an empty subject_aid in the query took the place of the form's, and the person was
    // signed out altogether. Empty is not given, on every POST logout: the form's value holds.
    for (const post of [paths.web.logout, paths.sso.logout]) {
      const emptied = await inOrganisation();
      const answer = await emptied.browser.post(`${post}?subject_aid=`, { subject_aid: emptied.subject });
      expect(answer.status, post).toBe(200);
      expect(await isSignedIn(emptied.browser), post).toBe(true);
      expect(await orgOf(emptied.browser), post).toBeUndefined();
    }
    // Without subject_aid a logout signs out, as ever.
    await browser.post(paths.web.logout, {});
    expect(await isSignedIn(browser)).toBe(false);
  });

  /** The stored session of a browser's cookie. */
  const sessionOf = (browser: Browser) =>
    server.app.db
      .selectFrom('sessions')
      .select(['absolute_expires_at', 'deputy_id'])
      .where('token_hash', '=', sha256(browser.cookies.get('sessionid') ?? ''))
      .executeTakeFirst();

  // Regression: a switch or a leave (a sign-in by the session itself) deleted the old session without
  // looking whether it was still there, so a revocation that committed after the request's session was
  // read (a password reset, "sign out everywhere") was undone by the fresh session it issued.
  it('organisation mode: a switch or a leave whose session was revoked after the request arrived signs nobody in', async () => {
    const sqlite = server.app.database.sqlite;
    if (!sqlite) throw new Error('this test revokes through the SQLite connection, outside any transaction');
    const revokeAll = sqlite.prepare('delete from sessions where user_id = ?');
    const { devices } = server.app;
    const presented = devices.presented;
    for (const how of ['switch', 'leave'] as const) {
      const { browser, subject, userId } = await inOrganisation();
      // What the adapter reads after the session check and before the operation's transaction: the
      // revocation commits there.
      devices.presented = (request) => {
        revokeAll.run(userId);
        return presented.call(devices, request);
      };
      try {
        const answer =
          how === 'switch'
            ? await browser.post(aff.memberSwitch, { to_sec_member_id: '0' })
            : await browser.post(`${paths.web.logout}?subject_aid=${subject}`, {});
        // NOT_LOGGED_IN, at the status the error catalogue fixes for it.
        expect(answer.body.data.error_code, how).toBe(ErrorCode.notLoggedIn);
        expect(answer.status, how).toBe(200);
      } finally {
        devices.presented = presented;
      }
      expect(await sessionCount(server, userId), how).toBe(0);
      expect(await isSignedIn(browser), how).toBe(false);
    }
  });

  // Regression: each sign-in by the session itself started a new absolute lifetime, so a stolen cookie
  // alternating a switch and a leave lived for ever (SECURITY.md: idle and absolute timeouts).
  it('organisation mode: a switch and a leave keep the session’s absolute expiry', async () => {
    const { browser, subject, identity } = await inOrganisation();
    const first = await sessionOf(browser);
    expect(first?.deputy_id).toBe(identity);
    const { runtime } = server.app;
    const now = runtime.now;
    runtime.now = () => now() + 60_000;
    try {
      await browser.post(`${paths.web.logout}?subject_aid=${subject}`, {});
      expect(await sessionOf(browser)).toEqual({ ...first, deputy_id: null });
      const switched = await browser.post(aff.memberSwitch, { to_sec_member_id: identity });
      expect(switched.body.message).toBe('success');
      expect(await sessionOf(browser)).toEqual(first);
    } finally {
      runtime.now = now;
    }
  });

  // Regression: the page a subject_aid link gets asked "Sign out?", though confirming only leaves the
  // organisation's identity.
  it('organisation mode: the confirmation page says which identity is left and that the person stays signed in', async () => {
    const { browser, subject } = await inOrganisation('Harbour & Co');
    const zh = (await browser.get(`${paths.web.logout}?subject_aid=${subject}`, { accept: HTML })).raw.body;
    expect(zh).toContain('<h1>不再以 Boss（Harbour &#38; Co）的身份操作？</h1>');
    expect(zh).toContain('不再以 Boss（Harbour &#38; Co）的身份操作，回到个人身份');
    expect(zh).toContain('<button type="submit">回到个人身份</button>');
    expect(zh).toContain('<h2>Stop acting as Boss (Harbour &#38; Co)?</h2>');
    expect(zh).toContain('stop acting as Boss (Harbour &#38; Co) and go back to your personal identity');
    expect(zh).not.toMatch(/退出登录|Sign out/);
    const en = (await browser.get(`${paths.web.logout}?subject_aid=${subject}&language=en`)).raw.body;
    expect(en.indexOf('Stop acting as')).toBeLessThan(en.indexOf('不再以'));
    // Not the words of quitting the organisation ("Leave “X”?" / 退出组织), which this is not.
    expect(zh).not.toMatch(/Leave|离开你在/);
    expect(await orgOf(browser)).toBe(subject);

    // An organisation the session does not act for (another, one that names none, or the person's own
    // identity): the page says nothing changes, names no organisation and offers nothing to confirm.
    const other = await inOrganisation('Other Ltd');
    const personal = await signedIn();
    for (const [who, named] of [
      [browser, other.subject],
      [browser, 'no-such-organisation'],
      [personal, subject],
      [server.browser(), subject],
    ] as const) {
      const page = (await who.get(`${paths.web.logout}?subject_aid=${encodeURIComponent(named)}&next=/after`))
        .raw.body;
      expect(page, named).toContain('<h1>没有要离开的组织身份</h1>');
      expect(page, named).toContain('<h2>No organisation identity to leave</h2>');
      expect(page, named).toContain('<a class="button" href="/after">继续</a>');
      expect(page, named).not.toMatch(/<form|Harbour|Other Ltd|退出登录|Sign out/);
      // Said to someone signed out too: nothing about a sign-in that stays.
      expect(page, named).not.toMatch(/sign-in stays|登录保持/);
    }
    expect(await orgOf(browser)).toBe(subject);
    expect(await isSignedIn(personal)).toBe(true);
  });

  // Regression: `/sso/logout` (a service's "sign out" link) ignored subject_aid: it signed the person
  // out altogether, or asked "Sign out?". Every GET logout leaves only the organisation it names.
  it.each(LOGOUTS)(
    'organisation mode: $get with subject_aid leaves that identity only, at once or from its page',
    async ({ get, post }) => {
      const { browser, subject } = await inOrganisation();
      const answer = await browser.get(`${get}?subject_aid=${subject}`, {
        accept: HTML,
        'sec-fetch-site': 'same-origin',
      });
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe('/');
      expect(await isSignedIn(browser), 'still signed in').toBe(true);
      expect(await orgOf(browser), 'back in the personal identity').toBeUndefined();

      for (const headers of [{}, { 'sec-fetch-site': 'same-site' }] as Record<string, string>[]) {
        const how = JSON.stringify(headers);
        const again = await inOrganisation('Harbour & Co');
        const page = (
          await again.browser.get(`${get}?subject_aid=${again.subject}`, { accept: HTML, ...headers })
        ).raw.body;
        expect(page, how).toContain('<h1>不再以 Boss（Harbour &#38; Co）的身份操作？</h1>');
        expect(page, how).toContain('<h2>Stop acting as Boss (Harbour &#38; Co)?</h2>');
        expect(page, how).not.toMatch(/退出登录|Sign out/);
        expect(page, how).toContain(`action="${post}?subject_aid=${again.subject}"`);
        expect(await orgOf(again.browser), how).toBe(again.subject);
        // The page's button leaves the identity, nothing more.
        expect((await again.browser.post(`${post}?subject_aid=${again.subject}`, {})).status, how).toBe(200);
        expect(await isSignedIn(again.browser), how).toBe(true);
        expect(await orgOf(again.browser), how).toBeUndefined();
      }
    },
  );

  it.each(LOGOUTS)(
    'organisation mode: $get naming an organisation the session does not act for changes nothing and says so',
    async ({ get }) => {
      const { browser, subject } = await inOrganisation();
      const other = await inOrganisation('Other Ltd');
      for (const named of [other.subject, 'no-such-organisation']) {
        const at = `${get}?subject_aid=${encodeURIComponent(named)}`;
        const answer = await browser.get(at, { accept: HTML, 'sec-fetch-site': 'same-origin' });
        expect(answer.status, named).toBe(302);
        expect(await orgOf(browser), named).toBe(subject);
        const zh = (await browser.get(at, { accept: HTML })).raw.body;
        expect(zh, named).toContain('<h1>没有要离开的组织身份</h1>');
        expect(zh, named).toContain('<h2>No organisation identity to leave</h2>');
        expect(zh, named).not.toMatch(/<form|Other Ltd|退出登录|Sign out/);
        const en = (await browser.get(`${at}&language=en`, { accept: HTML })).raw.body;
        expect(en, named).toContain('<h1>No organisation identity to leave</h1>');
        expect(en, named).toContain('<h2>没有要离开的组织身份</h2>');
        expect(await orgOf(browser), named).toBe(subject);
      }
    },
  );

  it('keeps not_redirect=1 JSON for same-origin requests only', async () => {
    const browser = await signedIn();
    const page = await browser.get(`${paths.web.logout}?not_redirect=1&next=/x`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(await isSignedIn(browser)).toBe(true);
    const json = await browser.get(`${paths.web.logout}?not_redirect=1&next=/x`, {
      'sec-fetch-site': 'same-origin',
    });
    expect(json.body).toEqual({ message: 'success', data: { next: '/x' } });
    expect(await isSignedIn(browser)).toBe(false);
  });

  it('says it in zh first by default and en first with language=en; the destination follows the redirect rule', async () => {
    const browser = await signedIn();
    const zh = (await browser.get(`${paths.web.logout}?next=${encodeURIComponent('//evil.example/x')}`)).raw
      .body;
    expect(zh).toContain('<html lang="zh-CN">');
    expect(zh).toContain('退出登录');
    expect(zh).toContain('Sign out');
    expect(zh).toContain('data-destination="/"');
    expect(zh).not.toContain('evil.example');
    const en = (
      await browser.get(`${paths.web.logout}?language=en&next=${encodeURIComponent('/home?a=1&b=<2>')}`)
    ).raw.body;
    expect(en).toContain('<html lang="en">');
    expect(en.indexOf('Sign out?')).toBeLessThan(en.indexOf('退出登录？'));
    // Escaped for the attribute: nothing of the input leaves it.
    expect(en).toMatch(/data-destination="\/home\?a=1&#38;b=[^"<>]*"/);
    expect(en).not.toContain('<2>');
    expect(await isSignedIn(browser)).toBe(true);
  });

  it("signs out the SDK's logout() fetch from an allowed app on another origin, never a foreign one", async () => {
    const fetchFrom = (origin: string) => ({
      origin,
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'cors',
      referer: `${origin}/settings`,
    });
    const browser = await signedIn();
    const json = await browser.get(`${paths.web.logout}?not_redirect=1&next=/x`, fetchFrom(APP));
    expect(json.body).toEqual({ message: 'success', data: { next: '/x' } });
    expect(await isSignedIn(browser)).toBe(false);
    // A navigation that claims the Origin (none does) is still a navigation: the page, not a sign-out.
    const navigated = await signedIn();
    const page = await navigated.get(paths.web.logout, { ...fetchFrom(APP), 'sec-fetch-mode': 'navigate' });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(await isSignedIn(navigated)).toBe(true);
    const foreign = await signedIn();
    const refused = await foreign.get(
      `${paths.web.logout}?not_redirect=1`,
      fetchFrom('https://evil.example.net'),
    );
    expect(refused.status).toBe(403);
    expect(await isSignedIn(foreign)).toBe(true);
  });

  it('still refuses a cross-site navigation from a foreign page with 403', async () => {
    const browser = await signedIn();
    const forged = await browser.get(paths.web.logout, {
      'sec-fetch-site': 'cross-site',
      referer: 'https://evil.example.net/',
    });
    expect(forged.status).toBe(403);
    expect(forged.body.data.error_code).toBe(ErrorCode.csrfFailed);
    expect(await isSignedIn(browser)).toBe(true);
  });
});
