import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commonPattern } from '../../src/domain/passwords/patterns';
import { screenNewPassword } from '../../src/domain/passwords/policy';
import { PassportError } from '../../src/errors';
import { ErrorCode, paths } from '../../src/protocol';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, signInBySms, warmPasswordEstimator } from '../support/flows';
import { startServer, type TestServer } from '../support/server';

/**
 * Passwords the strength estimator scored 3 (accepted) though every guessing list starts with them:
 * Chinese love-number families, keyboard walks, a common word with a year and a symbol. A small
 * documented pattern list (src/domain/passwords/patterns.ts) refuses them as PASSWORD_TOO_COMMON.
 */
const REFUSED = [
  'woaini1314',
  'Woaini520!',
  'Admin@2026',
  '5201314520',
  'woaini521',
  'iloveyou2025',
  'Password@2024',
  'qwerty@2023',
  '1qaz2wsx3edc',
  '1qaz@WSX',
  'qazwsxedc',
  'zxcvbnm,./',
  'asdfghjkl;',
  '!QAZ2wsx#EDC',
  'Huawei@123',
  'P@ssw0rd2026',
  'woaiwojia1314',
  'Welcome2026!',
];

const ACCEPTED = [
  GOOD_PASSWORD,
  OTHER_GOOD_PASSWORD,
  'Lantern-Maple-42',
  'Harbor-Quartz-58',
  'a long enough passphrase 7',
  '我的密码是一句很长的中文句子',
  'violet 1314 tugboat river',
];

describe('common password patterns', () => {
  it.each(REFUSED)('refuses %s as too common', (password) => {
    expect(commonPattern(password), password).not.toBeNull();
    expect(() => screenNewPassword(password, { appName: 'Portico', identifiers: [] })).toThrow(PassportError);
  });

  it.each(ACCEPTED)('leaves %s to the estimator', (password) => {
    expect(commonPattern(password)).toBeNull();
  });

  describe('on the server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer({}, { limits: { sendCooldownMs: 5 } });
      await warmPasswordEstimator();
    });
    afterAll(async () => server?.close());

    it('answers PASSWORD_TOO_COMMON to woaini1314, Woaini520! and Admin@2026, and sets a good one', async () => {
      const browser = server.browser();
      await signInBySms(server, browser);
      for (const password of ['woaini1314', 'Woaini520!', 'Admin@2026']) {
        const refused = await browser.post(paths.web.passwordSet, { password });
        expect(refused.body.data.error_code, password).toBe(ErrorCode.passwordTooCommon);
      }
      const set = await browser.post(paths.web.passwordSet, { password: GOOD_PASSWORD });
      expect(set.body.message, JSON.stringify(set.body)).toBe('success');
    });
  });
});
