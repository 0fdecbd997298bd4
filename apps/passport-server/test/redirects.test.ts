import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REDIRECT_ALLOWED,
  REDIRECT_ORIGIN,
  REDIRECT_SPELLINGS,
} from '../../../packages/account-sdk/test/protocol/redirect-spellings';
import { CodeType, paths } from '../src/protocol';
import { emailTicket, GOOD_PASSWORD } from './support/flows';
import { freshEmail, startServer, type TestServer } from './support/server';

/**
 * Every route that sends a browser somewhere from input follows the one redirect rule: the protocol's
 * table of attacker spellings (dot segments such as `/.//evil.example`, backslashes, control characters,
 * userinfo, IDN dots, schemes in any case) gives the same answer on each, and a refused target gives the
 * default `/`, never another host.
 */
describe('redirect targets on every route that redirects', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ publicOrigin: REDIRECT_ORIGIN, allowedOrigins: [REDIRECT_ALLOWED] });
  });
  afterAll(async () => server?.close());

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
  });
});
