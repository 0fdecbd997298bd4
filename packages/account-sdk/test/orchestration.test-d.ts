import { describe, expectTypeOf, it } from 'vitest';
import {
  type AccountClient,
  type AccountInfo,
  type ChallengeCaptcha,
  type ChallengeOptions,
  challengePlugin,
  type SecondVerifyContext,
  type SecondVerifyDialog,
  type SecondVerifyOptions,
  secondVerifyPlugin,
} from '../src';

declare const client: AccountClient;

/** The shape of `createCaptchaLoader(…)` from @portico/captcha-loader, which this package must not import. */
interface LoaderLike {
  show(
    decision: { code: number | string; challenge_id: string; action?: string },
    overrides?: {
      fp?: string;
      showMode?: 'mask' | 'popup' | 'embed';
      sideSlide?: boolean;
      language?: string;
    },
  ): Promise<{ status: 'passed'; challengeId: string } | { status: 'closed' }>;
}
declare const loader: LoaderLike;
declare const context: SecondVerifyContext;

describe('challengePlugin', () => {
  it('takes the captcha loader as it is; client.use returns the remove function', () => {
    expectTypeOf<LoaderLike>().toExtend<ChallengeCaptcha>();
    expectTypeOf(client.use(challengePlugin({ captcha: loader }))).toEqualTypeOf<() => void>();
    expectTypeOf(challengePlugin).toBeCallableWith({
      captcha: loader,
      showOwnCaptcha: (error) => error.error_code === 1401,
      fp: async () => 'verify_x',
      showMode: 'popup',
      sideSlide: true,
      language: 'en',
      logger: console,
      maxChallenges: 1,
    });
  });

  it('requires a captcha and refuses an unknown show mode', () => {
    // @ts-expect-error: captcha is required
    client.use(challengePlugin({}));
    // @ts-expect-error: 'modal' is no show mode
    client.use(challengePlugin({ captcha: loader, showMode: 'modal' }));
    expectTypeOf<ChallengeOptions['captcha']>().toEqualTypeOf<ChallengeCaptcha>();
  });
});

describe('secondVerifyPlugin', () => {
  it('takes a callback or a dialog; client.use returns the remove function', () => {
    const dialog: SecondVerifyDialog = {
      open: async ({ sms_code_key, sendCode, language, mobileMasked, error }) => {
        expectTypeOf(sms_code_key).toBeString();
        expectTypeOf(language).toBeString();
        expectTypeOf(mobileMasked).toEqualTypeOf<string | undefined>();
        expectTypeOf(error?.error_code).toEqualTypeOf<number | undefined>();
        await sendCode();
        return Math.random() > 0.5 ? { code: '123456' } : null;
      },
    };
    expectTypeOf(client.use(secondVerifyPlugin({ dialog }))).toEqualTypeOf<() => void>();
    expectTypeOf(secondVerifyPlugin).toBeCallableWith({
      onSecondVerify: (context: SecondVerifyContext) => {
        void context.continueSignIn<{ user_id: number }>('123456');
      },
    });
  });

  it('types the continuation’s data and refuses a dialog answering a number', () => {
    expectTypeOf(context.continueSignIn('123456')).resolves.toEqualTypeOf<AccountInfo>();
    expectTypeOf(context.continueSignIn<{ user_id: number }>('123456')).resolves.toEqualTypeOf<{
      user_id: number;
    }>();
    // @ts-expect-error: the dialog answers { code: string } or null
    const bad: SecondVerifyDialog = { open: async () => ({ code: 123456 }) };
    void bad;
    expectTypeOf<SecondVerifyOptions['maxAttempts']>().toEqualTypeOf<number | undefined>();
  });
});
