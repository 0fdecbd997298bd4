import { describe, expect, it } from 'vitest';
import {
  CaptchaDecisionCode,
  captchaSubtype,
  DECISION_CONF_FIELD,
  parseDecisionConf,
  WRONG_DECISION_CONFIG,
} from '../../src/protocol';

describe('the challenge decision', () => {
  it('maps 3059 to the text puzzle', () => {
    expect(captchaSubtype(3059)).toBe('text');
  });

  it('maps 3060 to the 3d puzzle', () => {
    expect(captchaSubtype(3060)).toBe('3d');
  });

  it('maps 99996 to the whirl puzzle', () => {
    expect(captchaSubtype(99996)).toBe('whirl');
  });

  it('maps anything else to the slide puzzle', () => {
    for (const code of [3058, 0, 1, 3061, 99995, -3059, Number.NaN, undefined, null, 'text', {}]) {
      expect(captchaSubtype(code), String(code)).toBe('slide');
    }
  });

  it('reads a numeric string code as its number', () => {
    expect(captchaSubtype('3060')).toBe('3d');
  });

  it('names the decision codes', () => {
    expect(CaptchaDecisionCode).toEqual({ slide: 3058, text: 3059, threeD: 3060, whirl: 99996 });
  });

  it('finds the decision in the verify_center_decision_conf field', () => {
    expect(DECISION_CONF_FIELD).toBe('verify_center_decision_conf');
  });

  it('keeps the spec text for a wrong decision config, typo included', () => {
    expect(WRONG_DECISION_CONFIG).toBe('wrong desision config!');
  });

  describe('parseDecisionConf', () => {
    it('accepts a JSON string', () => {
      expect(
        parseDecisionConf('{"code":3059,"challenge_id":"c1","action":"/passport/web/sms_login/"}'),
      ).toEqual({
        code: 3059,
        subtype: 'text',
        challenge_id: 'c1',
        action: '/passport/web/sms_login/',
      });
    });

    it('accepts an object', () => {
      expect(parseDecisionConf({ code: 99996, challenge_id: 'c2' })).toEqual({
        code: 99996,
        subtype: 'whirl',
        challenge_id: 'c2',
      });
    });

    it('reads a string code as a number', () => {
      expect(parseDecisionConf({ code: '3060', challenge_id: 'c3' })).toEqual({
        code: 3060,
        subtype: '3d',
        challenge_id: 'c3',
      });
    });

    it('makes an unknown code a slide', () => {
      expect(parseDecisionConf({ code: 1, challenge_id: 'c4' })?.subtype).toBe('slide');
    });

    it('drops an action that is not a string', () => {
      expect(parseDecisionConf({ code: 3058, challenge_id: 'c5', action: 7 })).toEqual({
        code: 3058,
        subtype: 'slide',
        challenge_id: 'c5',
      });
    });

    it('rejects malformed configurations with undefined', () => {
      for (const bad of [
        undefined,
        null,
        '',
        'not json',
        '{"code":3059',
        'null',
        '42',
        '"x"',
        42,
        true,
        [],
        {},
        { code: 3059 },
        { challenge_id: 'c' },
        { code: 3059, challenge_id: '' },
        { code: 3059, challenge_id: 7 },
        { code: 'abc', challenge_id: 'c' },
        { code: Number.POSITIVE_INFINITY, challenge_id: 'c' },
        // Values that coerce to 0 or 1 are no decision codes (regression: null read as slide 0).
        { code: null, challenge_id: 'c' },
        { code: '', challenge_id: 'c' },
        { code: true, challenge_id: 'c' },
        { code: [], challenge_id: 'c' },
      ]) {
        expect(parseDecisionConf(bad), JSON.stringify(bad)).toBeUndefined();
      }
    });
  });
});
