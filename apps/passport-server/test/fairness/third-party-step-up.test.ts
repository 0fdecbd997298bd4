import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, paths } from '../../src/protocol';
import { mobileCode, noticesTo as noticesOf } from '../support/flows';
import { startServer, type TestServer } from '../support/server';
import {
  callbackFrom,
  linkedByMobile,
  linksOf,
  personAt,
  startThirdPartyPeers,
  type ThirdPartyPeers,
} from '../support/third-party';

/**
 * Linking, switching and unlinking a third-party account add or replace a way in: past the step-up
 * window a session alone does none of them (docs/security.md, "Identifiers and verification tickets"),
 * and a link tells the account's mobile. The session's verification time is a database column, the
 * codes, tickets, pending callbacks and the notices' budget are the store's: run on every backend,
 * against the GitHub and Google peers on loopback.
 */

let peers: ThirdPartyPeers;
let server: TestServer;
/** The server's clock ahead of the real one: the test moves it past the step-up window. */
let skew = 0;
beforeAll(async () => {
  peers = await startThirdPartyPeers();
  server = await startServer(
    { oauth: peers.oauthConfig() },
    { limits: { sendCooldownMs: 5 }, now: () => Date.now() + skew },
  );
});
afterAll(async () => {
  await server?.close();
  await peers?.close();
});

const noticesTo = (to: string) => noticesOf(server, to);

describe('a third-party account while signed in', () => {
  it('linking, switching and unlinking need a step-up past the window; the same callback links after auth/verify, and the mobile hears of each link', async () => {
    const { browser, who, mobile, userId } = await linkedByMobile(server, peers, 'github');
    const window = server.app.runtime.limits.stepUpMaxAgeMs;
    const verifyByMobile = async () => {
      const code = await mobileCode(server, browser, mobile, CodeType.oldMobile);
      const verified = await browser.post(paths.web.authVerify, { mobile, code });
      expect(verified.body.message, JSON.stringify(verified.body)).toBe('success');
    };
    // The link at sign-up is part of the sign-up: no notice.
    expect(await noticesTo(mobile)).toEqual([]);
    skew += window + 60_000;

    const callback = await callbackFrom(peers, browser, 'google', personAt(peers, 'google'), '&action=bind');
    const refused = await browser.post(paths.web.authBind, callback);
    expect(refused.body.data).toMatchObject({
      error_code: ErrorCode.stepUpRequired,
      mobile: expect.stringMatching(/^\+86\*+\d{4}$/),
      has_password: false,
    });
    expect((await linksOf(server, userId)).map((l) => l.provider)).toEqual(['github']);
    // The refusal spent nothing: once the person has proven it is them, the same callback links.
    await verifyByMobile();
    const bound = await browser.post(paths.web.authBind, callback);
    expect(bound.body.message, JSON.stringify(bound.body)).toBe('success');
    expect(await noticesTo(mobile)).toEqual([expect.stringContaining('关联了 Google 账号')]);

    skew += window + 60_000;
    const unbind = await browser.post(paths.web.authUnbind, { platform_app_id: 'google' });
    expect(unbind.body.data.error_code).toBe(ErrorCode.stepUpRequired);
    const switchTo = personAt(peers, 'github');
    const switchBack = await callbackFrom(peers, browser, 'github', switchTo, '&action=switch_bind');
    const switched = await browser.post(paths.web.authSwitchBind, switchBack);
    expect(switched.body.data.error_code).toBe(ErrorCode.stepUpRequired);
    const links = await linksOf(server, userId);
    expect(links.map((l) => [l.provider, l.subject]).sort()).toEqual([
      ['github', who],
      ['google', expect.any(String)],
    ]);
    await verifyByMobile();
    expect((await browser.post(paths.web.authSwitchBind, switchBack)).body.message).toBe('success');
    expect((await browser.post(paths.web.authUnbind, { platform_app_id: 'google' })).body.message).toBe(
      'success',
    );
    expect((await linksOf(server, userId)).map((l) => [l.provider, l.subject])).toEqual([
      ['github', switchTo],
    ]);
    // The switch linked another GitHub account: a notice; the unlink took a way away: none.
    const notices = await noticesTo(mobile);
    expect(notices).toHaveLength(2);
    expect(notices).toContainEqual(expect.stringContaining('关联了 GitHub 账号'));
  });
});
