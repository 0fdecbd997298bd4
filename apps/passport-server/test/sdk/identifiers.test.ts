import {
  accountInfo,
  bindEmail,
  bindMobile,
  changeEmail,
  changeMobile,
  emailCodeLogin,
  legacyBindMobile,
  legacyChangeMobile,
  logout,
  mobileBind,
  mobileChange,
  passwordLogin,
  sendEmailCode,
  sendMobileCode,
  setAccount,
  setPassword,
  smsLogin,
  verifyAccount,
  verifyAuth,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, type CodeTypeValue, ErrorCode } from '../../src/protocol';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, passCooldown } from '../support/flows';
import { rejectsWith, type SdkBrowser, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshEmail, freshMobile } from '../support/server';

/**
 * Binding and changing mobile and e-mail, proving it is you while signed in, and setting a username
 * with a password (issue 14 part 2, docs/identifiers.md), end to end through the real SDK.
 */

interface Account {
  user_id: string;
  mobile: string;
  email: string;
  username: string;
  has_password: boolean;
}
interface Changed extends Account {
  kicked_sessions: number;
  moved: boolean;
}
interface Verified {
  ticket: string;
  expires_in: number;
  method: string;
  purpose: string;
}

/** The clock of the server: tests move it forward to expire a ticket. */
let skew = 0;
let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer(
    {},
    { limits: { sendCooldownMs: 5, ticketTtlMs: 120_000 }, now: () => Date.now() + skew },
  );
});
afterAll(async () => server?.close());

const uniqueName = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 10)}`;

async function mobileCode(browser: SdkBrowser, mobile: string, type: CodeTypeValue) {
  await passCooldown();
  await sendMobileCode(browser.client(), { mobile, type });
  return server.codeFor(mobile);
}

async function emailCode(browser: SdkBrowser, email: string, type: CodeTypeValue) {
  await passCooldown();
  await sendEmailCode(browser.client(), { email, type });
  return server.codeFor(email);
}

/** A browser signed in by SMS code to a new account that has only its mobile. */
async function smsAccount(mobile = freshMobile(), browser = server.sdkBrowser()) {
  const code = await mobileCode(browser, mobile, CodeType.mobileLogin);
  const account = await smsLogin<Account>(browser.client(), { mobile, code, type: CodeType.mobileLogin });
  return { browser, mobile, userId: account.user_id };
}

/** A browser signed in by e-mail code to a new account that has only its e-mail. */
async function emailAccount(email = freshEmail()) {
  const browser = server.sdkBrowser();
  const code = await emailCode(browser, email, CodeType.emailLogin);
  const account = await emailCodeLogin<Account>(browser.client(), { email, code, type: CodeType.emailLogin });
  return { browser, email, userId: account.user_id };
}

/** An SMS account with an e-mail bound too. */
async function smsAccountWithEmail() {
  const signedIn = await smsAccount();
  const email = freshEmail();
  const code = await emailCode(signedIn.browser, email, CodeType.bind);
  await bindEmail(signedIn.browser.client(), { email, code });
  return { ...signedIn, email };
}

/** The ticket of a code to the account's own mobile (type 22). */
async function ticketByMobile(browser: SdkBrowser, mobile: string, purpose?: string) {
  const code = await mobileCode(browser, mobile, CodeType.oldMobile);
  return verifyAuth<Verified>(browser.client(), { mobile, code, ...(purpose ? { purpose } : {}) });
}

describe('binding a mobile or an e-mail', () => {
  it('binds an e-mail to an SMS account with a code to it; the person then signs in with it', async () => {
    const { browser, userId } = await smsAccount();
    const email = freshEmail();
    const code = await emailCode(browser, email, CodeType.bind);
    const changed = await bindEmail<Changed>(browser.client(), { email, code });
    expect(changed).toMatchObject({
      user_id: userId,
      email: expect.stringMatching(/^u\*\*\*@example\.com$/),
    });
    expect(changed.kicked_sessions).toBe(0);
    expect((await accountInfo<Account>(browser.client())).email).toBe(changed.email);

    const elsewhere = server.sdkBrowser();
    const login = await emailCode(elsewhere, email, CodeType.emailLogin);
    const account = await emailCodeLogin<Account>(elsewhere.client(), {
      email,
      code: login,
      type: CodeType.emailLogin,
    });
    expect(account.user_id).toBe(userId);
  });

  it('binds a mobile to an e-mail account through the web, mobile and legacy paths', async () => {
    for (const call of [bindMobile, mobileBind, legacyBindMobile]) {
      const { browser, userId } = await emailAccount();
      const mobile = freshMobile();
      const code = await mobileCode(browser, mobile, CodeType.bindAlt);
      const changed = await call<Changed>(browser.client(), { mobile, code, type: CodeType.bindAlt });
      expect(changed.user_id).toBe(userId);
      expect(changed.mobile).toMatch(/^\+86\*+\d{4}$/);
    }
  });

  it('refuses a wrong code, a code of another purpose, a second bind, and no session', async () => {
    const { browser, mobile } = await smsAccount();
    const email = freshEmail();
    const code = await emailCode(browser, email, CodeType.bind);
    await rejectsWith(
      bindEmail(browser.client(), { email, code: code === '000000' ? '111111' : '000000' }),
      'codeWrong',
    );
    const login = await emailCode(browser, email, CodeType.emailLogin);
    await rejectsWith(
      bindEmail(browser.client(), { email, code: login, type: CodeType.emailLogin }),
      'codeTypeInvalid',
    );
    const other = freshMobile();
    const mobileBindCode = await mobileCode(browser, other, CodeType.bind);
    await rejectsWith(
      bindMobile(browser.client(), { mobile: other, code: mobileBindCode }),
      'identifierBound',
    );
    await rejectsWith(bindEmail(server.sdkBrowser().client(), { email, code }), 'notLoggedIn');
    expect((await accountInfo<Account>(browser.client())).mobile).toContain(mobile.slice(-4));
  });

  it('refuses a target another account holds, and moves it with change_bind only when that account keeps a way in', async () => {
    const holder = await smsAccountWithEmail();
    const { browser, userId } = await smsAccount();
    const code = await emailCode(browser, holder.email, CodeType.bind);
    await rejectsWith(bindEmail(browser.client(), { email: holder.email, code }), 'identifierTaken');

    // With change_bind 1 and a fresh code: the holder keeps its mobile, so the e-mail moves.
    const again = await emailCode(browser, holder.email, CodeType.bind);
    const moved = await bindEmail<Changed>(browser.client(), {
      email: holder.email,
      code: again,
      change_bind: 1,
    });
    expect(moved).toMatchObject({ user_id: userId, moved: true });
    expect((await accountInfo<Account>(holder.browser.client())).email).toBe('');

    // An account whose only way in is that e-mail never loses it.
    const { browser: lonely, email: lonelyEmail } = await emailAccount();
    const taker = await smsAccount();
    const takeCode = await emailCode(taker.browser, lonelyEmail, CodeType.bind);
    await rejectsWith(
      bindEmail(taker.browser.client(), { email: lonelyEmail, code: takeCode, change_bind: 1 }),
      'moveWouldLockOut',
    );
    expect((await accountInfo<Account>(lonely.client())).email).not.toBe('');
  });
});

describe('proving it is you (auth/verify, account/verify)', () => {
  it('answers a single-use ticket for a code to the own mobile, and refuses someone else’s number', async () => {
    const { browser, mobile } = await smsAccount();
    const verified = await ticketByMobile(browser, mobile);
    expect(verified).toMatchObject({ method: 'mobile', purpose: 'change_identifier' });
    expect(verified.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verified.expires_in).toBeGreaterThan(0);

    const stranger = freshMobile();
    const code = await mobileCode(browser, stranger, CodeType.oldMobile);
    await rejectsWith(verifyAuth(browser.client(), { mobile: stranger, code }), 'notYourIdentifier');
    const own = await mobileCode(browser, mobile, CodeType.oldMobile);
    await rejectsWith(
      verifyAuth(browser.client(), { mobile, code: own === '000000' ? '111111' : '000000' }),
      'codeWrong',
    );
    await rejectsWith(verifyAuth(browser.client(), { email: freshEmail(), code: own }), 'identifierNotBound');
    await rejectsWith(verifyAuth(browser.client(), { code: own }), 'identifierRequired');
  });

  it('answers a ticket for the password, and counts a wrong one as a password failure', async () => {
    const { browser } = await smsAccount();
    await rejectsWith(verifyAccount(browser.client(), { password: GOOD_PASSWORD }), 'passwordNotSet');
    await setAccount(browser.client(), { username: uniqueName('pw'), password: GOOD_PASSWORD });
    await rejectsWith(
      verifyAccount(browser.client(), { password: OTHER_GOOD_PASSWORD }),
      'currentPasswordWrong',
    );
    const verified = await verifyAccount<Verified>(browser.client(), { password: GOOD_PASSWORD });
    expect(verified.method).toBe('password');
    // The account's failure count (10 by default) locks it, as password/update's does: even the right
    // password is refused for a while, so a stolen session cookie buys no free guesses.
    for (let i = 0; i < 10; i += 1)
      await rejectsWith(
        verifyAccount(browser.client(), { password: OTHER_GOOD_PASSWORD }),
        'currentPasswordWrong',
      );
    await rejectsWith(verifyAccount(browser.client(), { password: GOOD_PASSWORD }), 'temporarilyLocked');
    await rejectsWith(
      verifyAccount(server.sdkBrowser().client(), { password: GOOD_PASSWORD }),
      'notLoggedIn',
    );
  });
});

describe('changing the mobile or the e-mail', () => {
  it('changes the mobile: old mobile code → ticket, then a code to the new one; sign-in follows the number', async () => {
    for (const call of [changeMobile, mobileChange, legacyChangeMobile]) {
      const { browser, mobile, userId } = await smsAccount();
      const { ticket } = await ticketByMobile(browser, mobile);
      const next = freshMobile();
      const code = await mobileCode(browser, next, CodeType.newMobile);
      const changed = await call<Changed>(browser.client(), { mobile: next, code, ticket });
      expect(changed.user_id).toBe(userId);
      expect(changed.mobile).toContain(next.slice(-4));

      const again = await smsAccount(next);
      expect(again.userId).toBe(userId);
      const old = await smsAccount(mobile);
      expect(old.userId).not.toBe(userId);
    }
  });

  it('changes the mobile when it is lost: the password, or the e-mail, earns the ticket', async () => {
    const { browser, userId, email } = await smsAccountWithEmail();
    await setAccount(browser.client(), { username: uniqueName('lost'), password: GOOD_PASSWORD });
    const byPassword = await verifyAccount<Verified>(browser.client(), { password: GOOD_PASSWORD });
    const first = freshMobile();
    const code = await mobileCode(browser, first, CodeType.newMobile);
    expect(
      (await changeMobile<Changed>(browser.client(), { mobile: first, code, ticket: byPassword.ticket }))
        .user_id,
    ).toBe(userId);

    const emailCodeForVerify = await emailCode(browser, email, CodeType.oldMobile);
    const byEmail = await verifyAuth<Verified>(browser.client(), { email, code: emailCodeForVerify });
    expect(byEmail.method).toBe('email');
    const second = freshMobile();
    const code2 = await mobileCode(browser, second, CodeType.newMobile);
    const changed = await changeMobile<Changed>(browser.client(), {
      mobile: second,
      code: code2,
      ticket: byEmail.ticket,
    });
    expect(changed.mobile).toContain(second.slice(-4));
  });

  it('changes the e-mail with the old one verified (type 11) and a code to the new one (type 7)', async () => {
    const { browser, email, userId } = await smsAccountWithEmail();
    const verifyCode = await emailCode(browser, email, CodeType.changePassword);
    const { ticket } = await verifyAuth<Verified>(browser.client(), {
      email,
      code: verifyCode,
      type: CodeType.changePassword,
    });
    const next = freshEmail();
    const code = await emailCode(browser, next, CodeType.login);
    const changed = await changeEmail<Changed>(browser.client(), { email: next, code, ticket });
    expect(changed.user_id).toBe(userId);
    expect(changed.email).toBe(`u***@example.com`);
    const signIn = server.sdkBrowser();
    const login = await emailCode(signIn, next, CodeType.emailLogin);
    expect(
      (
        await emailCodeLogin<Account>(signIn.client(), {
          email: next,
          code: login,
          type: CodeType.emailLogin,
        })
      ).user_id,
    ).toBe(userId);
  });

  it('refuses a change without a ticket, a replayed ticket, a ticket of another session, and an expired one', async () => {
    const { browser, mobile, userId } = await smsAccount();
    const next = freshMobile();
    let code = await mobileCode(browser, next, CodeType.newMobile);
    await rejectsWith(changeMobile(browser.client(), { mobile: next, code }), 'verificationRequired');
    await rejectsWith(
      changeMobile(browser.client(), { mobile: next, code, ticket: 'x'.repeat(43) }),
      'verificationInvalid',
    );

    // The same account signed in on another browser cannot spend this browser's ticket.
    const other = await smsAccount(mobile);
    expect(other.userId).toBe(userId);
    const { ticket } = await ticketByMobile(browser, mobile);
    code = await mobileCode(other.browser, next, CodeType.newMobile);
    await rejectsWith(
      changeMobile(other.browser.client(), { mobile: next, code, ticket }),
      'verificationInvalid',
    );

    // Spent once, refused the second time.
    code = await mobileCode(browser, next, CodeType.newMobile);
    await changeMobile(browser.client(), { mobile: next, code, ticket });
    const third = freshMobile();
    code = await mobileCode(browser, third, CodeType.newMobile);
    await rejectsWith(changeMobile(browser.client(), { mobile: third, code, ticket }), 'verificationInvalid');

    // A ticket past its lifetime (2 minutes on this server; the code to the new number, sent before the
    // clock moves, lives 10).
    const fresh = await ticketByMobile(browser, next);
    expect(fresh.expires_in).toBe(120);
    code = await mobileCode(browser, third, CodeType.newMobile);
    skew += 121_000;
    try {
      await rejectsWith(
        changeMobile(browser.client(), { mobile: third, code, ticket: fresh.ticket }),
        'verificationInvalid',
      );
    } finally {
      skew -= 121_000;
    }

    // A ticket earned for another purpose (account cancellation) never changes an identifier.
    const cancel = await ticketByMobile(browser, next, 'cancel_account');
    expect(cancel.purpose).toBe('cancel_account');
    code = await mobileCode(browser, third, CodeType.newMobile);
    await rejectsWith(
      changeMobile(browser.client(), { mobile: third, code, ticket: cancel.ticket }),
      'verificationInvalid',
    );
    expect((await accountInfo<Account>(browser.client())).mobile).toContain(next.slice(-4));
  });

  it('checks old_mobile when a change names it, and sweeps spent and expired tickets away', async () => {
    const { browser, mobile } = await smsAccount();
    const { ticket } = await ticketByMobile(browser, mobile);
    const next = freshMobile();
    const code = await mobileCode(browser, next, CodeType.newMobile);
    await rejectsWith(
      changeMobile(browser.client(), { mobile: next, code, ticket, old_mobile: freshMobile() }),
      'notYourIdentifier',
    );
    await changeMobile(browser.client(), { mobile: next, code, ticket, old_mobile: mobile });

    const rows = () => server.app.db.selectFrom('verification_tickets').select('ticket_hash').execute();
    expect((await rows()).length).toBeGreaterThan(0);
    skew += 2 * 86_400_000;
    try {
      await server.app.sweep();
    } finally {
      skew -= 2 * 86_400_000;
    }
    expect(await rows()).toEqual([]);
  });

  it('spends a ticket once when two changes race with it', async () => {
    const { browser, mobile } = await smsAccount();
    const { ticket } = await ticketByMobile(browser, mobile);
    const [a, b] = [freshMobile(), freshMobile()];
    const codeA = await mobileCode(browser, a, CodeType.newMobile);
    const codeB = await mobileCode(browser, b, CodeType.newMobile);
    const outcomes = await Promise.allSettled([
      changeMobile<Changed>(browser.client(), { mobile: a, code: codeA, ticket }),
      changeMobile<Changed>(browser.client(), { mobile: b, code: codeB, ticket }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({
      error_code: ErrorCode.verificationInvalid,
    });
  });

  it('refuses a change to the same number, to a number another account holds, and with no mobile bound', async () => {
    const { browser, mobile } = await smsAccount();
    const taken = await smsAccount();
    const { ticket } = await ticketByMobile(browser, mobile);
    let code = await mobileCode(browser, mobile, CodeType.newMobile);
    await rejectsWith(changeMobile(browser.client(), { mobile, code, ticket }), 'identifierSame');
    code = await mobileCode(browser, taken.mobile, CodeType.newMobile);
    await rejectsWith(
      changeMobile(browser.client(), { mobile: taken.mobile, code, ticket }),
      'identifierTaken',
    );
    // The refusal came before the ticket was spent: it still serves.
    const next = freshMobile();
    code = await mobileCode(browser, next, CodeType.newMobile);
    await changeMobile(browser.client(), { mobile: next, code, ticket });
    await rejectsWith(
      changeEmail(browser.client(), { email: freshEmail(), code, ticket }),
      'identifierNotBound',
    );
  });

  it('kick_other 1 ends every other session of the account and keeps this one; 0 keeps them', async () => {
    const { browser, mobile } = await smsAccount();
    const other = await smsAccount(mobile);
    const { ticket } = await ticketByMobile(browser, mobile);
    const next = freshMobile();
    const code = await mobileCode(browser, next, CodeType.newMobile);
    const changed = await changeMobile<Changed>(browser.client(), {
      mobile: next,
      code,
      ticket,
      kick_other: 1,
    });
    expect(changed.kicked_sessions).toBe(1);
    await rejectsWith(accountInfo(other.browser.client()), 'notLoggedIn');
    expect((await accountInfo<Account>(browser.client())).user_id).toBe(changed.user_id);

    const third = await smsAccount(next);
    const email = freshEmail();
    const bindCode = await emailCode(browser, email, CodeType.bind);
    expect((await bindEmail<Changed>(browser.client(), { email, code: bindCode })).kicked_sessions).toBe(0);
    expect((await accountInfo<Account>(third.browser.client())).user_id).toBe(changed.user_id);
  });
});

describe('set account: a username with a password', () => {
  it('sets both on an SMS account; after signing out the person signs in with them, in any case', async () => {
    const { browser, userId } = await smsAccount();
    const name = uniqueName('Alice_');
    const account = await setAccount<Account>(browser.client(), { username: name, password: GOOD_PASSWORD });
    expect(account).toMatchObject({ user_id: userId, username: name.toLowerCase(), has_password: true });
    await logout(browser.client());
    await rejectsWith(accountInfo(browser.client()), 'notLoggedIn');
    expect(
      (await passwordLogin<Account>(browser.client(), { username: name, password: GOOD_PASSWORD })).user_id,
    ).toBe(userId);
    const another = server.sdkBrowser();
    expect(
      (
        await passwordLogin<Account>(another.client(), {
          account: name.toUpperCase(),
          password: GOOD_PASSWORD,
        })
      ).user_id,
    ).toBe(userId);
    await rejectsWith(
      setAccount(browser.client(), { username: uniqueName('bob'), password: GOOD_PASSWORD }),
      'usernameAlreadySet',
    );
  });

  it('refuses a username taken in another case, a reserved word, a malformed one, and a weak password', async () => {
    const first = await smsAccount();
    const name = uniqueName('carol');
    await setAccount(first.browser.client(), { username: name, password: GOOD_PASSWORD });
    const { browser } = await smsAccount();
    await rejectsWith(
      setAccount(browser.client(), { username: name.toUpperCase(), password: GOOD_PASSWORD }),
      'usernameTaken',
    );
    for (const reserved of ['admin', 'Support', 'root42'])
      await rejectsWith(
        setAccount(browser.client(), { username: reserved, password: GOOD_PASSWORD }),
        'usernameReserved',
      );
    for (const bad of ['ab', '1abc', 'a b c', 'has@sign', 'dot..dot', 'trail_', 'x'.repeat(33), 'émile'])
      await rejectsWith(
        setAccount(browser.client(), { username: bad, password: GOOD_PASSWORD }),
        'usernameInvalid',
      );
    await rejectsWith(
      setAccount(browser.client(), { username: uniqueName('dan'), password: 'password123' }),
      'passwordTooCommon',
    );
    expect((await accountInfo<Account>(browser.client())).username).toBe('');
  });

  it('adds a username to an account with a password only with that password', async () => {
    const other = await smsAccount();
    await setPassword(other.browser.client(), { password: GOOD_PASSWORD });
    const name = uniqueName('frank');
    await rejectsWith(
      setAccount(other.browser.client(), { username: name, password: OTHER_GOOD_PASSWORD }),
      'currentPasswordWrong',
    );
    const account = await setAccount<Account>(other.browser.client(), {
      username: name,
      password: GOOD_PASSWORD,
    });
    expect(account.username).toBe(name);
  });
});
