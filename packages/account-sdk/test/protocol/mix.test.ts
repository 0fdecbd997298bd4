import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeMixedFields,
  encodeMixedFields,
  mixDecode,
  mixEncode,
  SENSITIVE_FIELDS,
} from '../../src/protocol';

/** The rule, written independently: hex of each UTF-8 byte XOR 5. */
const reference = (value: string): string =>
  Buffer.from(Buffer.from(value, 'utf8').map((b) => b ^ 5)).toString('hex');

describe('the mix codec', () => {
  it('encodes "a" as the hex of 0x61 XOR 5, which is 64', () => {
    expect(mixEncode('a')).toBe('64');
  });

  it('encodes known vectors', () => {
    expect(mixEncode('')).toBe('');
    expect(mixEncode('13800138000')).toBe('34363d353534363d353535');
    expect(mixEncode('password')).toBe('75647676726a7761');
    // 中 is e4 b8 ad in UTF-8 and 文 is e6 96 87; XOR 5 gives e1 bd a8 and e3 93 82.
    expect(mixEncode('中')).toBe('e1bda8');
    expect(mixEncode('中文')).toBe('e1bda8e39382');
    // 😀 is f0 9f 98 80 in UTF-8; XOR 5 gives f5 9a 9d 85.
    expect(mixEncode('😀')).toBe('f59a9d85');
  });

  it('writes lowercase hex, two digits a byte', () => {
    expect(mixEncode('\u0005')).toBe('00');
    expect(mixEncode('\u007f')).toBe('7a');
  });

  it('round-trips arbitrary unicode strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 32 }), (value) => {
        expect(mixDecode(mixEncode(value))).toBe(value);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        // Lone surrogates are not UTF-8: they encode as U+FFFD, as every browser's TextEncoder does.
        expect(mixDecode(mixEncode(value))).toBe(Buffer.from(value, 'utf8').toString('utf8'));
      }),
    );
  });

  it('agrees with the rule on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(mixEncode(value)).toBe(reference(value));
      }),
    );
  });

  it('decodes uppercase hex too', () => {
    expect(mixDecode('E1BDA8')).toBe('中');
  });

  it('throws on odd-length, non-hex or non-UTF-8 input', () => {
    expect(() => mixDecode('6')).toThrow(TypeError);
    expect(() => mixDecode('zz')).toThrow(TypeError);
    expect(() => mixDecode('6x')).toThrow(TypeError);
    expect(() => mixDecode('64 ')).toThrow(TypeError);
    // 0xff XOR 5 = 0xfa, never valid UTF-8 on its own.
    expect(() => mixDecode('ff')).toThrow(TypeError);
  });

  it('lists the sensitive fields of the spec', () => {
    for (const field of [
      'mobile',
      'email',
      'password',
      'code',
      'type',
      'names',
      'identity_card',
      'real_name',
      'subject_name',
      'base_infos',
      'birthday',
    ]) {
      expect(SENSITIVE_FIELDS).toContain(field);
    }
    expect(new Set(SENSITIVE_FIELDS).size).toBe(SENSITIVE_FIELDS.length);
  });

  describe('encodeMixedFields', () => {
    it('encodes exactly the sensitive fields and adds mix_mode 1', () => {
      const out = encodeMixedFields({ mobile: '+8613800138000', type: 24, need_frozen_user: 0, next: '/' });
      expect(out).toEqual({
        mobile: mixEncode('+8613800138000'),
        type: mixEncode('24'),
        need_frozen_user: 0,
        next: '/',
        mix_mode: 1,
      });
    });

    it('encodes every sensitive field when all are present', () => {
      const input = Object.fromEntries(SENSITIVE_FIELDS.map((f) => [f, `v-${f}`]));
      const out = encodeMixedFields({ ...input, aid: 1 });
      for (const f of SENSITIVE_FIELDS) expect(out[f]).toBe(mixEncode(`v-${f}`));
      expect(out.aid).toBe(1);
      expect(out.mix_mode).toBe(1);
    });

    it('adds no mix_mode when no sensitive field is present', () => {
      expect(encodeMixedFields({ next: '/', aid: 1 })).toEqual({ next: '/', aid: 1 });
      expect(encodeMixedFields({})).toEqual({});
    });

    it('skips undefined and null sensitive fields, and adds no mix_mode for them alone', () => {
      expect(encodeMixedFields({ mobile: undefined, email: null, next: '/' })).toEqual({
        mobile: undefined,
        email: null,
        next: '/',
      });
    });

    it('does not modify its input', () => {
      const input = { password: 'secret' };
      encodeMixedFields(input);
      expect(input).toEqual({ password: 'secret' });
    });

    it('leaves every other field untouched for arbitrary payloads', () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.string()), (payload) => {
          const out = encodeMixedFields(payload);
          const hasSensitive = SENSITIVE_FIELDS.some((f) => Object.hasOwn(payload, f));
          expect(out.mix_mode).toBe(hasSensitive ? 1 : payload.mix_mode);
          for (const [key, value] of Object.entries(payload)) {
            if (key === 'mix_mode' && hasSensitive) continue;
            expect(out[key]).toBe(SENSITIVE_FIELDS.includes(key) ? mixEncode(value) : value);
          }
        }),
      );
    });
  });

  describe('decodeMixedFields', () => {
    it('inverts encodeMixedFields for string payloads', () => {
      const field = fc.constantFrom(...SENSITIVE_FIELDS, 'aid', 'next', 'need_frozen_user', 'sms_code_key');
      fc.assert(
        fc.property(fc.dictionary(field, fc.string({ unit: 'grapheme', maxLength: 32 })), (payload) => {
          const encoded = encodeMixedFields(payload);
          const decoded = decodeMixedFields(encoded);
          const { mix_mode: _, ...rest } = decoded;
          expect(rest).toEqual(payload);
        }),
      );
    });

    it('decodes when mix_mode arrives as the string "1" from a form body', () => {
      expect(decodeMixedFields({ mix_mode: '1', email: mixEncode('a@b.c'), next: '/' })).toEqual({
        mix_mode: '1',
        email: 'a@b.c',
        next: '/',
      });
    });

    it('leaves fields alone without mix_mode 1', () => {
      const plain = { email: 'a@b.c', password: 'zz' };
      expect(decodeMixedFields(plain)).toBe(plain);
      expect(decodeMixedFields({ ...plain, mix_mode: 0 })).toEqual({ ...plain, mix_mode: 0 });
    });

    it('throws on a sensitive field that is not a mixed value', () => {
      expect(() => decodeMixedFields({ mix_mode: 1, password: 'zz' })).toThrow(TypeError);
      expect(() => decodeMixedFields({ mix_mode: '1', mobile: '123' })).toThrow(TypeError);
    });
  });
});
