import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  defineErrorRange,
  defineErrorTexts,
  ERROR_RANGES,
  ERROR_TEXTS,
  ErrorCode,
  errorCatalogue,
  errorEntry,
  errors,
  errorText,
  LIMITS,
  NetworkErrorKind,
  SECOND_VALID,
  SECOND_VERIFY_CODE,
} from '../../src/protocol';

const entries = Object.values(errors);

describe('the error catalogue', () => {
  it('is not empty', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  it('gives every entry a unique code', () => {
    const codes = entries.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(Number.isInteger(code) && code > 0, String(code)).toBe(true);
  });

  it('gives every entry a unique SCREAMING_SNAKE name', () => {
    const names = entries.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
  });

  it('keys every entry by the camelCase of its name', () => {
    for (const [key, entry] of Object.entries(errors)) {
      expect(key).toBe(entry.name.toLowerCase().replace(/_(\w)/g, (_, c: string) => c.toUpperCase()));
    }
  });

  it.each(entries.map((e) => [e.code, e.name, e] as const))(
    'has zh and en text for %i %s',
    (_code, _name, entry) => {
      expect(entry.zh.trim()).not.toBe('');
      expect(entry.en.trim()).not.toBe('');
      expect(entry.zh).toMatch(/[\u4e00-\u9fff]/);
      expect(entry.en).toMatch(/^[\x20-\x7e]+$/);
    },
  );

  it('answers every entry with a valid HTTP status', () => {
    for (const { name, status } of entries) {
      expect(STATUS_CODES[status], `${name} ${status}`).toBeDefined();
      expect(status === 200 || (status >= 400 && status < 600), `${name} ${status}`).toBe(true);
    }
  });

  it('answers business failures with 200 and protocol violations with their 4xx', () => {
    expect(errors.wrongCredentials.status).toBe(200);
    expect(errors.codeWrong.status).toBe(200);
    expect(errors.invalidParam.status).toBe(400);
    expect(errors.csrfFailed.status).toBe(403);
    expect(errors.payloadTooLarge.status).toBe(413);
    expect(errors.rateLimited.status).toBe(429);
    expect(errors.internalError.status).toBe(500);
  });

  it('makes 2046 the second verification', () => {
    expect(SECOND_VERIFY_CODE).toBe(2046);
    expect(errors.secondVerify.code).toBe(2046);
    expect(ErrorCode.secondVerify).toBe(2046);
    expect(errorEntry(2046)?.name).toBe('SECOND_VERIFY');
    expect(errorEntry(2046)?.status).toBe(200);
  });

  it('names the rejection of a closed second verification SECOND_VALID', () => {
    expect(SECOND_VALID).toBe('SECOND_VALID');
  });

  it('maps every stable name to its code', () => {
    for (const [key, entry] of Object.entries(errors)) {
      expect(ErrorCode[key as keyof typeof ErrorCode]).toBe(entry.code);
    }
  });

  it('finds an entry by code, and nothing for an unknown code', () => {
    for (const entry of entries) expect(errorEntry(entry.code)).toEqual(entry);
    expect(errorEntry(999_999)).toBeUndefined();
  });

  it('gives the text of a code in zh by default and in en on request', () => {
    expect(errorText(errors.wrongCredentials.code)).toBe(errors.wrongCredentials.zh);
    expect(errorText(errors.wrongCredentials.code, 'zh')).toBe(errors.wrongCredentials.zh);
    expect(errorText(errors.wrongCredentials.code, 'en')).toBe(errors.wrongCredentials.en);
  });

  it('falls back to the generic internal text for an unknown code', () => {
    expect(errorText(999_999)).toBe(errors.internalError.zh);
    expect(errorText(-1, 'en')).toBe(errors.internalError.en);
  });

  it('tells the four network failure kinds apart', () => {
    expect(Object.values(NetworkErrorKind).sort()).toEqual(['aborted', 'network', 'status', 'timeout']);
  });
});

describe('codes apart from texts', () => {
  it('error-codes holds code, name and status only: a page that checks a code carries no text', async () => {
    const codesModule = await import('../../src/protocol/error-codes');
    for (const entry of Object.values(codesModule.errorCodes)) {
      expect(Object.keys(entry).sort()).toEqual(['code', 'name', 'status']);
    }
    expect(codesModule.errorCodes.secondVerify).toEqual({ code: 2046, name: 'SECOND_VERIFY', status: 200 });
  });

  it('gives every range of the SDK its texts, and every code lies in its range', () => {
    expect(ERROR_TEXTS.map((t) => t.range)).toEqual([...ERROR_RANGES]);
    for (const range of ERROR_RANGES)
      for (const { code } of Object.values(range.codes) as { code: number }[]) {
        expect(code >= range.first && code <= range.last, `${code} in ${range.title}`).toBe(true);
      }
  });

  it('says the password minimum of LIMITS in its text', () => {
    expect(errors.passwordTooShort.zh).toContain(String(LIMITS.passwordMinLength));
    expect(errors.passwordTooShort.en).toContain(String(LIMITS.passwordMinLength));
  });
});

describe('another package’s range (the organisation SDK’s 16xx)', () => {
  const organisationErrors = defineErrorRange('Organisations', 1600, 1699, [
    [1601, 'NOT_A_MEMBER', 200],
    [1602, 'ROLE_DENIED', 403],
  ] as const);
  const organisationTexts = defineErrorTexts(organisationErrors, {
    NOT_A_MEMBER: ['你不是该组织的成员', 'You are not a member of this organisation'],
    ROLE_DENIED: ['当前身份无权操作', 'Your role does not allow this'],
  });

  it('is keyed by camelCase name like the SDK’s own', () => {
    expect(organisationErrors.codes.roleDenied).toEqual({ code: 1602, name: 'ROLE_DENIED', status: 403 });
  });

  it('merges with the SDK’s ranges into one catalogue, looked up by code', () => {
    const catalogue = errorCatalogue([...ERROR_TEXTS, organisationTexts]);
    expect(catalogue.entry(1601)).toMatchObject({
      name: 'NOT_A_MEMBER',
      en: 'You are not a member of this organisation',
    });
    expect(catalogue.text(1602, 'zh')).toBe('当前身份无权操作');
    expect(catalogue.text(2046, 'en')).toBe(errors.secondVerify.en);
    expect(catalogue.text(999_999, 'en')).toBe(errors.internalError.en);
    expect(catalogue.ranges.at(-1)).toMatchObject({ title: 'Organisations', first: 1600, last: 1699 });
  });

  it('throws at once on a code outside its range or a code declared twice', () => {
    expect(() => defineErrorRange('Organisations', 1600, 1699, [[1701, 'NOT_HERE', 200]])).toThrow(
      /1701 NOT_HERE must lie in 1600…1699/,
    );
    expect(() => errorCatalogue([...ERROR_TEXTS, ...ERROR_TEXTS])).toThrow(/code 1001 is declared twice/);
  });
});
