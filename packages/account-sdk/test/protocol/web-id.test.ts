import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWebId, isWebId } from '../../src/protocol';

describe('the web id', () => {
  it('is created in the shape isWebId accepts, starting with verify_', () => {
    const id = createWebId();
    expect(id.startsWith('verify_')).toBe(true);
    expect(isWebId(id)).toBe(true);
  });

  it('differs on each call, even within the same millisecond', () => {
    const now = Date.now();
    const ids = new Set(Array.from({ length: 1000 }, () => createWebId(now)));
    expect(ids.size).toBe(1000);
  });

  it('carries the creation time in base 36', () => {
    const now = Date.UTC(2026, 10, 22);
    expect(createWebId(now).split('_')[1]).toBe(now.toString(36));
  });

  it('is valid for any clock from 2001 to the largest safe millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2001, 0, 1), max: Number.MAX_SAFE_INTEGER }), (now) => {
        expect(isWebId(createWebId(now))).toBe(true);
      }),
    );
  });

  it('rejects bad shapes', () => {
    const tail = 'A'.repeat(32);
    for (const bad of [
      '',
      'verify_',
      `verify_${tail}`,
      `verify_mhx1abcd_${'A'.repeat(31)}`,
      `verify_mhx1abcd_${'A'.repeat(33)}`,
      `verify_MHX1ABCD_${tail}`,
      `verify_mhx1abcd_${'A'.repeat(31)}-`,
      `Verify_mhx1abcd_${tail}`,
      `xverify_mhx1abcd_${tail}`,
      ` verify_mhx1abcd_${tail}`,
      `verify_mhx1abcd_${tail}\n`,
      `verify_mhx_${tail}`,
    ]) {
      expect(isWebId(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(isWebId(`verify_mhx1abcd_${tail}`)).toBe(true);
  });

  it('rejects anything that is not a string', () => {
    for (const bad of [undefined, null, 0, {}, ['verify_x']]) expect(isWebId(bad)).toBe(false);
  });
});
