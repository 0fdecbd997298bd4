import { describe, expect, it, vi } from 'vitest';
import {
  createAccountClient,
  isAccountError,
  passwordLogin,
  type SecondVerifyContext,
  type SecondVerifyDialog,
  type SecondVerifyRequest,
  secondVerifyPlugin,
} from '../src';
import {
  CodeType,
  decodeMixedFields,
  ErrorCode,
  SECOND_VALID,
  SECOND_VERIFY_CODE,
  webPaths,
} from '../src/protocol';
import { cookieJar } from './support/cookie-jar';
import { json, type Passport, type SeenRequest, usePassport } from './support/passport-server';

const KEY = 'sms-key-1';
const RIGHT_CODE = '246810';
const WRONG_CODE = 1203;

const passport = usePassport(newDevicePassport);

const formOf = (request: SeenRequest) => decodeMixedFields(Object.fromEntries(request.form));

/** Signing in from a new device answers 2046; the continuation signs in with the right code. */
function newDevicePassport(failure: Record<string, unknown> = { sms_code_key: KEY, mobile: '138****0000' }) {
  return (req: SeenRequest, res: Parameters<Parameters<Passport['handle']>[0]>[1]) => {
    if (req.path === webPaths.sendCode) return json(res, { message: 'success', data: { retry_time: 60 } });
    if (req.path === webPaths.smsLoginContinue) {
      const { sms_code_key, code } = formOf(req);
      return sms_code_key === KEY && code === RIGHT_CODE
        ? json(res, { message: 'success', data: { user_id: 9, name: 'Ada' } }, 200, 'log-continue')
        : json(
            res,
            { message: 'error', data: { error_code: WRONG_CODE, description: 'wrong code' } },
            200,
            'log-wrong',
          );
    }
    json(
      res,
      {
        message: 'error',
        data: { error_code: SECOND_VERIFY_CODE, description: '当前设备需要二次验证', ...failure },
      },
      200,
      'log-2046',
    );
  };
}

const client = () =>
  createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar(), language: 'en' });

const signIn = (c: ReturnType<typeof client>) =>
  passwordLogin(c, { email: 'ada@example.com', password: 'pw' });

/** A dialog that sends a code, then answers each open with the next scripted code (null closes). */
function scriptedDialog(...codes: Array<string | null>) {
  const opened: SecondVerifyRequest[] = [];
  const dialog: SecondVerifyDialog = {
    open: vi.fn(async (request) => {
      opened.push(request);
      await request.sendCode();
      const code = codes.shift() ?? null;
      return code === null ? null : { code };
    }),
  };
  return { dialog, opened };
}

describe('error 2046 with the app’s own callback', () => {
  it('rejects with description SECOND_VALID and hands the app the key, without opening a dialog', async () => {
    const c = client();
    const { dialog } = scriptedDialog(RIGHT_CODE);
    const onSecondVerify = vi.fn<(context: SecondVerifyContext) => void>();
    c.use(secondVerifyPlugin({ onSecondVerify, dialog }));

    const error = await signIn(c).catch((e: unknown) => e);

    expect(isAccountError(error, 'response')).toBe(true);
    expect(error).toMatchObject({
      error_code: SECOND_VERIFY_CODE,
      description: SECOND_VALID,
      sms_code_key: KEY,
      log_id: 'log-2046',
    });
    expect(dialog.open).not.toHaveBeenCalled();
    expect(onSecondVerify).toHaveBeenCalledOnce();
    expect(onSecondVerify.mock.calls[0]?.[0]).toMatchObject({
      sms_code_key: KEY,
      mobileMasked: '138****0000',
    });
    expect(passport.requests).toHaveLength(1);
  });

  it('lets the app complete the sign-in later with continueSignIn', async () => {
    const c = client();
    let context: SecondVerifyContext | undefined;
    c.use(secondVerifyPlugin({ onSecondVerify: (ctx) => (context = ctx) }));
    await expect(signIn(c)).rejects.toMatchObject({ description: SECOND_VALID });
    await context!.sendCode();
    await expect(context!.continueSignIn(RIGHT_CODE)).resolves.toEqual({ user_id: 9, name: 'Ada' });
    expect(passport.requests.map((r) => r.path)).toEqual([
      '/passport/web/user/login/',
      webPaths.sendCode,
      webPaths.smsLoginContinue,
    ]);
  });
});

describe('error 2046 without a callback', () => {
  it('opens the dialog, and its code continues the sign-in, which resolves with the continuation’s data', async () => {
    const c = client();
    const { dialog, opened } = scriptedDialog(RIGHT_CODE);
    c.use(secondVerifyPlugin({ dialog }));

    await expect(signIn(c)).resolves.toEqual({ user_id: 9, name: 'Ada' });

    expect(opened).toEqual([
      {
        sms_code_key: KEY,
        mobileMasked: '138****0000',
        methods: ['sms'],
        language: 'en',
        sendCode: expect.any(Function),
      },
    ]);
    const [login, send, cont] = passport.requests;
    expect(passport.requests).toHaveLength(3);
    expect(login?.path).toBe('/passport/web/user/login/');
    expect(send?.path).toBe(webPaths.sendCode);
    expect(formOf(send!)).toMatchObject({ sms_code_key: KEY, type: String(CodeType.mobileLogin) });
    expect(cont?.path).toBe(webPaths.smsLoginContinue);
    expect(formOf(cont!)).toEqual({ sms_code_key: KEY, code: RIGHT_CODE, mix_mode: '1' });
  });

  it('rejects with description SECOND_VALID when the dialog is closed', async () => {
    const c = client();
    const { dialog } = scriptedDialog(null);
    c.use(secondVerifyPlugin({ dialog }));

    const error = await signIn(c).catch((e: unknown) => e);

    expect(isAccountError(error, 'response')).toBe(true);
    expect(error).toMatchObject({
      error_code: ErrorCode.secondVerify,
      description: SECOND_VALID,
      sms_code_key: KEY,
    });
    expect(passport.requests.map((r) => r.path)).not.toContain(webPaths.smsLoginContinue);
  });

  it('opens the dialog again with the failure after a wrong code', async () => {
    const c = client();
    const { dialog, opened } = scriptedDialog('000000', RIGHT_CODE);
    c.use(secondVerifyPlugin({ dialog }));

    await expect(signIn(c)).resolves.toEqual({ user_id: 9, name: 'Ada' });

    expect(opened).toHaveLength(2);
    expect(opened[0]).not.toHaveProperty('error');
    expect(opened[1]?.error).toMatchObject({ error_code: WRONG_CODE, log_id: 'log-wrong' });
  });

  it('rejects with the continuation’s failure after 3 wrong codes', async () => {
    const c = client();
    const { dialog } = scriptedDialog('1', '2', '3', RIGHT_CODE);
    c.use(secondVerifyPlugin({ dialog }));
    await expect(signIn(c)).rejects.toMatchObject({ error_code: WRONG_CODE, description: 'wrong code' });
    expect(dialog.open).toHaveBeenCalledTimes(3);
  });

  it('treats a 2046 without sms_code_key as a plain failure', async () => {
    passport.handle(newDevicePassport({}));
    const withDialog = client();
    const withCallback = client();
    const { dialog } = scriptedDialog(RIGHT_CODE);
    const onSecondVerify = vi.fn();
    withDialog.use(secondVerifyPlugin({ dialog }));
    withCallback.use(secondVerifyPlugin({ onSecondVerify }));

    for (const c of [withDialog, withCallback])
      await expect(signIn(c)).rejects.toMatchObject({
        error_code: SECOND_VERIFY_CODE,
        description: '当前设备需要二次验证',
      });

    expect(dialog.open).not.toHaveBeenCalled();
    expect(onSecondVerify).not.toHaveBeenCalled();
    expect(passport.requests).toHaveLength(2);
  });

  it('answers an sso client in the sso envelope', async () => {
    passport.handle((req, res) =>
      req.path.startsWith('/passport/web/')
        ? newDevicePassport()(req, res)
        : json(res, { error_code: SECOND_VERIFY_CODE, description: '', data: { sms_code_key: KEY } }),
    );
    const c = createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar(), source: 'sso' });
    const { dialog } = scriptedDialog(RIGHT_CODE);
    c.use(secondVerifyPlugin({ dialog }));
    await expect(signIn(c)).resolves.toEqual({ user_id: 9, name: 'Ada' });
    expect(passport.requests.at(0)?.path).toMatch(/^\/passport\/sso\//);
  });

  it('sends the code through the sendCode option when one is given', async () => {
    const c = client();
    const sendCode = vi.fn(async () => 'sent');
    c.use(secondVerifyPlugin({ dialog: scriptedDialog(RIGHT_CODE).dialog, sendCode }));
    await signIn(c);
    expect(sendCode).toHaveBeenCalledWith(c, KEY);
    expect(passport.requests.map((r) => r.path)).not.toContain(webPaths.sendCode);
  });
});

describe('client.use(secondVerifyPlugin(…))', () => {
  it('throws at once with the fix when there is neither a callback nor a dialog', () => {
    expect(() => client().use(secondVerifyPlugin({}))).toThrow(/onSecondVerify .* or options\.dialog/);
  });

  it('throws when the client already uses the plugin, and its remove function removes it', async () => {
    const c = client();
    const { dialog } = scriptedDialog(RIGHT_CODE);
    const uninstall = c.use(secondVerifyPlugin({ dialog }));
    expect(() => c.use(secondVerifyPlugin({ dialog }))).toThrow(/the second-verify plugin is in use already/);
    uninstall();
    await expect(signIn(c)).rejects.toMatchObject({ sms_code_key: KEY, description: '当前设备需要二次验证' });
    expect(dialog.open).not.toHaveBeenCalled();
  });
});

describe('error 2046 of an account with other factors', () => {
  it('hands the dialog the methods and continues with the chosen one (an authenticator code)', async () => {
    const c = client();
    const methods = ['sms', 'totp', 'recovery_code'];
    passport.handle((req, res) => {
      if (req.path === webPaths.smsLoginContinue) {
        const { method, code } = formOf(req);
        return method === 'totp' && code === RIGHT_CODE
          ? json(res, { message: 'success', data: { user_id: 9, name: 'Ada' } })
          : json(res, { message: 'error', data: { error_code: WRONG_CODE, description: 'wrong code' } });
      }
      return newDevicePassport({ sms_code_key: KEY, mobile: '138****0000', methods })(req, res);
    });
    const opened: SecondVerifyRequest[] = [];
    c.use(
      secondVerifyPlugin({
        dialog: {
          open: async (request) => {
            opened.push(request);
            return { code: RIGHT_CODE, method: 'totp' };
          },
        },
      }),
    );
    await expect(signIn(c)).resolves.toEqual({ user_id: 9, name: 'Ada' });
    expect(opened[0]?.methods).toEqual(methods);
    const cont = passport.requests.at(-1);
    expect(cont?.path).toBe(webPaths.smsLoginContinue);
    expect(formOf(cont!)).toEqual({ sms_code_key: KEY, code: RIGHT_CODE, method: 'totp', mix_mode: '1' });
  });
});
