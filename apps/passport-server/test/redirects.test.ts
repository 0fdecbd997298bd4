import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  REDIRECT_ALLOWED,
  REDIRECT_ORIGIN,
  REDIRECT_SPELLINGS,
} from '../../../packages/account-sdk/test/protocol/redirect-spellings';
import { CodeType, paths } from '../src/protocol';
import { emailTicket, GOOD_PASSWORD, signInBySms } from './support/flows';
import { pathOf, pkce, randomState } from './support/open-auth-client';
import { type Answer, type Browser, freshEmail, startServer, type TestServer } from './support/server';

const SERVICE = 'https://svc.example.com';
const GITHUB = 'https://github.example';
const REGISTRATION_TOKEN = 'initial-access-token-0123456789abcdef';
const CALLBACK = `${REDIRECT_ALLOWED}/callback`;

/**
 * What a client can put in a request to name another host: Host itself, the de-facto forwarding
 * headers and RFC 7239's Forwarded. Sent on every request of the forged-host test; the proto headers
 * try to downgrade the https origin.
 */
const FORGED_HOST = 'forged.example';
const FORGED = {
  host: FORGED_HOST,
  'x-forwarded-host': FORGED_HOST,
  'x-forwarded-proto': 'http',
  'x-forwarded-port': '8080',
  'x-forwarded-server': FORGED_HOST,
  'x-original-host': FORGED_HOST,
  'x-host': FORGED_HOST,
  forwarded: `host=${FORGED_HOST};proto=http`,
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    publicOrigin: REDIRECT_ORIGIN,
    allowedOrigins: [REDIRECT_ALLOWED],
    // Every proxy trusted, so Fastify itself believes X-Forwarded-Host and -Proto (request.host,
    // request.protocol): the forged-host test below shows that nothing builds a target from them.
    trustProxy: true,
    ssoServices: [SERVICE],
    oauth: {
      github: {
        clientId: 'portico-github',
        clientSecret: 'github-secret-0123456789',
        baseUrl: GITHUB,
        apiUrl: 'https://api.github.example',
      },
      devOrigins: [],
    },
    openAuth: { registrationToken: REGISTRATION_TOKEN, scopes: [] },
  });
});
afterAll(async () => server?.close());

/**
 * Every route that sends a browser somewhere from input follows the one redirect rule: the protocol's
 * table of attacker spellings (dot segments such as `/.//evil.example`, backslashes, control characters,
 * userinfo, IDN dots, schemes in any case) gives the same answer on each, and a refused target gives the
 * default `/`, never another host.
 */
describe('redirect targets on every route that redirects', () => {
  // The over-long spelling is refused earlier, by the routes' schemas (a 400 envelope).
  const cases = REDIRECT_SPELLINGS.filter(([next]) => next.length <= 2048).map(([next, expected]) => ({
    next,
    expected: expected ?? '/',
  }));

  it.each([paths.web.logout, paths.sso.logout, paths.legacy.logout])(
    'GET %s redirects only where the rule allows',
    async (path) => {
      for (const { next, expected } of cases) {
        const answer = await server
          .browser()
          .get(`${path}?next=${encodeURIComponent(next)}`, { 'sec-fetch-site': 'same-origin' });
        expect(answer.status, JSON.stringify(next)).toBe(302);
        expect(answer.headers.location, JSON.stringify(next)).toBe(expected);
      }
    },
  );

  it('POST logout answers data.next by the rule', async () => {
    for (const { next, expected } of cases) {
      const answer = await server.browser().post(paths.web.logout, { next });
      expect(answer.body.data, JSON.stringify(next)).toEqual({ next: expected });
    }
  });

  it('email/register answers next_url by the rule', async () => {
    for (const { next, expected } of cases) {
      // A browser (and address) per registration, so the per-address send cap is never what answers.
      const browser = server.browser();
      const email = freshEmail();
      const ticket = await emailTicket(server, browser, email, CodeType.register);
      const answer = await browser.post(paths.web.emailRegister, {
        email,
        verify_ticket: ticket,
        password: GOOD_PASSWORD,
        next_url: next,
      });
      expect(answer.body.data.next_url, JSON.stringify(next)).toBe(expected);
    }
    // One registration (an argon2id hash) per spelling, 60 and more in a row: about 10 s on an idle
    // machine, past the suite's 20 s at load 7 (PostgreSQL). Its own bound, as the solver tests have.
  }, 120_000);
});

describe('targets never built from Host or X-Forwarded-Host', () => {
  /**
   * Every answer of every route that sends a browser somewhere, with the forged headers on: its
   * Location is a same-origin path or a URL on an origin the configuration names (PUBLIC_ORIGIN, an
   * allowed origin, a registered service, the third-party provider; the app's redirect URI is on the
   * allowed origin), and nothing in its headers or body names the forged host, or PUBLIC_ORIGIN over
   * the forged scheme.
   */
  const origins = [REDIRECT_ORIGIN, REDIRECT_ALLOWED, SERVICE, GITHUB];
  const problems: string[] = [];
  beforeEach(() => {
    problems.length = 0;
  });
  function check(what: string, answer: Answer, redirect = false) {
    const everything = `${JSON.stringify(answer.headers)} ${answer.raw.body}`;
    if (everything.toLowerCase().includes(FORGED_HOST)) problems.push(`${what}: names ${FORGED_HOST}`);
    if (everything.includes(REDIRECT_ORIGIN.replace('https:', 'http:')))
      problems.push(`${what}: names PUBLIC_ORIGIN over http`);
    const location = answer.headers.location === undefined ? undefined : String(answer.headers.location);
    if (redirect && (![302, 303].includes(answer.status) || !location))
      problems.push(`${what}: ${answer.status} without a redirect`);
    if (location === undefined) return;
    const relative = /^\/(?![/\\])/.test(location);
    const url = relative ? undefined : URL.parse(location);
    if (!relative && !(url && origins.includes(url.origin))) problems.push(`${what}: Location ${location}`);
  }
  /** A browser sending the forged headers on every request. */
  const forging = (): Browser => {
    const browser = server.browser();
    browser.headers = { ...FORGED };
    return browser;
  };
  const signedIn = async () => {
    const browser = forging();
    await signInBySms(server, browser);
    return browser;
  };
  const q = (name: string, value: string | undefined) =>
    value === undefined ? '' : `${name}=${encodeURIComponent(value)}`;
  const startsWith = (value: unknown, prefix: string) =>
    expect(String(value).slice(0, prefix.length), String(value)).toBe(prefix);
  const nexts = [
    undefined,
    '/',
    '/workbench?tab=1',
    `${REDIRECT_ALLOWED}/home`,
    `${REDIRECT_ORIGIN}/home`,
    'https://evil.example/',
  ];

  it('logout: GET in each family (redirected, or JSON with not_redirect=1) and POST', async () => {
    // The first request of each browser signs a session out, the rest find none: the target is the same.
    const same = { 'sec-fetch-site': 'same-origin' };
    for (const path of [paths.web.logout, paths.sso.logout, paths.legacy.logout]) {
      const browser = await signedIn();
      for (const next of nexts) {
        check(`GET ${path} ${next}`, await browser.get(`${path}?${q('next', next)}`, same), true);
        const json = await browser.get(`${path}?not_redirect=1&${q('next', next)}`, same);
        check(`GET ${path} ${next} not_redirect`, json);
      }
    }
    const leaving = await signedIn();
    for (const next of nexts) {
      const answer = await leaving.post(paths.web.logout, next === undefined ? {} : { next });
      check(`POST ${paths.web.logout} ${next}`, answer);
    }
    expect(problems).toEqual([]);
  });

  it('sso: a ticket to the registered service, the error page for another, logout back to the service', async () => {
    const member = await signedIn();
    for (const service of [`${SERVICE}/path?x=1`, 'https://evil.example/'])
      check(`/sso/login ${service}`, await member.get(`/sso/login?${q('service', service)}`));
    const ticket = await member.get(`/sso/login?${q('service', SERVICE)}`);
    check('/sso/login with a ticket', ticket, true);
    startsWith(ticket.headers.location, `${SERVICE}/?ticket=`);
    const leaving = await signedIn();
    const typed = { 'sec-fetch-site': 'none' };
    for (const next of [SERVICE, 'https://evil.example/', undefined])
      check(`/sso/logout ${next}`, await leaving.get(`/sso/logout?${q('next', next)}`, typed), true);
    expect(problems).toEqual([]);
  });

  it('the app flavour: wap_login, and login_success signed out, signed in and handing back', async () => {
    for (const next of nexts)
      check(
        `wap_login ${next}`,
        await forging().get(`${paths.passport.authWapLogin}?${q('next', next)}`),
        true,
      );
    const member = await signedIn();
    for (const service of [`${REDIRECT_ALLOWED}/home`, '/home', 'https://evil.example/']) {
      const success = `${paths.passport.authLoginSuccess}?${q('service', service)}`;
      check(`login_success ${service} signed out`, await forging().get(success), true);
      check(`login_success ${service}`, await member.get(success), true);
      check(`login_success ${service} hand_back`, await member.get(`${success}&hand_back=1`), true);
    }
    expect(problems).toEqual([]);
  });

  it('third-party sign-in, the QR code’s link and registration’s next_url', async () => {
    // To the provider, with the callback on PUBLIC_ORIGIN.
    const started = await forging().get(`${paths.passport.authLogin}?platform_app_id=github&next=/`);
    check('auth/login github', started, true);
    const callback = new URL(String(started.headers.location)).searchParams.get('redirect_uri');
    expect(callback).toBe(`${REDIRECT_ORIGIN}/github-oauth-callback`);
    // The link the QR code holds, which a phone opens.
    const qr = await forging().get(paths.web.getQrcode);
    check('get_qrcode', qr);
    startsWith(qr.body.data.qrcode_index_url, `${REDIRECT_ORIGIN}/`);
    // A relative next_url stays relative (one registration: each hashes a password).
    const browser = forging();
    const email = freshEmail();
    const ticket = await emailTicket(server, browser, email, CodeType.register);
    const form = { email, verify_ticket: ticket, password: GOOD_PASSWORD, next_url: '/welcome' };
    const registered = await browser.post(paths.web.emailRegister, form);
    check('email/register', registered);
    expect(registered.body.data.next_url).toBe('/welcome');
    expect(problems).toEqual([]);
  });

  it('open authorization: discovery, registration, connect, every provider hop, approval and the way back', async () => {
    for (const path of [
      '/oauth/.well-known/openid-configuration',
      '/.well-known/openid-configuration/oauth',
    ]) {
      const discovery = await forging().get(path);
      check(path, discovery);
      expect(discovery.body.issuer).toBe(`${REDIRECT_ORIGIN}/oauth`);
      expect(discovery.body.authorization_endpoint).toBe(`${REDIRECT_ORIGIN}/oauth/auth`);
    }
    const registered = await server.app.inject({
      method: 'POST',
      url: '/oauth/reg',
      headers: {
        ...FORGED,
        authorization: `Bearer ${REGISTRATION_TOKEN}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ client_name: 'Forged Host', redirect_uris: [CALLBACK] }),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.body).not.toContain(FORGED_HOST);
    const query = new URLSearchParams({
      client_key: registered.json().client_id,
      scope: 'user_info',
      state: randomState(),
      redirect_uri: CALLBACK,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    // The spec's connect redirect, then the provider's hops up to the consent page.
    const person = await signedIn();
    let answer = await person.get(`${paths.open.connect}?${query}`);
    check('open/connect', answer, true);
    let interaction: string | null = null;
    for (let hop = 1; hop <= 4 && !interaction; hop += 1) {
      const location = new URL(String(answer.headers.location), REDIRECT_ORIGIN);
      if (location.pathname === '/authorization') interaction = location.searchParams.get('interaction');
      else {
        answer = await person.get(pathOf(location));
        check(`open/connect hop ${hop} ${location.pathname}`, answer, true);
      }
    }
    expect(interaction, 'the provider sends the person to the consent page').toBeTruthy();
    const approved = await person.post(paths.open.webAuth, {
      interaction: interaction ?? '',
      approve: 1,
      scope: '',
    });
    check('open/web/auth', approved);
    startsWith(approved.body.data.redirect_url, `${REDIRECT_ORIGIN}/oauth/`);
    const back = await person.get(pathOf(approved.body.data.redirect_url));
    check('the provider back to the app', back, true);
    startsWith(back.headers.location, `${CALLBACK}?`);
    expect(new URL(String(back.headers.location)).searchParams.get('iss')).toBe(`${REDIRECT_ORIGIN}/oauth`);
    check('open/connect/resume', await forging().get(paths.open.connectResume), true);
    expect(problems).toEqual([]);
  });
});
