import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAccountClient,
  resetPasswordWithCode,
  resetPasswordWithTicket,
  verifyResetCode,
} from '../../src';
import { webPaths } from '../../src/protocol';
import { cookieJar } from '../support/cookie-jar';
import { json, type Passport, startPassport } from '../support/passport-server';
import { formOf } from './form-of';

let passport: Passport;
beforeAll(async () => {
  passport = await startPassport();
});
afterAll(() => passport.close());
beforeEach(() => {
  passport.requests.length = 0;
  passport.handle((_, response) => json(response, { message: 'success', data: { ticket: 'reset-ticket' } }));
});

const client = () => createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar() });
const sent = () => passport.requests.map((r) => [r.path, formOf(r)]);

describe('password reset', () => {
  it('by code: one call on the channel’s reset path', async () => {
    await resetPasswordWithCode(client(), {
      channel: 'mobile',
      target: '+8613912345678',
      code: '123456',
      password: 'new passphrase',
    });
    await resetPasswordWithCode(client(), {
      channel: 'email',
      target: 'ada@example.com',
      code: '654321',
      password: 'new passphrase',
    });
    expect(sent()).toEqual([
      [
        webPaths.passwordReset,
        expect.objectContaining({ mobile: '+8613912345678', code: '123456', password: 'new passphrase' }),
      ],
      [
        webPaths.emailPasswordReset,
        expect.objectContaining({ email: 'ada@example.com', code: '654321', password: 'new passphrase' }),
      ],
    ]);
  });

  it('by ticket: the code is checked as a reset code (type 4), then the ticket sets the password', async () => {
    const ticket = await verifyResetCode(client(), {
      channel: 'email',
      target: 'ada@example.com',
      code: '123456',
    });
    expect(ticket).toBe('reset-ticket');
    await resetPasswordWithTicket(client(), { channel: 'email', ticket, password: 'new passphrase' });
    await resetPasswordWithTicket(client(), { channel: 'mobile', ticket, password: 'new passphrase' });
    expect(sent()).toEqual([
      [
        webPaths.emailCheckCode,
        expect.objectContaining({ email: 'ada@example.com', code: '123456', type: '4' }),
      ],
      [webPaths.passwordResetByEmailTicket, expect.objectContaining({ ticket, password: 'new passphrase' })],
      [webPaths.passwordResetByTicket, expect.objectContaining({ ticket, password: 'new passphrase' })],
    ]);
  });

  it('checks a mobile reset code on mobile/check_code', async () => {
    await verifyResetCode(client(), { channel: 'mobile', target: '+8613912345678', code: '123456' });
    expect(sent()).toEqual([
      [webPaths.mobileCheckCode, expect.objectContaining({ mobile: '+8613912345678', type: '4' })],
    ]);
  });
});
