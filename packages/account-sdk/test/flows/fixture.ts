import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createAccountClient } from '../../src';
import { decodeMixedFields } from '../../src/protocol';
import { cookieJar } from '../support/cookie-jar';
import { type Handler, type Passport, type SeenRequest, startPassport } from '../support/passport-server';

/** The form fields of a request as the passport reads them (sensitive fields un-mixed). */
export const formOf = (request: SeenRequest): Record<string, string> =>
  decodeMixedFields(Object.fromEntries(request.form));

/**
 * A fixture passport for one test file: started before its tests, closed after, emptied before each
 * test and answering with `handler` (a test may hand it another). `client()` is a fresh web client.
 */
export function passportFixture(handler: Handler) {
  let started: Passport | undefined;
  const passport = (): Passport => {
    if (!started) throw new Error('the fixture passport is used outside a test');
    return started;
  };
  beforeAll(async () => {
    started = await startPassport();
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    passport().requests.length = 0;
    passport().handle(handler);
  });
  return {
    passport,
    client: () => createAccountClient({ aid: 1128, baseUrl: passport().url, document: cookieJar() }),
  };
}
