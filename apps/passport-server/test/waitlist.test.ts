import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, EmailCodeType, ErrorCode, paths } from '../src/protocol';
import { WAITLIST_ADMIT_PATH, WAITLIST_LIST_PATH } from '../src/routes/app/waitlist';
import { emailCode, mobileCode, mobileTicket, passCooldown, signInBySms } from './support/flows';
import { type Browser, freshEmail, freshMobile, startServer, type TestServer } from './support/server';

/**
 * Issue 18, the waitlist: with WAITLIST on, a new account needs an operator's admission; people join
 * with a verified mobile or e-mail, see their place, are admitted with a single-use sign-up link and
 * register with it; existing accounts are unaffected.
 */

let server: TestServer;
let operator: Browser;
let member: Browser;

beforeAll(async () => {
  server = await startServer(
    { waitlist: true },
    { limits: { sendCooldownMs: 5, waitlistSubmitsPerIpPerHour: 6, challengeAfterIpFailures: 3 } },
  );
  // The operator and a member have accounts from before the waitlist was turned on.
  server.app.config.waitlist = false;
  operator = server.browser();
  server.app.config.operators.push((await signInBySms(server, operator)).userId);
  member = server.browser();
  await signInBySms(server, member);
  server.app.config.waitlist = true;
});
afterAll(async () => server.close());

/** Joins the waitlist with a mobile (or an e-mail) and its register code. */
async function join(browser: Browser, target: { mobile?: string; email?: string }, note?: string) {
  const code = target.mobile
    ? await mobileCode(server, browser, target.mobile, CodeType.register)
    : await emailCode(server, browser, target.email ?? '', EmailCodeType.register);
  await passCooldown();
  return browser.post(paths.app.SubmitWaitList, { ...target, code, ...(note ? { note } : {}) });
}

/** The sign-up link in the newest message to a mobile or e-mail. */
async function linkFor(to: string): Promise<string> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  const text: string = response.json().data.messages[0]?.text ?? '';
  const link = text.match(/https?:\/\/\S+waitlist_token=[A-Za-z0-9_-]+/)?.[0];
  if (!link) throw new Error(`no sign-up link was sent to ${to}: ${text}`);
  return link;
}

async function entryIdOf(target: string): Promise<string> {
  const row = await server.app.db
    .selectFrom('waitlist_entries')
    .select('id')
    .where('target', '=', target)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('/CheckWaitListEnable', () => {
  it('answers whether the waitlist is on', async () => {
    expect((await server.browser().get(paths.app.CheckWaitListEnable)).body).toEqual({
      message: 'success',
      data: { enable: true },
    });
    server.app.config.waitlist = false;
    try {
      expect((await server.browser().get(paths.app.CheckWaitListEnable)).body.data.enable).toBe(false);
      const off = await server
        .browser()
        .post(paths.app.SubmitWaitList, { mobile: freshMobile(), code: '123456' });
      expect(off.body.data.error_code).toBe(ErrorCode.waitlistOff);
    } finally {
      server.app.config.waitlist = true;
    }
    expect((await server.browser().get(`${paths.app.CheckWaitListEnable}?token=nope`)).body.data).toEqual({
      enable: true,
      admission: 'unknown',
    });
  });
});

describe('/SubmitWaitList', () => {
  it('takes a verified mobile with a note and answers the place; joining again keeps the place', async () => {
    const first = freshMobile();
    const second = freshEmail();
    const a = await join(server.browser(), { mobile: first }, 'a designer');
    expect(a.body.message).toBe('success');
    expect(a.body.data.state).toBe('waiting');
    const b = await join(server.browser(), { email: second });
    expect(b.body.data.position).toBe(a.body.data.position + 1);
    expect(b.body.data.waiting).toBe(a.body.data.waiting + 1);
    const again = await join(server.browser(), { mobile: first });
    expect(again.body.data.position).toBe(a.body.data.position);
    expect(again.body.data.joined_at).toBe(a.body.data.joined_at);
    const rows = await server.app.db
      .selectFrom('waitlist_entries')
      .selectAll()
      .where('target', '=', first)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.note).toBe('a designer');
  });

  it('refuses a wrong code, a missing identifier, a long note and an identifier that has an account', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await mobileCode(server, browser, mobile, CodeType.register);
    const wrong = await browser.post(paths.app.SubmitWaitList, { mobile, code: '000000' });
    expect([ErrorCode.codeWrong, ErrorCode.codeExpired]).toContain(wrong.body.data.error_code);
    expect(
      await server.app.db.selectFrom('waitlist_entries').select('id').where('target', '=', mobile).execute(),
    ).toEqual([]);
    // A login code is not a register code.
    const other = freshMobile();
    const loginCode = await mobileCode(server, server.browser(), other, CodeType.mobileLogin);
    const purpose = await server.browser().post(paths.app.SubmitWaitList, { mobile: other, code: loginCode });
    expect(purpose.body.data.error_code).toBe(ErrorCode.codeExpired);
    expect(
      (await server.browser().post(paths.app.SubmitWaitList, { code: '123456' })).body.data.error_code,
    ).toBe(ErrorCode.identifierRequired);
    const long = await server
      .browser()
      .post(paths.app.SubmitWaitList, { mobile, code: '123456', note: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    const existing = await member.get(paths.web.accountInfo);
    const memberMobile = existing.body.data.mobile as string;
    expect(memberMobile).toBeTruthy();
    const row = await server.app.db
      .selectFrom('users')
      .select('mobile')
      .where('id', '=', existing.body.data.user_id)
      .executeTakeFirstOrThrow();
    const taken = await join(server.browser(), { mobile: row.mobile ?? '' });
    expect(taken.body.data.error_code).toBe(ErrorCode.waitlistAccountExists);
  });

  it('is rate-limited per address', async () => {
    const browser = server.browser();
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const answer = await browser.post(paths.app.SubmitWaitList, { code: '123456' });
      codes.push(answer.body.data.error_code);
    }
    expect(codes.slice(0, 6).every((code) => code === ErrorCode.identifierRequired)).toBe(true);
    expect(codes[6]).toBe(ErrorCode.rateLimited);
  });

  it('puts a challenge in front of an address that keeps guessing codes', async () => {
    const browser = server.browser();
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const mobile = freshMobile();
      await mobileCode(server, browser, mobile, CodeType.register);
      answers.push(
        (await browser.post(paths.app.SubmitWaitList, { mobile, code: '000000' })).body.data.error_code,
      );
      await passCooldown();
    }
    expect(answers).toContain(ErrorCode.challengeRequired);
  });
});

describe('registration while WAITLIST is on', () => {
  it('sends a person who was not admitted to the waitlist, and lets existing accounts sign in', async () => {
    const mobile = freshMobile();
    const browser = server.browser();
    const code = await mobileCode(server, browser, mobile, CodeType.mobileLogin);
    const login = await browser.post(paths.web.smsLogin, { mobile, code });
    expect(login.body.data.error_code).toBe(ErrorCode.waitlistRequired);
    expect(login.body.data.waitlist).toBe('/join-waitlist');
    expect(await server.app.accounts.find({ kind: 'mobile', value: mobile })).toBeUndefined();

    await passCooldown();
    const ticket = await mobileTicket(server, browser, mobile, CodeType.register);
    const register = await browser.post(paths.passport.mobileRegister, { mobile, verify_ticket: ticket });
    expect(register.body.data.error_code).toBe(ErrorCode.waitlistRequired);

    // Waiting is not admitted.
    await passCooldown();
    await join(server.browser(), { mobile });
    await passCooldown();
    const again = await browser.post(paths.web.smsLogin, {
      mobile,
      code: await mobileCode(server, browser, mobile, CodeType.mobileLogin),
    });
    expect(again.body.data.error_code).toBe(ErrorCode.waitlistRequired);

    // An account from before signs in as ever.
    const existing = (await member.get(paths.web.accountInfo)).body.data;
    const row = await server.app.db
      .selectFrom('users')
      .select('mobile')
      .where('id', '=', existing.user_id)
      .executeTakeFirstOrThrow();
    const old = server.browser();
    await passCooldown();
    const oldLogin = await old.post(paths.web.smsLogin, {
      mobile: row.mobile ?? '',
      code: await mobileCode(server, old, row.mobile ?? '', CodeType.mobileLogin),
    });
    expect(oldLogin.body.message).toBe('success');
  });
});

describe('the operator', () => {
  it('is the only one who sees the list and admits', async () => {
    expect((await server.browser().get(WAITLIST_LIST_PATH)).body.data.error_code).toBe(ErrorCode.notLoggedIn);
    expect((await member.get(WAITLIST_LIST_PATH)).body.data.error_code).toBe(ErrorCode.notAnOperator);
    expect((await member.post(WAITLIST_ADMIT_PATH, { id: 'x' })).body.data.error_code).toBe(
      ErrorCode.notAnOperator,
    );
  });

  it('sees the list oldest first with masked identifiers, admits, and the person registers with the link once', async () => {
    const mobile = freshMobile();
    await join(server.browser(), { mobile }, 'let me in');
    const list = (await operator.get(`${WAITLIST_LIST_PATH}?state=waiting&page_size=100`)).body.data;
    const entry = list.entries.find((e: { note: string; target: string }) => e.note === 'let me in');
    expect(entry).toBeTruthy();
    expect(entry.target).not.toBe(mobile);
    expect(entry.target).toContain('*');
    const times = list.entries.map((e: { joined_at: number }) => e.joined_at);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const id = await entryIdOf(mobile);
    expect((await operator.post(WAITLIST_ADMIT_PATH, { id })).body.message).toBe('success');
    expect((await operator.post(WAITLIST_ADMIT_PATH, { id })).body.data.error_code).toBe(
      ErrorCode.waitlistAlreadyAdmitted,
    );
    expect((await operator.post(WAITLIST_ADMIT_PATH, { id: 'nobody' })).body.data.error_code).toBe(
      ErrorCode.waitlistEntryNotFound,
    );
    const link = new URL(await linkFor(mobile));
    expect(link.pathname).toBe('/sign-up');
    const token = link.searchParams.get('waitlist_token') ?? '';
    const check = () => server.browser().get(`${paths.app.CheckWaitListEnable}?token=${token}`);
    expect((await check()).body.data.admission).toBe('admitted');
    // The place of an admitted person is 0.
    expect((await join(server.browser(), { mobile })).body.data).toMatchObject({
      state: 'admitted',
      position: 0,
    });

    const person = server.browser();
    await passCooldown();
    const ticket = await mobileTicket(server, person, mobile, CodeType.register);
    const register = await person.post(paths.passport.mobileRegister, { mobile, verify_ticket: ticket });
    expect(register.body.message).toBe('success');
    expect((await check()).body.data.admission).toBe('registered');
    const state = await server.app.db
      .selectFrom('waitlist_entries')
      .select('state')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(state.state).toBe('registered');
  });

  it('admits by e-mail: the link arrives by e-mail and an e-mail code sign-in creates the account', async () => {
    const email = freshEmail();
    await join(server.browser(), { email });
    expect((await operator.post(WAITLIST_ADMIT_PATH, { id: await entryIdOf(email) })).body.message).toBe(
      'success',
    );
    expect(await linkFor(email)).toContain('/sign-up?waitlist_token=');
    const person = server.browser();
    await passCooldown();
    const code = await emailCode(server, person, email, CodeType.emailLogin);
    const login = await person.post(paths.web.emailCodeLogin, { email, code });
    expect(login.body.message).toBe('success');
    expect(login.body.data.new_user).toBe(true);
  });

  it('lists admitted and registered entries apart', async () => {
    const registered = (await operator.get(`${WAITLIST_LIST_PATH}?state=registered`)).body.data;
    expect(registered.total).toBeGreaterThanOrEqual(2);
    expect(registered.entries.every((e: { state: string }) => e.state === 'registered')).toBe(true);
    expect((await operator.get(`${WAITLIST_LIST_PATH}?state=nope`)).status).toBe(400);
  });
});
