import { describe, expect, it, vi } from 'vitest';
import {
  type ChallengeCaptcha,
  type ChallengeOutcome,
  challengePlugin,
  createAccountClient,
  isAccountError,
  passwordLogin,
  smsLogin,
} from '../src';
import {
  CHALLENGE_PASS_FIELD,
  DECISION_CONF_FIELD,
  type DecisionConf,
  decodeMixedFields,
  ErrorCode,
  WRONG_DECISION_CONFIG,
} from '../src/protocol';
import { cookieJar } from './support/cookie-jar';
import { json, type Passport, type SeenRequest, usePassport } from './support/passport-server';

const passport = usePassport(demandUnlessPassed);

const FP = 'verify_device_1';

const client = () =>
  createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar(), fingerprint: () => FP });

const decision = (challenge_id: string, code = 3058) =>
  JSON.stringify({ code, challenge_id, action: '/passport/web/sms_login' });

/** Demands a challenge until a request carries a pass; each demand names a fresh challenge id. */
function demandUnlessPassed(conf: (n: number) => unknown = (n) => decision(`c${n}`)) {
  let demands = 0;
  return (req: SeenRequest, res: Parameters<Parameters<Passport['handle']>[0]>[1]) => {
    if (req.form.get(CHALLENGE_PASS_FIELD)?.startsWith('pass-'))
      return json(res, { message: 'success', data: { user_id: 7 } });
    demands++;
    json(
      res,
      {
        message: 'error',
        data: {
          error_code: ErrorCode.challengeRequired,
          description: '请完成安全验证',
          [DECISION_CONF_FIELD]: conf(demands),
        },
      },
      200,
      `log-${demands}`,
    );
  };
}

/** A captcha that answers each show with the next scripted outcome and records what it was shown. */
function scriptedCaptcha(...outcomes: Array<ChallengeOutcome | Error>) {
  const shown: Array<{ decision: DecisionConf; fp?: string; language?: string; showMode?: string }> = [];
  const captcha: ChallengeCaptcha = {
    show: vi.fn(async (decision, settings) => {
      shown.push({ decision, ...settings });
      const next = outcomes.shift() ?? { status: 'closed' };
      if (next instanceof Error) throw next;
      return next;
    }),
  };
  return { captcha, shown };
}

const passed = (challengeId: string, pass = `pass-${challengeId}`): ChallengeOutcome => ({
  status: 'passed',
  challengeId,
  pass,
});

const formOf = (request: SeenRequest) => decodeMixedFields(Object.fromEntries(request.form));

describe('a failure carrying a decision config', () => {
  it('shows the challenge and resends the original request once with fp, isResend and the pass', async () => {
    const c = client();
    const { captcha, shown } = scriptedCaptcha(passed('c1'));
    c.use(challengePlugin({ captcha }));

    await expect(smsLogin(c, { mobile: '13800000000', code: '123456' })).resolves.toEqual({ user_id: 7 });

    expect(shown).toEqual([
      {
        decision: { code: 3058, subtype: 'slide', challenge_id: 'c1', action: '/passport/web/sms_login' },
        fp: FP,
        language: 'zh',
      },
    ]);
    expect(passport.requests).toHaveLength(2);
    const [first, resent] = passport.requests.map(formOf);
    expect(first).not.toHaveProperty('isResend');
    expect(resent).toEqual({
      ...first,
      fp: FP,
      isResend: '1',
      [CHALLENGE_PASS_FIELD]: 'pass-c1',
    });
  });

  it('hands the captcha the show mode, side slide and language it was installed with', async () => {
    const c = client();
    const { captcha, shown } = scriptedCaptcha(passed('c1'));
    c.use(challengePlugin({ captcha, showMode: 'popup', sideSlide: true, language: 'en', fp: 'verify_app' }));
    await smsLogin(c, { mobile: '1', code: '2' });
    expect(shown[0]).toMatchObject({ fp: 'verify_app', showMode: 'popup', sideSlide: true, language: 'en' });
    expect(formOf(passport.last).fp).toBe('verify_app');
  });

  it('rejects with an empty description when the person closes the challenge, without resending', async () => {
    const c = client();
    const { captcha } = scriptedCaptcha({ status: 'closed' });
    c.use(challengePlugin({ captcha }));

    const error = await smsLogin(c, { mobile: '1', code: '2' }).catch((e: unknown) => e);

    expect(isAccountError(error, 'response')).toBe(true);
    expect(error).toMatchObject({
      description: '',
      error_code: ErrorCode.challengeRequired,
      log_id: 'log-1',
    });
    expect(passport.requests).toHaveLength(1);
  });

  it('logs "wrong desision config!" for an invalid config and rejects with the server failure', async () => {
    passport.handle(demandUnlessPassed(() => '{"code":3058}'));
    const c = client();
    const { captcha } = scriptedCaptcha(passed('c1'));
    const logger = { error: vi.fn() };
    c.use(challengePlugin({ captcha, logger }));

    const error = await smsLogin(c, { mobile: '1', code: '2' }).catch((e: unknown) => e);

    expect(logger.error).toHaveBeenCalledOnce();
    expect(logger.error.mock.calls[0]?.[0]).toBe('wrong desision config!');
    expect(WRONG_DECISION_CONFIG).toBe('wrong desision config!');
    expect(error).toMatchObject({ kind: 'response', error_code: ErrorCode.challengeRequired });
    expect(captcha.show).not.toHaveBeenCalled();
    expect(passport.requests).toHaveLength(1);
  });

  it('logs through console by default', async () => {
    passport.handle(demandUnlessPassed(() => 'not json'));
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const c = client();
      c.use(challengePlugin(scriptedCaptcha()));
      await expect(smsLogin(c, { mobile: '1', code: '2' })).rejects.toMatchObject({
        error_code: ErrorCode.challengeRequired,
      });
      expect(spy).toHaveBeenCalledWith(WRONG_DECISION_CONFIG, 'not json');
    } finally {
      spy.mockRestore();
    }
  });

  it('leaves the failure to the app when the app shows its own captcha', async () => {
    const c = client();
    const { captcha } = scriptedCaptcha(passed('c1'));
    c.use(challengePlugin({ captcha, showOwnCaptcha: true }));

    const error = await smsLogin(c, { mobile: '1', code: '2' }).catch((e: unknown) => e);

    expect(captcha.show).not.toHaveBeenCalled();
    expect(error).toMatchObject({ description: '请完成安全验证' });
    expect((error as Record<string, unknown>)[DECISION_CONF_FIELD]).toBe(decision('c1'));
  });

  it('lets the app decide per failure with a showOwnCaptcha function', async () => {
    const c = client();
    const { captcha } = scriptedCaptcha(passed('c1'));
    c.use(
      challengePlugin({
        captcha,
        showOwnCaptcha: (error) => error.config?.path.includes('user/login') ?? false,
      }),
    );
    await expect(passwordLogin(c, { email: 'a@b.c', password: 'x' })).rejects.toMatchObject({
      error_code: ErrorCode.challengeRequired,
    });
    expect(captcha.show).not.toHaveBeenCalled();
    await expect(smsLogin(c, { mobile: '1', code: '2' })).resolves.toEqual({ user_id: 7 });
    expect(captcha.show).toHaveBeenCalledOnce();
  });

  it('shows the next challenge when the resent request is answered by another decision, at most 3 times', async () => {
    passport.handle(demandUnlessPassed());
    // Passes the server does not accept: every resend is answered by a fresh decision.
    const { captcha, shown } = scriptedCaptcha(
      passed('c1', 'stale-1'),
      passed('c2', 'stale-2'),
      passed('c3', 'stale-3'),
      passed('c4'),
    );
    const c = client();
    c.use(challengePlugin({ captcha }));

    const error = await smsLogin(c, { mobile: '1', code: '2' }).catch((e: unknown) => e);

    expect(shown.map((s) => s.decision.challenge_id)).toEqual(['c1', 'c2', 'c3']);
    expect(passport.requests).toHaveLength(4);
    expect(passport.requests.slice(1).map((r) => r.form.get(CHALLENGE_PASS_FIELD))).toEqual([
      'stale-1',
      'stale-2',
      'stale-3',
    ]);
    expect(error).toMatchObject({ error_code: ErrorCode.challengeRequired, description: '请完成安全验证' });
  });

  it('keeps the count of challenges out of the wire', async () => {
    const c = client();
    c.use(challengePlugin(scriptedCaptcha(passed('c1'))));
    await smsLogin(c, { mobile: '1', code: '2' });
    expect(passport.last.raw).not.toMatch(/Symbol|challenges/);
    expect([...passport.last.form.keys()].sort()).toEqual(
      ['mobile', 'code', 'need_frozen_user', 'mix_mode', 'fp', 'isResend', CHALLENGE_PASS_FIELD].sort(),
    );
  });

  it('rejects with an AccountError carrying the loader failure as cause when the challenge cannot be shown', async () => {
    const c = client();
    const loadError = Object.assign(new Error('LoadJSSDKMoreTan4000ms'), { type: 'loadJSSDK' });
    c.use(challengePlugin(scriptedCaptcha(loadError)));

    const error = await smsLogin(c, { mobile: '1', code: '2' }).catch((e: unknown) => e);

    expect(isAccountError(error, 'response')).toBe(true);
    expect(error).toMatchObject({
      error_code: ErrorCode.challengeRequired,
      cause: loadError,
      log_id: 'log-1',
    });
    expect((error as Error).message).toContain('LoadJSSDKMoreTan4000ms');
  });

  it('lets failures without a decision through untouched', async () => {
    passport.handle((_, res) =>
      json(res, { message: 'error', data: { error_code: 1203, description: 'wrong' } }),
    );
    const c = client();
    const { captcha } = scriptedCaptcha();
    c.use(challengePlugin({ captcha }));
    await expect(smsLogin(c, { mobile: '1', code: '2' })).rejects.toMatchObject({ error_code: 1203 });
    expect(captcha.show).not.toHaveBeenCalled();
  });
});

describe('concurrent failures', () => {
  it('share one overlay at a time: each waits its turn and gets its own challenge', async () => {
    const c = client();
    let open = 0;
    let most = 0;
    const captcha: ChallengeCaptcha = {
      show: async (decision) => {
        most = Math.max(most, ++open);
        await new Promise((r) => setTimeout(r, 20));
        open--;
        return passed(decision.challenge_id);
      },
    };
    c.use(challengePlugin({ captcha }));
    const results = await Promise.all([
      smsLogin(c, { mobile: '1', code: '2' }),
      smsLogin(c, { mobile: '3', code: '4' }),
    ]);
    expect(results).toEqual([{ user_id: 7 }, { user_id: 7 }]);
    expect(most).toBe(1);
    const passes = passport.requests.map((r) => r.form.get(CHALLENGE_PASS_FIELD)).filter(Boolean);
    expect(new Set(passes).size).toBe(2);
  });

  it('closing the overlay also rejects the calls waiting behind it, without showing theirs', async () => {
    const c = client();
    const shows: string[] = [];
    const captcha: ChallengeCaptcha = {
      show: vi.fn(async (decision) => {
        shows.push(decision.challenge_id);
        // The overlay stays open until the second call has failed and queued behind it.
        await vi.waitFor(() => expect(passport.requests).toHaveLength(2));
        await new Promise((r) => setTimeout(r, 30));
        return shows.length === 1 ? { status: 'closed' as const } : passed(decision.challenge_id);
      }),
    };
    c.use(challengePlugin({ captcha }));
    const settled = await Promise.allSettled([
      smsLogin(c, { mobile: '1', code: '2' }),
      smsLogin(c, { mobile: '3', code: '4' }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(settled.map((s) => (s as PromiseRejectedResult).reason.description)).toEqual(['', '']);
    expect(captcha.show).toHaveBeenCalledOnce();
  });

  it('shows the challenge again for a call made after a close', async () => {
    const c = client();
    const { captcha } = scriptedCaptcha({ status: 'closed' }, passed('c2'));
    c.use(challengePlugin({ captcha }));
    await expect(smsLogin(c, { mobile: '1', code: '2' })).rejects.toMatchObject({ description: '' });
    await expect(smsLogin(c, { mobile: '1', code: '2' })).resolves.toEqual({ user_id: 7 });
  });
});

describe('client.use(challengePlugin(…))', () => {
  it('throws at once with the fix when no captcha is handed in', () => {
    expect(() => client().use(challengePlugin({} as never))).toThrow(/options\.captcha must have a show/);
  });

  it('throws when the client already uses the plugin, and its remove function removes it (twice is harmless)', async () => {
    const c = client();
    const { captcha } = scriptedCaptcha(passed('c1'));
    const uninstall = c.use(challengePlugin({ captcha }));
    expect(() => c.use(challengePlugin({ captcha }))).toThrow(/the challenge plugin is in use already/);
    uninstall();
    uninstall();
    await expect(smsLogin(c, { mobile: '1', code: '2' })).rejects.toMatchObject({
      description: '请完成安全验证',
    });
    expect(captcha.show).not.toHaveBeenCalled();
    expect(() => c.use(challengePlugin({ captcha }))).not.toThrow();
  });
});
