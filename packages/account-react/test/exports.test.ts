// @vitest-environment node
import { expect, it } from 'vitest';
import * as accountReact from '../src/index';

it('the public surface is exactly these run-time exports', () => {
  expect(Object.keys(accountReact).sort()).toMatchInlineSnapshot(`
    [
      "ACCOUNT_QUERY_RETRIES",
      "AccountProvider",
      "COUNTRY_CODES",
      "CodeInput",
      "DEFAULT_CODE_COOLDOWN",
      "EmailInput",
      "ErrorMessage",
      "MobileInput",
      "PasswordInput",
      "SecondVerifyDialog",
      "SubmitButton",
      "accountMessages",
      "accountQueryKeys",
      "accountRetry",
      "accountRetryDelay",
      "accountText",
      "createAccountQueryClient",
      "createSecondVerifyController",
      "errorText",
      "isSignedOutError",
      "isTransientError",
      "refetchOnFocusThrottled",
      "sessionQueryKey",
      "splitMobile",
      "toAccountLanguage",
      "useAccountClient",
      "useAccountLanguage",
      "useAccountText",
      "useChangePassword",
      "useDevices",
      "useEmailCodeLogin",
      "useForgetDevice",
      "useHasPassword",
      "useLogout",
      "usePasswordLogin",
      "useRegisterByEmail",
      "useRegisterByMobile",
      "useResetPassword",
      "useResetPasswordByEmail",
      "useSendCode",
      "useSession",
      "useSetPassword",
      "useSmsLogin",
    ]
  `);
});
