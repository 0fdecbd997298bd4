import { expect, it } from 'vitest';
import * as captchaLoader from '../src/index';

it('the public surface is exactly these run-time exports', () => {
  expect(Object.keys(captchaLoader).sort()).toMatchInlineSnapshot(`
    [
      "CaptchaLoadError",
      "DEFAULT_GLOBAL_NAME",
      "FAILED",
      "LOADED",
      "LOADING",
      "NOT_LOADED",
      "PROVIDER_SCRIPT_URLS",
      "SCRIPT_ERROR_MESSAGE",
      "createCaptchaLoader",
      "fetchChallengeSettings",
      "isCaptchaLoadError",
      "isChallengeApi",
      "mountProviderWidget",
      "timeoutMessage",
    ]
  `);
});
