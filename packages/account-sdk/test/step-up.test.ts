import { describe, expect, it, vi } from 'vitest';
import {
  bindMobile,
  createAccountClient,
  type StepUpDialog,
  type StepUpProof,
  type StepUpRequest,
  secondVerifyPlugin,
  stepUpPlugin,
} from '../src';
import { CodeType, decodeMixedFields, ErrorCode, STEP_UP_REQUIRED_CODE, webPaths } from '../src/protocol';
import { cookieJar } from './support/cookie-jar';
import { json, type Passport, type SeenRequest, usePassport } from './support/passport-server';

/**
 * The step-up plugin against a fixture passport: STEP_UP_REQUIRED (2047) opens the dialog, its proof
 * renews the session through auth/verify or account/verify, and the refused call is sent again once.
 */

const RIGHT_CODE = '246810';
const WRONG_CODE = 1301;

const passport = usePassport();

const formOf = (request: SeenRequest) => decodeMixedFields(Object.fromEntries(request.form));

const client = () =>
  createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar(), language: 'en' });

describe('STEP_UP_REQUIRED (2047) with the dialog’s stepUp', () => {
  const STEP_UP_DATA = { mobile: '', email: 'a***@example.com', has_password: true, max_age: 600 };

  /**
   * A session whose verification is old: binding a mobile answers 2047 until auth/verify (the right
   * code to the account's own e-mail) or account/verify (the right password) renews it.
   */
  function staleSessionPassport({ alwaysStale = false } = {}) {
    let verified = false;
    return (req: SeenRequest, res: Parameters<Parameters<Passport['handle']>[0]>[1]) => {
      const form = formOf(req);
      if (req.path === webPaths.emailSendCode)
        return json(res, { message: 'success', data: { retry_time: 60 } });
      if (req.path === webPaths.authVerify || req.path === webPaths.accountVerify) {
        const right =
          req.path === webPaths.authVerify
            ? form.email === 'ada@example.com' && form.code === RIGHT_CODE
            : form.password === 'right password';
        if (!right)
          return json(res, { message: 'error', data: { error_code: WRONG_CODE, description: 'wrong' } });
        verified = true;
        return json(res, { message: 'success', data: { ticket: 't', expires_in: 600, method: 'email' } });
      }
      if (verified && !alwaysStale)
        return json(res, { message: 'success', data: { mobile: '138****0001', bound: form.code } });
      json(res, {
        message: 'error',
        data: { error_code: STEP_UP_REQUIRED_CODE, description: 'confirm it is you', ...STEP_UP_DATA },
      });
    };
  }

  const bind = (c: ReturnType<typeof client>) => bindMobile(c, { mobile: '+8613800000001', code: '135790' });

  /** A dialog whose `stepUp` sends a code to the typed e-mail, then answers each open with the next proof. */
  function stepUpDialog(...proofs: Array<StepUpProof | null>) {
    const asked: StepUpRequest[] = [];
    const dialog: StepUpDialog = {
      stepUp: vi.fn(async (request: StepUpRequest) => {
        asked.push(request);
        await request.sendCode({ email: 'ada@example.com' });
        return proofs.shift() ?? null;
      }),
    };
    return { dialog, asked };
  }

  it('asks for a proof with the ways the failure names, renews the session and sends the call again', async () => {
    passport.handle(staleSessionPassport());
    const c = client();
    const { dialog, asked } = stepUpDialog({ email: 'ada@example.com', code: RIGHT_CODE });
    c.use(stepUpPlugin({ dialog }));

    await expect(bind(c)).resolves.toEqual({ mobile: '138****0001', bound: '135790' });
    expect(asked).toEqual([
      {
        mobileMasked: '',
        emailMasked: 'a***@example.com',
        hasPassword: true,
        maxAge: 600,
        language: 'en',
        sendCode: expect.any(Function),
      },
    ]);
    expect(passport.requests.map((r) => r.path)).toEqual([
      webPaths.mobileBind,
      webPaths.emailSendCode,
      webPaths.authVerify,
      webPaths.mobileBind,
    ]);
    expect(formOf(passport.requests[1]!)).toMatchObject({
      email: 'ada@example.com',
      type: String(CodeType.oldMobile),
    });
  });

  it('takes the password (account/verify), and opens again with the error after a wrong one', async () => {
    passport.handle(staleSessionPassport());
    const c = client();
    const { dialog, asked } = stepUpDialog({ password: 'guess' }, { password: 'right password' });
    c.use(stepUpPlugin({ dialog }));

    await expect(bind(c)).resolves.toMatchObject({ bound: '135790' });
    expect(asked).toHaveLength(2);
    expect(asked[1]?.error).toMatchObject({ error_code: WRONG_CODE });
    expect(passport.requests.filter((r) => r.path === webPaths.accountVerify)).toHaveLength(2);
  });

  it('rejects with the 2047 failure when the dialog is closed; second verification alone leaves 2047 alone', async () => {
    passport.handle(staleSessionPassport());
    const closing = client();
    closing.use(stepUpPlugin({ dialog: stepUpDialog(null).dialog }));
    await expect(bind(closing)).rejects.toMatchObject({
      error_code: ErrorCode.stepUpRequired,
      description: 'confirm it is you',
      email: 'a***@example.com',
    });

    // Second verification alone leaves a 2047 to the caller.
    const plain = client();
    const open = vi.fn(async () => null);
    plain.use(secondVerifyPlugin({ dialog: { open } }));
    await expect(bind(plain)).rejects.toMatchObject({ error_code: STEP_UP_REQUIRED_CODE });
    expect(open).not.toHaveBeenCalled();
  });

  it('sends the call again once: a second 2047 is a failure, not another dialog', async () => {
    passport.handle(staleSessionPassport({ alwaysStale: true }));
    const c = client();
    const { dialog } = stepUpDialog(
      { email: 'ada@example.com', code: RIGHT_CODE },
      { email: 'ada@example.com', code: RIGHT_CODE },
    );
    c.use(stepUpPlugin({ dialog }));
    await expect(bind(c)).rejects.toMatchObject({ error_code: STEP_UP_REQUIRED_CODE });
    expect(dialog.stepUp).toHaveBeenCalledOnce();
    expect(passport.requests.filter((r) => r.path === webPaths.mobileBind)).toHaveLength(2);
  });
});

describe('stepUpPlugin', () => {
  it('throws at once without a dialog that has stepUp', () => {
    expect(() => stepUpPlugin({} as never)).toThrow(/stepUp\(request\)/);
  });
});

describe('STEP_UP_REQUIRED (2047) of an account with other factors', () => {
  it('hands the dialog the methods, and a code of the authenticator app renews the session', async () => {
    let verified = false;
    const methods = ['email', 'password', 'totp', 'recovery_code'];
    passport.handle((req, res) => {
      const form = formOf(req);
      if (req.path === webPaths.authVerify) {
        if (form.method !== 'totp' || form.code !== RIGHT_CODE)
          return json(res, { message: 'error', data: { error_code: WRONG_CODE, description: 'wrong' } });
        verified = true;
        return json(res, { message: 'success', data: { ticket: 't', expires_in: 600, method: 'totp' } });
      }
      if (verified) return json(res, { message: 'success', data: { mobile: '138****0001' } });
      json(res, {
        message: 'error',
        data: {
          error_code: STEP_UP_REQUIRED_CODE,
          description: 'confirm it is you',
          mobile: '',
          email: 'a***@example.com',
          has_password: true,
          max_age: 600,
          methods,
        },
      });
    });
    const c = client();
    const asked: StepUpRequest[] = [];
    c.use(
      stepUpPlugin({
        dialog: {
          stepUp: async (request) => {
            asked.push(request);
            return { method: 'totp', code: RIGHT_CODE };
          },
        },
      }),
    );
    await expect(bindMobile(c, { mobile: '+8613800000001', code: '135790' })).resolves.toEqual({
      mobile: '138****0001',
    });
    expect(asked[0]?.methods).toEqual(methods);
    const verify = passport.requests.find((request) => request.path === webPaths.authVerify);
    expect(formOf(verify!)).toMatchObject({ method: 'totp', code: RIGHT_CODE });
  });
});
