import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authFailure,
  authSuccess,
  type EnvelopeSource,
  failureEnvelope,
  failureOf,
  isSuccess,
  ssoFailure,
  ssoSuccess,
  successEnvelope,
  webFailure,
  webSuccess,
} from '../../src/protocol';

const SOURCES: EnvelopeSource[] = ['web', 'app', 'sso', 'auth'];

describe('envelopes', () => {
  describe('the success rule', () => {
    it('calls a web response a success when its message equals "success"', () => {
      expect(isSuccess('web', { message: 'success', data: {} })).toBe(true);
      expect(isSuccess('web', { message: 'error', data: { error_code: 1, description: '' } })).toBe(false);
      expect(isSuccess('web', { message: 'Success', data: {} })).toBe(false);
      expect(isSuccess('web', { error_code: 0, data: {} })).toBe(false);
      expect(isSuccess('web', { status_code: 0, data: {} })).toBe(false);
    });

    it('lets the app source speak the web envelope', () => {
      expect(isSuccess('app', { message: 'success', data: {} })).toBe(true);
      expect(isSuccess('app', { error_code: 0, data: {} })).toBe(false);
    });

    it('calls an sso response a success when its error_code is 0', () => {
      expect(isSuccess('sso', { error_code: 0, data: {} })).toBe(true);
      expect(isSuccess('sso', { error_code: 1102, description: 'x', data: {} })).toBe(false);
      expect(isSuccess('sso', { error_code: '0', data: {} })).toBe(false);
      expect(isSuccess('sso', { message: 'success', data: {} })).toBe(false);
    });

    it('calls an auth response a success when its status_code is 0', () => {
      expect(isSuccess('auth', { status_code: 0, data: {} })).toBe(true);
      expect(isSuccess('auth', { status_code: 1001, status_msg: 'x', data: {} })).toBe(false);
      expect(isSuccess('auth', { message: 'success', data: {} })).toBe(false);
    });

    it.each(SOURCES)('treats non-objects and strings as failures for %s', (source) => {
      for (const body of [null, undefined, 0, 1, true, 'success', '{"message":"success"}', '']) {
        expect(isSuccess(source, body), JSON.stringify(body)).toBe(false);
      }
    });
  });

  describe('the builders', () => {
    it('build the documented shapes', () => {
      expect(webSuccess({ a: 1 })).toEqual({ message: 'success', data: { a: 1 } });
      expect(ssoSuccess({ a: 1 })).toEqual({ error_code: 0, description: '', data: { a: 1 } });
      expect(authSuccess({ a: 1 })).toEqual({ status_code: 0, data: { a: 1 } });
      expect(webFailure(1102, 'bad')).toEqual({
        message: 'error',
        data: { error_code: 1102, description: 'bad' },
      });
      expect(ssoFailure(1102, 'bad')).toEqual({
        error_code: 1102,
        description: 'bad',
        data: { error_code: 1102, description: 'bad' },
      });
      expect(authFailure(1102, 'bad')).toEqual({
        status_code: 1102,
        status_msg: 'bad',
        data: { error_code: 1102, description: 'bad' },
      });
    });

    it.each(SOURCES)('round-trip a success through isSuccess for %s', (source) => {
      fc.assert(
        fc.property(fc.jsonValue(), (data) => {
          const body = successEnvelope(source, data);
          expect(isSuccess(source, body)).toBe(true);
          expect(body.data).toEqual(data);
          // A success is still a success after the wire (JSON).
          expect(isSuccess(source, JSON.parse(JSON.stringify(body)))).toBe(true);
        }),
      );
    });

    it.each(SOURCES)('round-trip a failure through isSuccess and failureOf for %s', (source) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 999_999 }),
          fc.string(),
          fc.dictionary(
            fc.string().filter((k) => !['error_code', 'description', '__proto__'].includes(k)),
            fc.jsonValue(),
          ),
          (code, description, extra) => {
            const body = JSON.parse(JSON.stringify(failureEnvelope(source, code, description, extra)));
            expect(isSuccess(source, body)).toBe(false);
            expect(failureOf(body)).toEqual({ ...body.data, error_code: code, description });
            for (const key of Object.keys(extra)) expect(failureOf(body)[key]).toEqual(body.data[key]);
          },
        ),
      );
    });

    it('keep error_code and description even when extra data tries to overwrite them', () => {
      const body = webFailure(2046, 'second', { error_code: 1, description: 'other', sms_code_key: 'k' });
      expect(body.data).toEqual({ error_code: 2046, description: 'second', sms_code_key: 'k' });
    });

    it('use the web envelope for the app source', () => {
      expect(successEnvelope('app', 1)).toEqual(webSuccess(1));
      expect(failureEnvelope('app', 1, 'x')).toEqual(webFailure(1, 'x'));
    });
  });

  describe('failureOf', () => {
    it('carries every data field of a failure', () => {
      const body = webFailure(2046, 'second', { sms_code_key: 'k', verify_center_decision_conf: '{}' });
      expect(failureOf(body)).toEqual({
        error_code: 2046,
        description: 'second',
        sms_code_key: 'k',
        verify_center_decision_conf: '{}',
      });
    });

    it('reads sso and auth envelopes whose data lacks the code', () => {
      expect(failureOf({ error_code: 7, description: 'd', data: {} })).toEqual({
        error_code: 7,
        description: 'd',
      });
      expect(failureOf({ status_code: 8, status_msg: 'm', data: null })).toEqual({
        error_code: 8,
        description: 'm',
      });
    });

    it('coerces a string code to a number', () => {
      expect(failureOf({ message: 'error', data: { error_code: '1102', description: 'x' } }).error_code).toBe(
        1102,
      );
    });

    it('yields error_code -1 for a body that is no envelope at all', () => {
      for (const body of [null, undefined, 'oops', 42, true]) {
        expect(failureOf(body)).toEqual({ error_code: -1, description: '' });
      }
      expect(failureOf({})).toEqual({ error_code: -1, description: '' });
    });
  });
});
