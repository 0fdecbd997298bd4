import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodeType, codeTypeName, EmailCodeType, isCodeType, USER_LOGIN_VERSION } from '../../src/protocol';

/** The code-purpose values of spec §7, with what the spec says each is for. */
const SPEC_TYPES: [number, string][] = [
  [1, 'register'],
  [4, 'reset'],
  [6, 'reset'],
  [7, 'login (also new e-mail)'],
  [8, 'bind'],
  [11, 'change password or e-mail verify'],
  [13, 'e-mail login'],
  [15, 'not-logged-in e-mail'],
  [16, 'mobile register (also e-mail quick login)'],
  [17, 'bind'],
  [20, 'new mobile'],
  [22, 'old mobile or logged-in verify'],
  [24, 'mobile login'],
  [26, 'SMS authorise'],
  [27, 'open auth'],
  [28, 'another mobile'],
  [34, 'not-logged-in mobile'],
  [101, 'new manager'],
];

describe('code types', () => {
  it.each(SPEC_TYPES)('has the value %i (%s), under a name', (value) => {
    expect(Object.values(CodeType)).toContain(value);
    expect(isCodeType(value)).toBe(true);
    expect(CodeType[codeTypeName(value as never)]).toBe(value);
  });

  it('has exactly the values of the spec, no more', () => {
    expect(Object.values(CodeType).sort((a, b) => a - b)).toEqual(SPEC_TYPES.map(([v]) => v));
  });

  it('names each value once', () => {
    const names = Object.keys(CodeType);
    expect(new Set(Object.values(CodeType)).size).toBe(names.length);
  });

  it('names the purposes the flows rely on', () => {
    expect(CodeType.register).toBe(1);
    expect(CodeType.login).toBe(7);
    expect(CodeType.emailLogin).toBe(13);
    expect(CodeType.oldMobile).toBe(22);
    expect(CodeType.mobileLogin).toBe(24);
    expect(CodeType.smsAuthorize).toBe(26);
    expect(CodeType.openAuth).toBe(27);
    expect(CodeType.newManager).toBe(101);
  });

  it('sends e-mail register codes with type 1 and sso e-mail code login with ect_type 13', () => {
    expect(EmailCodeType.register).toBe(1);
    expect(EmailCodeType.ssoCodeLogin).toBe(13);
  });

  it('sends user_login_version 1 with account verify', () => {
    expect(USER_LOGIN_VERSION).toBe(1);
  });

  it('rejects with isCodeType anything that is not one of the values', () => {
    for (const value of [0, 2, 3, 5, 100, 102, -1, 1.5, Number.NaN, '1', '7', null, undefined, {}, [1]]) {
      expect(isCodeType(value), String(value)).toBe(false);
    }
    fc.assert(
      fc.property(fc.integer(), (n) => {
        expect(isCodeType(n)).toBe(SPEC_TYPES.some(([v]) => v === n));
      }),
    );
  });

  it('refuses to name a value that is not a code type', () => {
    expect(() => codeTypeName(2 as never)).toThrow(TypeError);
  });
});
