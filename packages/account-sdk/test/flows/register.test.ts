import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccountClient, createRegistration, isAccountError, type RegistrationStep } from '../../src';
import { ErrorCode, passportPaths, webPaths } from '../../src/protocol';
import { cookieJar } from '../support/cookie-jar';
import { json, type Passport, type SeenRequest, startPassport } from '../support/passport-server';
import { formOf } from './form-of';

let passport: Passport;
beforeAll(async () => {
  passport = await startPassport();
});
afterAll(() => passport.close());

const account = { user_id: '7', screen_name: 'ada', new_user: true };
/** A passport that hands out ticket `t-<code>` and refuses the password 'password' as too common. */
function answer(request: SeenRequest, response: Parameters<Parameters<Passport['handle']>[0]>[1]) {
  const form = formOf(request);
  if (request.path === webPaths.mobileCheckCode || request.path === webPaths.emailRegisterVerify)
    return json(response, { message: 'success', data: { verify_ticket: `t-${form.code}` } });
  if (form.password === 'password')
    return json(response, {
      message: 'error',
      data: { error_code: ErrorCode.passwordTooCommon, description: 'too common' },
    });
  return json(response, { message: 'success', data: account });
}

beforeEach(() => {
  passport.requests.length = 0;
  passport.handle(answer);
});

const client = () => createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar() });
const paths = () => passport.requests.map((request) => request.path);

describe('createRegistration', () => {
  it('checks a mobile code as a register code, then registers with its ticket', async () => {
    const registration = createRegistration(client());
    const steps: RegistrationStep[] = [];
    registration.subscribe(() => steps.push(registration.getSnapshot().step));

    const signedIn = await registration.submit({
      channel: 'mobile',
      target: '+8613912345678',
      code: '123456',
      password: 'a long passphrase',
    });

    expect(signedIn).toEqual(account);
    expect(paths()).toEqual([webPaths.mobileCheckCode, passportPaths.mobileRegister]);
    expect(formOf(passport.requests[0]!)).toMatchObject({
      mobile: '+8613912345678',
      code: '123456',
      type: '1',
    });
    expect(formOf(passport.requests[1]!)).toMatchObject({
      mobile: '+8613912345678',
      verify_ticket: 't-123456',
      password: 'a long passphrase',
    });
    expect(steps).toEqual(['verifying', 'registering', 'done']);
    expect(registration.getSnapshot()).toEqual({ step: 'done', account, error: undefined });
  });

  it('verifies an e-mail code on the e-mail register path and registers by e-mail', async () => {
    await createRegistration(client()).submit({
      channel: 'email',
      target: 'ada@example.com',
      code: '654321',
      password: 'a long passphrase',
    });
    expect(paths()).toEqual([webPaths.emailRegisterVerify, webPaths.emailRegisterV2]);
    expect(formOf(passport.requests[1]!).verify_ticket).toBe('t-654321');
    expect(formOf(passport.requests[1]!).email).toBe('ada@example.com');
  });

  it('keeps the ticket after a refused password, so the same code is not spent twice', async () => {
    const registration = createRegistration(client());
    const values = { channel: 'mobile', target: '+8613912345678', code: '123456' } as const;

    const refused = await registration.submit({ ...values, password: 'password' }).catch((error) => error);
    expect(isAccountError(refused, 'response') && refused.error_code).toBe(ErrorCode.passwordTooCommon);
    expect(registration.getSnapshot()).toMatchObject({ step: 'failed', error: refused });

    await registration.submit({ ...values, password: 'a long passphrase' });
    expect(paths()).toEqual([
      webPaths.mobileCheckCode,
      passportPaths.mobileRegister,
      passportPaths.mobileRegister,
    ]);
  });

  it('checks the code again when the target or the code changed', async () => {
    const registration = createRegistration(client());
    await registration
      .submit({ channel: 'mobile', target: '+8613912345678', code: '123456', password: 'password' })
      .catch(() => {});
    await registration.submit({
      channel: 'mobile',
      target: '+8613912345678',
      code: '111111',
      password: 'a long passphrase',
    });
    expect(passport.requests.filter((r) => r.path === webPaths.mobileCheckCode)).toHaveLength(2);
    expect(formOf(passport.last).verify_ticket).toBe('t-111111');
  });

  it('fails with a typed error when the check answers success without a ticket', async () => {
    passport.handle((_, response) => json(response, { message: 'success', data: {} }));
    const failure = await createRegistration(client())
      .submit({ channel: 'mobile', target: '+8613912345678', code: '123456', password: 'x'.repeat(9) })
      .catch((error) => error);
    expect(isAccountError(failure, 'status')).toBe(true);
    expect(failure.message).toMatch(/verifyRegisterCode.*verify_ticket/);
    expect(paths()).toEqual([webPaths.mobileCheckCode]);
  });

  it('reset() forgets the ticket and returns to idle', async () => {
    const registration = createRegistration(client());
    const values = { channel: 'email', target: 'ada@example.com', code: '123456' } as const;
    await registration.submit({ ...values, password: 'password' }).catch(() => {});
    registration.reset();
    expect(registration.getSnapshot().step).toBe('idle');
    await registration.submit({ ...values, password: 'a long passphrase' });
    expect(passport.requests.filter((r) => r.path === webPaths.emailRegisterVerify)).toHaveLength(2);
  });
});
