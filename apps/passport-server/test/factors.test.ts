import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRecoveryCode } from '../src/domain/factors/recovery-codes';
import { CodeType, ErrorCode, passkeyPaths, paths } from '../src/protocol';
import { SoftwareAuthenticator } from './support/authenticator';
import {
  emailCode,
  GOOD_PASSWORD,
  isSignedIn,
  OTHER_GOOD_PASSWORD as OTHER_PASSWORD,
  passCooldown,
  signInBySms,
} from './support/flows';
import { type Browser, codeFor, freshEmail, startServer, type TestServer } from './support/server';

/**
 * Authenticator apps and recovery codes (docs/factors.md), on the running server with its clock moved
 * by the test: enrolment (step-up, secret shown once, confirmed by a first code), the ±1 step window
 * and each step usable once, the guess budget, the second verification (2046) and the step-up (2047)
 * answered with either factor, recovery codes single use under 20 concurrent uses.
 */

let server: TestServer;
/** Added to the real clock; `frozen` stops it (the window edges need a step that does not turn). */
let skew = 0;
let frozen: number | null = null;
const now = () => frozen ?? Date.now() + skew;
const STEP = 30_000;

beforeAll(async () => {
  server = await startServer({ secondVerify: true }, { now, limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

/** A browser on a device of its own (an `s_v_web_id` fingerprint as the SDK makes one). */
function device(): Browser {
  const browser = server.browser();
  browser.cookies.set('s_v_web_id', `verify_${Date.now().toString(36)}_${randomBytes(16).toString('hex')}`);
  return browser;
}

/** The code an authenticator app shows at `at` (ms) for a base32 secret: the library, not the server. */
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: at,
  });

/**
 * Freezes the clock 10 s into the step after next, so that nothing in the test turns it and the step
 * before it was not spent by the enrolment.
 */
function freezeMidStep(): number {
  const t = now();
  frozen = t - (t % STEP) + 2 * STEP + 10_000;
  return frozen;
}
const thaw = () => {
  if (frozen !== null) skew = frozen - Date.now();
  frozen = null;
};

const errorCodeOf = (answer: { body: { data: { error_code?: number } } }) => answer.body.data.error_code;

/** An account with a mobile and a password, signed in on its own (remembered) device, just verified. */
async function account() {
  const home = device();
  const { mobile, userId } = await signInBySms(server, home);
  const set = await home.post(paths.web.passwordSet, { password: GOOD_PASSWORD });
  expect(set.body.message, 'fixture: password set').toBe('success');
  return { home, mobile, userId };
}

/** Enrols an authenticator app on a freshly verified session; answers its secret. */
async function enrol(home: Browser): Promise<string> {
  const started = await home.post(paths.web.totpStart, {});
  expect(started.body.message, JSON.stringify(started.body)).toBe('success');
  const { secret } = started.body.data as { secret: string };
  const confirmed = await home.post(paths.web.totpConfirm, { code: codeAt(secret, now()) });
  expect(confirmed.body.message, JSON.stringify(confirmed.body)).toBe('success');
  return secret;
}

/** Moves the clock past the step-up window (10 minutes): the session's verification is stale. */
const staleSession = () => {
  thaw();
  skew += 11 * 60_000;
};

describe('authenticator app enrolment', () => {
  it('shows the secret once with its otpauth URI, stores it sealed, and turns on with the first right code', async () => {
    const { home, userId } = await account();
    const started = await home.post(paths.web.totpStart, {});
    expect(started.body.message).toBe('success');
    const { secret, uri, digits, period, algorithm } = started.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Portico:/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect({ digits, period, algorithm }).toEqual({ digits: 6, period: 30, algorithm: 'SHA1' });
    // At rest: sealed, the secret nowhere in the row.
    const row = await server.app.db
      .selectFrom('totp_factors')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.confirmed_at).toBeNull();

    // Not on yet: the list says so, and a wrong first code keeps it off.
    expect((await home.get(paths.web.factorList)).body.data.totp.enabled).toBe(false);
    const wrong = await home.post(paths.web.totpConfirm, {
      code: String((Number(codeAt(secret, now())) + 1) % 1_000_000).padStart(6, '0'),
    });
    expect(errorCodeOf(wrong)).toBe(ErrorCode.codeWrong);
    const right = await home.post(paths.web.totpConfirm, { code: codeAt(secret, now()) });
    expect(right.body.message).toBe('success');
    expect(right.body.data.totp.enabled).toBe(true);
    expect(right.body.data.methods).toEqual(['sms', 'totp']);
    // A second app needs the first removed.
    const again = await home.post(paths.web.totpStart, {});
    expect(errorCodeOf(again)).toBe(ErrorCode.factorAlreadyEnrolled);
    const events = await server.app.db
      .selectFrom('events')
      .select('type')
      .where('stream', '=', `user:${userId}`)
      .execute();
    expect(events.map((event) => event.type)).toContain('account.factor_added');
  });

  it('needs a fresh step-up to start and to remove; the 2047 data of an account with a factor lists its methods', async () => {
    const { home } = await account();
    staleSession();
    const refused = await home.post(paths.web.totpStart, {});
    expect(errorCodeOf(refused)).toBe(ErrorCode.stepUpRequired);
    // No factor yet: the 2047 data as it always was, no `methods`.
    expect(Object.keys(refused.body.data).sort()).toEqual(
      ['description', 'email', 'error_code', 'has_password', 'max_age', 'mobile'].sort(),
    );
    const verified = await home.post(paths.web.accountVerify, { password: GOOD_PASSWORD });
    expect(verified.body.message).toBe('success');
    const secret = await enrol(home);

    staleSession();
    const remove = await home.post(paths.web.totpRemove, {});
    expect(errorCodeOf(remove)).toBe(ErrorCode.stepUpRequired);
    expect(remove.body.data.methods).toEqual(['sms', 'password', 'totp']);
    // The step-up answered by the app's code: a ticket, and the removal goes through.
    freezeMidStep();
    const byApp = await home.post(paths.web.authVerify, { method: 'totp', code: codeAt(secret, now()) });
    expect(byApp.body.message, JSON.stringify(byApp.body)).toBe('success');
    expect(byApp.body.data.method).toBe('totp');
    thaw();
    const removed = await home.post(paths.web.totpRemove, {});
    expect(removed.body.message).toBe('success');
    expect(removed.body.data.totp.enabled).toBe(false);
    expect(removed.body.data.methods).toEqual(['sms']);
    // Gone: its codes prove nothing now.
    const gone = await home.post(paths.web.authVerify, { method: 'totp', code: codeAt(secret, now()) });
    expect(errorCodeOf(gone)).toBe(ErrorCode.factorUnavailable);
  });
});

describe('authenticator codes', () => {
  it('accepts the steps either side of now and refuses two away (window edges)', async () => {
    const { home } = await account();
    const secret = await enrol(home);
    const at = freezeMidStep();
    try {
      for (const offset of [-2, 2]) {
        const answer = await home.post(paths.web.authVerify, {
          method: 'totp',
          code: codeAt(secret, at + offset * STEP),
        });
        expect(errorCodeOf(answer), `step ${offset}`).toBe(ErrorCode.codeWrong);
      }
      // One step behind, then one ahead: both accepted, in that order.
      const behind = await home.post(paths.web.authVerify, {
        method: 'totp',
        code: codeAt(secret, at - STEP),
      });
      expect(behind.body.message, JSON.stringify(behind.body)).toBe('success');
      const ahead = await home.post(paths.web.authVerify, {
        method: 'totp',
        code: codeAt(secret, at + STEP),
      });
      expect(ahead.body.message, JSON.stringify(ahead.body)).toBe('success');
    } finally {
      thaw();
    }
  });

  it('refuses a step already used, and every earlier step after a later one', async () => {
    const { home } = await account();
    const secret = await enrol(home);
    // Enrolment spent the step it was confirmed in: the next step, then its reuse.
    frozen = now() - (now() % STEP) + STEP + 10_000;
    try {
      const code = codeAt(secret, now());
      expect((await home.post(paths.web.authVerify, { method: 'totp', code })).body.message).toBe('success');
      const reuse = await home.post(paths.web.authVerify, { method: 'totp', code });
      expect(errorCodeOf(reuse)).toBe(ErrorCode.totpCodeUsed);
      // Next step: the code of one step ahead is used; the current step's code is then spent too.
      frozen += STEP;
      const ahead = await home.post(paths.web.authVerify, {
        method: 'totp',
        code: codeAt(secret, now() + STEP),
      });
      expect(ahead.body.message).toBe('success');
      const current = await home.post(paths.web.authVerify, { method: 'totp', code: codeAt(secret, now()) });
      expect(errorCodeOf(current)).toBe(ErrorCode.totpCodeUsed);
    } finally {
      thaw();
    }
  });

  it('spends the guess budget of codes: five wrong codes, then even the right one is refused', async () => {
    const { home } = await account();
    const secret = await enrol(home);
    const at = freezeMidStep();
    try {
      const right = codeAt(secret, at);
      const answers: (number | undefined)[] = [];
      for (let i = 1; i <= 6; i++) {
        const wrong = String((Number(right) + i) % 1_000_000).padStart(6, '0');
        answers.push(errorCodeOf(await home.post(paths.web.authVerify, { method: 'totp', code: wrong })));
      }
      expect(answers).toEqual([...Array(5).fill(ErrorCode.codeWrong), ErrorCode.codeTooManyAttempts]);
      const refused = await home.post(paths.web.authVerify, { method: 'totp', code: right });
      expect(errorCodeOf(refused)).toBe(ErrorCode.codeTooManyAttempts);
    } finally {
      thaw();
    }
  });
});

describe('second verification with any factor', () => {
  it('keeps the 2046 data of an SMS-only account as it was', async () => {
    const { mobile } = await account();
    const answer = await device().post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(answer)).toBe(ErrorCode.secondVerify);
    expect(Object.keys(answer.body.data).sort()).toEqual(
      ['description', 'error_code', 'expires_in', 'mobile', 'sms_code_key'].sort(),
    );
  });

  it('lists the methods of an account with an app, and a new device signs in with its code', async () => {
    const { home, mobile, userId } = await account();
    const secret = await enrol(home);
    const laptop = device();
    const answer = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(answer)).toBe(ErrorCode.secondVerify);
    expect(answer.body.data.methods).toEqual(['sms', 'totp']);
    const key = answer.body.data.sms_code_key as string;
    freezeMidStep();
    try {
      const wrong = await laptop.post(paths.web.smsLoginContinue, {
        sms_code_key: key,
        method: 'totp',
        code: String((Number(codeAt(secret, now())) + 1) % 1_000_000).padStart(6, '0'),
      });
      expect(errorCodeOf(wrong)).toBe(ErrorCode.codeWrong);
      // A factor the account does not have is refused before any guess.
      const none = await laptop.post(paths.web.smsLoginContinue, {
        sms_code_key: key,
        method: 'recovery_code',
        code: 'abcde-fghjk',
      });
      expect(errorCodeOf(none)).toBe(ErrorCode.factorUnavailable);
      const signedIn = await laptop.post(paths.web.smsLoginContinue, {
        sms_code_key: key,
        method: 'totp',
        code: codeAt(secret, now()),
      });
      expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
      expect(signedIn.body.data.user_id).toBe(userId);
    } finally {
      thaw();
    }
    expect(await isSignedIn(laptop)).toBe(true);
    const event = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('stream', '=', `user:${userId}`)
      .where('type', '=', 'account.signed_in')
      .orderBy('position', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.data as unknown as string)).toMatchObject({ method: 'totp', newDevice: true });
  });

  it('shares one guess budget per account among browsers: guesses from many browsers get five in all', async () => {
    const { home, mobile } = await account();
    const secret = await enrol(home);
    const at = freezeMidStep();
    try {
      const right = codeAt(secret, at);
      const answers: (number | undefined)[] = [];
      // Six browsers that hold the password, one wrong code each: the sixth finds the budget spent.
      for (let i = 1; i <= 6; i++) {
        const stranger = device();
        const asked = await stranger.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
        expect(errorCodeOf(asked), JSON.stringify(asked.body)).toBe(ErrorCode.secondVerify);
        const wrong = String((Number(right) + i) % 1_000_000).padStart(6, '0');
        const guessed = await stranger.post(paths.web.smsLoginContinue, {
          sms_code_key: asked.body.data.sms_code_key,
          method: 'totp',
          code: wrong,
        });
        answers.push(errorCodeOf(guessed));
      }
      expect(answers).toEqual([...Array(5).fill(ErrorCode.codeWrong), ErrorCode.codeTooManyAttempts]);
      // The owner's own lane (a step-up from its session) is not the strangers' to spend.
      const owner = await home.post(paths.web.authVerify, { method: 'totp', code: right });
      expect(owner.body.message, JSON.stringify(owner.body)).toBe('success');
    } finally {
      thaw();
    }
  });

  it('still accepts the SMS code (the default method) beside an app', async () => {
    const { home, mobile } = await account();
    await enrol(home);
    const laptop = device();
    const answer = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    const key = answer.body.data.sms_code_key as string;
    await passCooldown();
    const sent = await laptop.post(paths.web.sendCode, { sms_code_key: key, type: CodeType.mobileLogin });
    expect(sent.body.message).toBe('success');
    const code = await codeFor(server.app, mobile);
    const signedIn = await laptop.post(paths.web.smsLoginContinue, { sms_code_key: key, code });
    expect(signedIn.body.message).toBe('success');
  });
});

describe('an account without a mobile', () => {
  it('is asked for its app on a new device once it has one (and never before), with no SMS to send', async () => {
    const email = freshEmail();
    const home = device();
    const code = await emailCode(server, home, email, CodeType.emailLogin);
    expect((await home.post(paths.web.emailCodeLogin, { email, code })).body.data.new_user).toBe(true);
    await home.post(paths.web.passwordSet, { password: GOOD_PASSWORD });
    // No second factor yet: a new device signs in with the password alone, as before.
    expect((await device().post(paths.web.userLogin, { email, password: GOOD_PASSWORD })).body.message).toBe(
      'success',
    );
    const secret = await enrol(home);

    const laptop = device();
    const answer = await laptop.post(paths.web.userLogin, { email, password: GOOD_PASSWORD });
    expect(errorCodeOf(answer)).toBe(ErrorCode.secondVerify);
    expect(answer.body.data).toMatchObject({ mobile: '', methods: ['email', 'totp'] });
    const key = answer.body.data.sms_code_key as string;
    const send = await laptop.post(paths.web.sendCode, { sms_code_key: key, type: CodeType.mobileLogin });
    expect(errorCodeOf(send)).toBe(ErrorCode.factorUnavailable);
    const sms = await laptop.post(paths.web.smsLoginContinue, { sms_code_key: key, code: '123456' });
    expect(errorCodeOf(sms)).toBe(ErrorCode.factorUnavailable);
    freezeMidStep();
    try {
      const signedIn = await laptop.post(paths.web.smsLoginContinue, {
        sms_code_key: key,
        method: 'totp',
        code: codeAt(secret, now()),
      });
      expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
    } finally {
      thaw();
    }
  });
});

describe('an e-mail code as the second verification', () => {
  it('is offered to an account with a verified e-mail, sent to it with the key, and signs the new device in', async () => {
    const { mobile, userId } = await account();
    const email = freshEmail();
    await server.app.db.updateTable('users').set({ email }).where('id', '=', userId).execute();
    const laptop = device();
    const answer = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(answer)).toBe(ErrorCode.secondVerify);
    expect(answer.body.data.methods).toEqual(['sms', 'email']);
    expect(answer.body.data.email).toMatch(/^.\*\*\*@/);
    const key = answer.body.data.sms_code_key as string;
    // The key is this browser's: another gets no code with it.
    const stolen = await device().post(paths.web.sendCode, {
      sms_code_key: key,
      method: 'email',
      type: CodeType.mobileLogin,
    });
    expect(errorCodeOf(stolen)).toBe(ErrorCode.ticketInvalid);
    const sent = await laptop.post(paths.web.sendCode, {
      sms_code_key: key,
      method: 'email',
      type: CodeType.mobileLogin,
    });
    expect(sent.body.message, JSON.stringify(sent.body)).toBe('success');
    expect(sent.body.data.email).toBe(answer.body.data.email);
    const code = await codeFor(server.app, email);
    const wrong = await laptop.post(paths.web.smsLoginContinue, {
      sms_code_key: key,
      method: 'email',
      code: String((Number(code) + 1) % 1_000_000).padStart(6, '0'),
    });
    expect(errorCodeOf(wrong)).toBe(ErrorCode.codeWrong);
    // The e-mail's code is not an SMS code.
    const asSms = await laptop.post(paths.web.smsLoginContinue, { sms_code_key: key, code });
    expect(errorCodeOf(asSms)).not.toBeUndefined();
    const signedIn = await laptop.post(paths.web.smsLoginContinue, {
      sms_code_key: key,
      method: 'email',
      code,
    });
    expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
    expect(signedIn.body.data.user_id).toBe(userId);
    expect(await isSignedIn(laptop)).toBe(true);
  });

  it('is not offered to an account without an e-mail, nor after a sign-in by an e-mail code', async () => {
    const { mobile } = await account();
    const laptop = device();
    const answer = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(answer.body.data.methods).toBeUndefined();
    const key = answer.body.data.sms_code_key as string;
    const send = await laptop.post(paths.web.sendCode, {
      sms_code_key: key,
      method: 'email',
      type: CodeType.mobileLogin,
    });
    expect(errorCodeOf(send)).toBe(ErrorCode.factorUnavailable);
    // With an e-mail, a sign-in by an e-mail code is asked for the SMS code only.
    const { userId } = await account();
    const email = freshEmail();
    await server.app.db.updateTable('users').set({ email }).where('id', '=', userId).execute();
    const tablet = device();
    const code = await emailCode(server, tablet, email, CodeType.emailLogin);
    const byEmail = await tablet.post(paths.web.emailCodeLogin, { email, code });
    expect(errorCodeOf(byEmail), JSON.stringify(byEmail.body)).toBe(ErrorCode.secondVerify);
    expect(byEmail.body.data.methods).toBeUndefined();
  });
  it('is not offered for a week after the password was reset: an e-mail code can reset it', async () => {
    const { mobile, userId } = await account();
    const email = freshEmail();
    await server.app.db.updateTable('users').set({ email }).where('id', '=', userId).execute();
    // Whoever reads the mailbox resets the password with a code sent to it…
    const stranger = device();
    const resetCode = await emailCode(server, stranger, email, CodeType.resetPassword);
    const reset = await stranger.post(paths.web.emailPasswordReset, {
      email,
      code: resetCode,
      password: OTHER_PASSWORD,
    });
    expect(reset.body.message, JSON.stringify(reset.body)).toBe('success');
    // …and signs in with it: the mailbox may not also be the second verification.
    const answer = await stranger.post(paths.web.userLogin, { mobile, password: OTHER_PASSWORD });
    expect(errorCodeOf(answer)).toBe(ErrorCode.secondVerify);
    expect(answer.body.data.methods).toBeUndefined();
    const send = await stranger.post(paths.web.sendCode, {
      sms_code_key: answer.body.data.sms_code_key,
      method: 'email',
      type: CodeType.mobileLogin,
    });
    expect(errorCodeOf(send)).toBe(ErrorCode.factorUnavailable);
  });
});

describe('erasure', () => {
  it('deletes the app and the recovery codes of an erased account', async () => {
    const { home, userId } = await account();
    await enrol(home);
    await home.post(paths.web.recoveryCodeGenerate, {});
    await server.app.db.transaction().execute(async (trx) => {
      for (const eraser of server.app.cancellation.erasers)
        await eraser.erase(trx, userId, { mobile: null, email: null });
    });
    const left = await Promise.all([
      server.app.db.selectFrom('totp_factors').select('user_id').where('user_id', '=', userId).execute(),
      server.app.db.selectFrom('recovery_codes').select('user_id').where('user_id', '=', userId).execute(),
    ]);
    expect(left.map((rows) => rows.length)).toEqual([0, 0]);
  });
});

describe('recovery codes', () => {
  it('are ten, shown once, single use; a lost phone signs in with one; a new set ends the old', async () => {
    const { home, mobile, userId } = await account();
    const generated = await home.post(paths.web.recoveryCodeGenerate, {});
    expect(generated.body.message, JSON.stringify(generated.body)).toBe('success');
    const codes = generated.body.data.codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await server.app.db
      .selectFrom('recovery_codes')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));

    // The phone is lost: a new device answers the second verification with a recovery code.
    const laptop = device();
    const answer = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(answer.body.data.methods).toEqual(['sms', 'recovery_code']);
    const key = answer.body.data.sms_code_key as string;
    const first = codes[0] as string;
    const signedIn = await laptop.post(paths.web.smsLoginContinue, {
      sms_code_key: key,
      method: 'recovery_code',
      // Typed by a person: upper case, spaces for the dash.
      code: first.toUpperCase().replace('-', ' '),
    });
    expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
    // Used once: it proves nothing again.
    const reuse = await home.post(paths.web.authVerify, { method: 'recovery_code', code: first });
    expect(errorCodeOf(reuse)).toBe(ErrorCode.codeWrong);
    expect((await home.get(paths.web.factorList)).body.data.recovery_codes).toMatchObject({
      total: 10,
      remaining: 9,
    });

    // A new set: the old codes are gone, the new ones work.
    const again = await home.post(paths.web.recoveryCodeGenerate, {});
    const fresh = again.body.data.codes as string[];
    const old = await home.post(paths.web.authVerify, { method: 'recovery_code', code: codes[1] ?? '' });
    expect(errorCodeOf(old)).toBe(ErrorCode.codeWrong);
    const ok = await home.post(paths.web.authVerify, { method: 'recovery_code', code: fresh[0] ?? '' });
    expect(ok.body.message).toBe('success');
    expect(ok.body.data.method).toBe('recovery_code');
  });

  it('of 20 concurrent uses of one code exactly one succeeds (the conditional update)', async () => {
    const { home, userId } = await account();
    const codes = (await home.post(paths.web.recoveryCodeGenerate, {})).body.data.codes as string[];
    const code = codes[0] as string;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        useRecoveryCode(server.app.db, server.app.secret, userId, code, now()),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason.errorName).toBe('codeWrong');

    // And through the route, another code: 20 step-ups at once, one succeeds.
    const other = codes[1] as string;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        home.post(paths.web.authVerify, { method: 'recovery_code', code: other }),
      ),
    );
    expect(answers.filter((answer) => answer.body.message === 'success')).toHaveLength(1);
    for (const answer of answers.filter((a) => a.body.message !== 'success'))
      expect([ErrorCode.codeWrong, ErrorCode.codeTooManyAttempts]).toContain(errorCodeOf(answer));
    const unused = await server.app.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
    expect(unused).toHaveLength(8);
  });

  it('need a fresh step-up to generate', async () => {
    const { home } = await account();
    staleSession();
    const refused = await home.post(paths.web.recoveryCodeGenerate, {});
    expect(errorCodeOf(refused)).toBe(ErrorCode.stepUpRequired);
  });
});

describe('a passkey as a factor', () => {
  /** An account (mobile, password) with a passkey registered on its own device's authenticator. */
  async function withPasskey() {
    const { home, mobile, userId } = await account();
    const authenticator = new SoftwareAuthenticator({ origin: 'http://localhost:3000' });
    const options = await home.post(passkeyPaths.registerOptions, {});
    expect(options.body.message, JSON.stringify(options.body)).toBe('success');
    const added = await home.post(passkeyPaths.registerVerify, {
      credential: authenticator.create(options.body.data.options).json,
      name: 'Phone',
    });
    expect(added.body.message, JSON.stringify(added.body)).toBe('success');
    return { home, mobile, userId, authenticator };
  }

  async function factorOptions(browser: Browser, body: Record<string, string> = {}) {
    const answer = await browser.post(passkeyPaths.factorOptions, body);
    expect(answer.body.message, JSON.stringify(answer.body)).toBe('success');
    return answer.body.data.options;
  }

  it('answers a step-up: the passkey proves it is the person before a new way in is added', async () => {
    const { home, authenticator } = await withPasskey();
    staleSession();
    const refused = await home.post(passkeyPaths.registerOptions, {});
    expect(errorCodeOf(refused)).toBe(ErrorCode.stepUpRequired);
    expect(refused.body.data.methods).toEqual(['sms', 'password', 'passkey']);
    const options = await factorOptions(home);
    // The options name the account's passkey, with user verification.
    expect(options.allowCredentials).toHaveLength(1);
    expect(options.userVerification).toBe('required');
    const credential = authenticator.get(options);
    const verified = await home.post(paths.web.authVerify, { method: 'passkey', credential });
    expect(verified.body.message, JSON.stringify(verified.body)).toBe('success');
    expect(verified.body.data.method).toBe('passkey');
    // The answer is single use.
    const replayed = await home.post(paths.web.authVerify, { method: 'passkey', credential });
    expect(errorCodeOf(replayed)).toBe(ErrorCode.passkeyChallengeInvalid);
    // Stepped up: the new way in (another passkey) may be added now.
    const added = await home.post(passkeyPaths.registerOptions, {});
    expect(added.body.message, JSON.stringify(added.body)).toBe('success');
  });

  it('refuses a step-up answer from another browser, and a passkey of another account', async () => {
    const { home, authenticator } = await withPasskey();
    const other = await withPasskey();
    staleSession();
    const relayed = authenticator.get(await factorOptions(home));
    const elsewhere = await other.home.post(paths.web.authVerify, { method: 'passkey', credential: relayed });
    expect(errorCodeOf(elsewhere)).toBe(ErrorCode.passkeyChallengeInvalid);
    const foreign = other.authenticator.get(await factorOptions(home));
    const answer = await home.post(paths.web.authVerify, { method: 'passkey', credential: foreign });
    expect(errorCodeOf(answer)).toBe(ErrorCode.passkeyUnknown);
    const still = await home.post(passkeyPaths.registerOptions, {});
    expect(errorCodeOf(still)).toBe(ErrorCode.stepUpRequired);
  });

  it('answers the second verification of a new device: it signs in with the passkey', async () => {
    const { mobile, userId, authenticator } = await withPasskey();
    const laptop = device();
    const asked = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(asked)).toBe(ErrorCode.secondVerify);
    expect(asked.body.data.methods).toEqual(['sms', 'passkey']);
    const key = asked.body.data.sms_code_key as string;
    // The key is the browser's that signed in: another browser gets no options with it.
    const thief = await device().post(passkeyPaths.factorOptions, { sms_code_key: key });
    expect(errorCodeOf(thief)).toBe(ErrorCode.ticketInvalid);
    const credential = authenticator.get(await factorOptions(laptop, { sms_code_key: key }));
    const signedIn = await laptop.post(paths.web.smsLoginContinue, {
      sms_code_key: key,
      method: 'passkey',
      credential,
    });
    expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
    expect(signedIn.body.data.user_id).toBe(userId);
    expect(await isSignedIn(laptop)).toBe(true);
    const event = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('stream', '=', `user:${userId}`)
      .where('type', '=', 'account.signed_in')
      .orderBy('position', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.data as unknown as string)).toMatchObject({ method: 'passkey', newDevice: true });
  });

  it("is no guess: strangers who spend the budget with wrong codes never block the owner's passkey", async () => {
    const { home, mobile, userId, authenticator } = await withPasskey();
    const secret = await enrol(home);
    const at = freezeMidStep();
    try {
      const right = codeAt(secret, at);
      const answers: (number | undefined)[] = [];
      for (let i = 1; i <= 6; i++) {
        const stranger = device();
        const asked = await stranger.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
        expect(errorCodeOf(asked), JSON.stringify(asked.body)).toBe(ErrorCode.secondVerify);
        const guessed = await stranger.post(paths.web.smsLoginContinue, {
          sms_code_key: asked.body.data.sms_code_key,
          method: 'totp',
          code: String((Number(right) + i) % 1_000_000).padStart(6, '0'),
        });
        answers.push(errorCodeOf(guessed));
      }
      expect(answers).toEqual([...Array(5).fill(ErrorCode.codeWrong), ErrorCode.codeTooManyAttempts]);
      // The owner, on a new laptop, answers with the passkey: the spent budget does not refuse it.
      const laptop = device();
      const asked = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
      const key = asked.body.data.sms_code_key as string;
      const credential = authenticator.get(await factorOptions(laptop, { sms_code_key: key }));
      const signedIn = await laptop.post(paths.web.smsLoginContinue, {
        sms_code_key: key,
        method: 'passkey',
        credential,
      });
      expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
      expect(signedIn.body.data.user_id).toBe(userId);
    } finally {
      thaw();
    }
  });
});
