import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey } from '../src/lib/ip';
import { CodeType, ErrorCode, mixEncode } from '../src/protocol';
import { backend, codeFor, freshEmail, freshMobile, startServer, type TestServer } from './support/server';

let server: TestServer;
let clock = Date.now();
beforeAll(async () => {
  server = await startServer({}, { now: () => clock });
});
afterAll(async () => server?.close());

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('one-time codes', () => {
  it('sends an SMS code and signs the number in, creating the account the first time', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const sent = await browser.post('/passport/web/send_code/', { mobile, type: CodeType.mobileLogin });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ message: 'success', data: { retry_time: 60, expires_in: 600 } });
    expect(sent.body.data.mobile).not.toContain(mobile.slice(5, 9));

    const code = await codeFor(server.app, mobile);
    expect(code).toMatch(/^[0-9]{6}$/);
    const login = await browser.post('/passport/web/sms_login/', {
      mobile,
      code,
      type: CodeType.mobileLogin,
    });
    expect(login.body).toMatchObject({ message: 'success', data: { new_user: true, has_password: false } });

    const info = await browser.get('/passport/web/account/info/');
    expect(info.body.data.user_id).toBe(login.body.data.user_id);
  });

  it('reads numbers without +country in the default region and normalises every form to E.164', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const local = `${mobile.slice(3, 6)} ${mobile.slice(6, 10)}-${mobile.slice(10)}`;
    await browser.post('/passport/web/send_code/', { mobile: local, type: CodeType.mobileLogin });
    const code = await codeFor(server.app, mobile);
    const login = await browser.post('/passport/web/sms_login/', { mobile: `0086${mobile.slice(3)}`, code });
    expect(login.body.message).toBe('success');
  });

  it('refuses a number that is not a valid mobile number', async () => {
    const answer = await server.browser().post('/passport/web/send_code/', { mobile: '12345', type: 24 });
    expect(answer.body.data.error_code).toBe(ErrorCode.invalidMobile);
  });

  it('decodes mix_mode fields before validating them', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const sent = await browser.post('/passport/web/send_code/', {
      mobile: mixEncode(mobile),
      type: mixEncode('24'),
      mix_mode: 1,
    });
    expect(sent.body.message).toBe('success');
    const code = await codeFor(server.app, mobile);
    const login = await browser.post('/passport/web/sms_login/', {
      mobile: mixEncode(mobile),
      code: mixEncode(code),
      type: mixEncode('24'),
      mix_mode: 1,
    });
    expect(login.body.message).toBe('success');
  });

  it('answers 400 when a mix_mode field is not a mixed value', async () => {
    const answer = await server
      .browser()
      .post('/passport/web/send_code/', { mobile: 'zz', type: '3731', mix_mode: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body.data.error_code).toBe(ErrorCode.invalidParam);
  });

  it('sends an e-mail code and signs the address in, trimmed and lower-cased', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const sent = await browser.post('/passport/web/email/send_code/', {
      email: `  ${email.toUpperCase()} `,
      type: CodeType.emailLogin,
    });
    expect(sent.body.message).toBe('success');
    const code = await codeFor(server.app, email);
    const login = await browser.post('/passport/web/email/code_login/', {
      email,
      code,
      type: CodeType.emailLogin,
    });
    expect(login.body).toMatchObject({ message: 'success', data: { new_user: true } });
    expect(login.body.data.email).toMatch(/^u\*\*\*@example\.com$/);
  });

  it('kills a code after five wrong guesses, even for the right value', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    for (let i = 0; i < 5; i++) {
      const guess = await browser.post('/passport/web/sms_login/', { mobile, code: wrong(code), type: 24 });
      expect(guess.body.data.error_code).toBe(ErrorCode.codeWrong);
    }
    const right = await browser.post('/passport/web/sms_login/', { mobile, code, type: 24 });
    expect(right.body.data.error_code).toBe(ErrorCode.codeTooManyAttempts);
  });

  it('does not let parallel wrong guesses race past the limit', async () => {
    const mobile = freshMobile();
    const asker = server.browser();
    await asker.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    // A stranger's code is guessed only by the client that asked for it: 30 requests of that client.
    const browsers = Array.from({ length: 30 }, () => asker.twin());
    const guesses = await Promise.all(
      browsers.map((b, i) =>
        b.post('/passport/web/sms_login/', {
          mobile,
          code: String((Number(code) + 1 + i) % 1e6).padStart(6, '0'),
        }),
      ),
    );
    expect(guesses.filter((g) => g.body.data.error_code === ErrorCode.codeWrong)).toHaveLength(5);
    const right = await asker.post('/passport/web/sms_login/', { mobile, code });
    expect(right.body.data.error_code).toBe(ErrorCode.codeTooManyAttempts);
  });

  it('lets exactly one of 30 concurrent requests with the right code sign in', async () => {
    const mobile = freshMobile();
    const asker = server.browser();
    await asker.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    const browsers = Array.from({ length: 30 }, () => asker.twin());
    const answers = await Promise.all(
      browsers.map((b) => b.post('/passport/web/sms_login/', { mobile, code })),
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

  it('uses a code once', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    expect((await browser.post('/passport/web/sms_login/', { mobile, code })).body.message).toBe('success');
    const again = await server.browser().post('/passport/web/sms_login/', { mobile, code });
    expect(again.body.data.error_code).toBe(ErrorCode.codeExpired);
  });

  it('binds a code to its purpose: a type-24 code never serves type 1 or type 7', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: CodeType.mobileLogin });
    const code = await codeFor(server.app, mobile);
    const asRegister = await browser.post('/passport/web/sms_login/', {
      mobile,
      code,
      type: CodeType.register,
    });
    expect(asRegister.body.data.error_code).toBe(ErrorCode.codeTypeInvalid);
    const asLogin7 = await browser.post('/passport/web/sms_login/', { mobile, code, type: CodeType.login });
    expect(asLogin7.body.data.error_code).toBe(ErrorCode.codeExpired);
    const rightPurpose = await browser.post('/passport/web/sms_login/', {
      mobile,
      code,
      type: CodeType.mobileLogin,
    });
    expect(rightPurpose.body.message).toBe('success');
  });

  it('binds a code to its target: another number cannot use it', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const other = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    const answer = await browser.post('/passport/web/sms_login/', { mobile: other, code });
    expect(answer.body.data.error_code).toBe(ErrorCode.codeExpired);
  });

  it('expires a code after ten minutes', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    clock += 10 * 60_000 + 1;
    const answer = await browser.post('/passport/web/sms_login/', { mobile, code });
    expect(answer.body.data.error_code).toBe(ErrorCode.codeExpired);
  });

  it('refuses a resend within 60 seconds and says when to retry', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    expect((await browser.post('/passport/web/send_code/', { mobile, type: 24 })).body.message).toBe(
      'success',
    );
    const again = await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    expect(again.body.data.error_code).toBe(ErrorCode.codeCooldown);
    expect(again.body.data.retry_time).toBeGreaterThan(55);
    expect(again.body.data.retry_time).toBeLessThanOrEqual(60);
    const otherPurpose = await browser.post('/passport/web/send_code/', { mobile, type: CodeType.register });
    expect(otherPurpose.body.data.error_code).toBe(ErrorCode.codeCooldown);
  });

  it('keeps a cooldown per purpose for the account’s own sends: one verification never holds back another', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: CodeType.mobileLogin });
    const signedIn = await browser.post('/passport/web/sms_login/', {
      mobile,
      code: await codeFor(server.app, mobile),
      type: CodeType.mobileLogin,
    });
    expect(signedIn.body.message).toBe('success');
    // Signed in, the person verifies themself (a second verification) and then changes the password:
    // two purposes, two codes to their own number within the minute.
    const verify = await browser.post('/passport/web/send_code/', { mobile, type: CodeType.oldMobile });
    expect(verify.body).toMatchObject({ message: 'success', data: { retry_time: 60 } });
    const change = await browser.post('/passport/web/send_code/', { mobile, type: CodeType.changePassword });
    expect(change.body).toMatchObject({ message: 'success', data: { retry_time: 60 } });
    // The same purpose again still waits.
    const again = await browser.post('/passport/web/send_code/', { mobile, type: CodeType.oldMobile });
    expect(again.body.data.error_code).toBe(ErrorCode.codeCooldown);
  });

  // Redis expires keys on its own clock, which the test clock cannot move.
  it.skipIf(backend === 'redis')('counts the cooldown down and lifts it after 60 seconds', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    expect((await browser.post('/passport/web/send_code/', { mobile, type: 24 })).body.message).toBe(
      'success',
    );
    clock += 20_000;
    const again = await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    expect(again.body.data).toMatchObject({ error_code: ErrorCode.codeCooldown, retry_time: 40 });
    clock += 40_000;
    expect((await browser.post('/passport/web/send_code/', { mobile, type: 24 })).body.message).toBe(
      'success',
    );
  });

  it('stores codes only as keyed hashes', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    const rows = await server.app.db
      .selectFrom('one_time_codes')
      .selectAll()
      .where('target', '=', mobile)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('needs a session to send a code for a signed-in purpose', async () => {
    const answer = await server
      .browser()
      .post('/passport/web/send_code/', { mobile: freshMobile(), type: CodeType.oldMobile });
    expect(answer.body.data.error_code).toBe(ErrorCode.notLoggedIn);
    const unknown = await server
      .browser()
      .post('/passport/web/send_code/', { mobile: freshMobile(), type: 999 });
    expect(unknown.body.data.error_code).toBe(ErrorCode.codeTypeInvalid);
  });

  it('signs in only existing accounts through sms_login_only, after the code is verified', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    const unknown = await browser.post('/passport/web/sms_login_only/', { mobile, code });
    expect(unknown.body.data.error_code).toBe(ErrorCode.accountNotFound);
    const users = await server.app.db.selectFrom('users').select('id').where('mobile', '=', mobile).execute();
    expect(users).toHaveLength(0);
  });
});

describe('resends and send caps', () => {
  // A 200 ms cooldown, so resends work on every backend: the test clock moves the database store,
  // real time moves Redis.
  let capped: TestServer;
  let now = Date.now();
  const passCooldown = async () => {
    now += 61_000;
    await new Promise((resolve) => setTimeout(resolve, 220));
  };
  beforeAll(async () => {
    capped = await startServer(
      {},
      { now: () => now, limits: { sendCooldownMs: 200, sendPerTargetPerHour: 3, sendPerIpPerHour: 4 } },
    );
  });
  afterAll(async () => capped?.close());

  it('signs the same number into the same account the second time', async () => {
    const mobile = freshMobile();
    const first = capped.browser();
    await first.post('/passport/web/send_code/', { mobile, type: CodeType.mobileLogin });
    const one = await first.post('/passport/web/sms_login/', {
      mobile,
      code: await codeFor(capped.app, mobile),
    });
    await passCooldown();
    const second = capped.browser();
    await second.post('/passport/web/send_code/', { mobile, type: CodeType.mobileLogin });
    const two = await second.post('/passport/web/sms_login/', {
      mobile,
      code: await codeFor(capped.app, mobile),
    });
    expect(two.body.data).toMatchObject({ user_id: one.body.data.user_id, new_user: false });
  });

  it('supersedes the old code on resend and carries its wrong-guess count over', async () => {
    const browser = capped.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const first = await codeFor(capped.app, mobile);
    for (let i = 0; i < 4; i++)
      await browser.post('/passport/web/sms_login/', { mobile, code: wrong(first) });
    await passCooldown();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const second = await codeFor(capped.app, mobile);
    expect(
      (await browser.post('/passport/web/sms_login/', { mobile, code: first })).body.data.error_code,
    ).toBe(first === second ? ErrorCode.codeTooManyAttempts : ErrorCode.codeWrong);
    const last = await browser.post('/passport/web/sms_login/', { mobile, code: second });
    expect(last.body.data.error_code).toBe(ErrorCode.codeTooManyAttempts);
    await passCooldown();
    const blocked = await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    expect(blocked.body.data.error_code).toBe(ErrorCode.codeTooManyAttempts);
  });

  it('caps sends per target for each address, and past the number’s hourly count slows everyone else down', async () => {
    const mobile = freshMobile();
    const browser = capped.browser();
    for (let i = 0; i < 3; i++) {
      expect((await browser.post('/passport/web/send_code/', { mobile, type: 24 })).body.message).toBe(
        'success',
      );
      await passCooldown();
    }
    const fourth = await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    expect(fourth.body.data.error_code).toBe(ErrorCode.codeSendLimit);
    // Another address (the owner on a new device, say) is not refused: it waits twice the cooldown.
    const other = await capped.browser().post('/passport/web/send_code/', { mobile, type: 24 });
    expect(other.body.message, JSON.stringify(other.body)).toBe('success');
    const until = await capped.app.store.get(`send:cooldown:mobile:${mobile}`);
    expect(Number(until) - now).toBe(400);
  });

  it('caps sends per IPv6 /64, whatever textual form or interface id the address takes', async () => {
    const addresses = [
      '2001:db8:1:2::1',
      '2001:0DB8:0001:0002:0000:0000:0000:0002',
      '2001:db8:1:2:ffff::3',
      '2001:db8:1:2:0:0:0:7',
      '2001:db8:1:2::4',
    ];
    const answers = [];
    for (const address of addresses) {
      const browser = capped.browser();
      browser.remoteAddress = address;
      answers.push(await browser.post('/passport/web/send_code/', { mobile: freshMobile(), type: 24 }));
    }
    expect(answers.slice(0, 4).map((a) => a.body.message)).toEqual([
      'success',
      'success',
      'success',
      'success',
    ]);
    expect(answers[4]?.status).toBe(429);
    expect(answers[4]?.body.data.error_code).toBe(ErrorCode.rateLimited);

    const neighbour = capped.browser();
    neighbour.remoteAddress = '2001:db8:1:3::1';
    expect(
      (await neighbour.post('/passport/web/send_code/', { mobile: freshMobile(), type: 24 })).body.message,
    ).toBe('success');
  });
});

// ALLOWED_REGIONS (src/domain/accounts/targets.ts): the countries whose mobile numbers the server takes,
// by libphonenumber's country of the number, not its calling code (+44 7911 is Guernsey, +1 416 Canada).
// Unset, every country is allowed.
describe('the per-country allow-list', () => {
  const foreign = [
    ['France', '+33 6 12 34 56 78', '+33612345678'],
    ['Canada (+1, as the US)', '001 416 555 0123', '+14165550123'],
    ['Guernsey (+44, as GB)', '+44 (0)7911 123456', '+447911123456'],
  ] as const;
  let listed: TestServer;
  beforeAll(async () => {
    listed = await startServer({ allowedRegions: ['CN', 'GB'] });
  });
  afterAll(async () => listed?.close());

  const outboxFor = async (app: TestServer['app'], to: string) =>
    (await app.inject({ method: 'GET', url: `/dev/outbox/messages?to=${encodeURIComponent(to)}` })).json()
      .data.messages as unknown[];

  it('sends to every country when ALLOWED_REGIONS is unset', async () => {
    for (const [country, typed, e164] of foreign) {
      const sent = await server.browser().post('/passport/web/send_code/', { mobile: typed, type: 24 });
      expect(sent.body.message, country).toBe('success');
      expect(await outboxFor(server.app, e164), country).toHaveLength(1);
    }
  });

  it('refuses a number of another country with REGION_NOT_ALLOWED: no send, no cooldown, no count', async () => {
    const browser = listed.browser();
    for (const [country, typed, e164] of foreign) {
      const refused = await browser.post('/passport/web/send_code/', { mobile: typed, type: 24 });
      // A business refusal of this protocol: HTTP 200 with the error envelope (docs/protocol.md, 1308).
      expect(refused.status, country).toBe(200);
      expect(refused.body, country).toEqual({
        message: 'error',
        data: { error_code: ErrorCode.regionNotAllowed, description: expect.stringMatching(/.+/) },
      });
      expect(await outboxFor(listed.app, e164), country).toEqual([]);
      expect(await listed.app.store.get(`send:cooldown:mobile:${e164}`), country).toBeNull();
      // Nor does the code route take such a number to sign in or register with.
      const login = await browser.post('/passport/web/sms_login/', { mobile: typed, code: '123456' });
      expect(login.body.data.error_code, country).toBe(ErrorCode.regionNotAllowed);
    }
    // The refusals spent nothing of the address: its hourly send count is untouched, and it goes on to
    // send to the listed countries, a number without +country read in DEFAULT_REGION (CN) included.
    expect(await listed.app.store.count(`send:ip:${rateLimitKey(browser.remoteAddress)}`)).toBe(0);
    for (const [typed, e164] of [
      ['+44 7400 123456', '+447400123456'],
      [freshMobile().slice(3), null],
    ] as const) {
      const sent = await browser.post('/passport/web/send_code/', { mobile: typed, type: 24 });
      expect(sent.body.message, typed).toBe('success');
      if (e164) expect(await outboxFor(listed.app, e164)).toHaveLength(1);
    }
  });
});
