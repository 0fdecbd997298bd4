import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  errorEntry,
  errors,
  errorText,
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
