import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountClient, defineCall } from '../src';
import { decodeMixedFields, SENSITIVE_FIELDS } from '../src/protocol';
import { formBody } from '../src/transport/form';
import { cookieJar } from './support/cookie-jar';
import { json, type Passport, startPassport } from './support/passport-server';

const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(undefined));
const key = fc.oneof(
  fc.string({ minLength: 1 }).filter((k) => k !== 'mix_mode' && k !== '__proto__'),
  fc.constantFrom(...SENSITIVE_FIELDS),
);
const payload = fc.dictionary(key, value);

/** What the server should see: every defined field, as a string. */
const expected = (sent: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(sent).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));

describe('form encoding of arbitrary payloads', () => {
  it('round-trips through URLSearchParams minus undefined fields', () => {
    fc.assert(
      fc.property(payload, (sent) => {
        expect(Object.fromEntries(new URLSearchParams(String(formBody(sent))))).toEqual(expected(sent));
      }),
      { numRuns: 500 },
    );
  });

  describe('over the wire', () => {
    let passport: Passport;
    beforeAll(async () => {
      passport = await startPassport((_, res) => json(res, { message: 'success', data: {} }));
    });
    afterAll(() => passport.close());

    it('what the server parses (and mix-decodes) equals what was sent, minus undefined', async () => {
      const client = createAccountClient({ aid: 1, baseUrl: passport.url, document: cookieJar() });
      const echo = defineCall<Record<string, unknown>, unknown, string>('/echo/');
      await fc.assert(
        fc.asyncProperty(payload, async (sent) => {
          await echo(client, sent);
          const seen = decodeMixedFields(Object.fromEntries(passport.last.form));
          const { mix_mode, ...fields } = seen;
          expect(fields).toEqual(expected(sent));
          const anySensitive = SENSITIVE_FIELDS.some((f) => sent[f] !== undefined);
          expect(mix_mode).toBe(anySensitive ? '1' : undefined);
        }),
        { numRuns: 100 },
      );
    });
  });
});
