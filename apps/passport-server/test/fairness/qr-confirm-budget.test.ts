import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, paths } from '../../src/protocol';
import { passCooldown, signInBySms } from '../support/flows';
import { codeFor, freshMobile, startServer, type TestServer } from '../support/server';

/**
 * The QR two-step confirmation carries an SMS code to the account's mobile. Its wrong guesses were
 * charged to the owner's lane (one budget per number), so a stolen session could spend it with five
 * wrong codes every ten minutes and hold the owner's own SMS sign-in back. The confirmation's codes
 * now have a lane of their own per session: its guesses spend that budget only.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ secondVerify: true }, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

describe('QR two-step confirmation guesses', () => {
  it('five wrong guesses from a stolen session never spend the owner’s code budget', async () => {
    const mobile = freshMobile();
    // The owner's phone: signed in by SMS, so a device the account remembers; then signed out.
    const home = server.browser();
    await signInBySms(server, home, mobile);
    await home.post(paths.web.logout, {});

    // A session of the account in someone else's hands.
    const thief = server.browser();
    await passCooldown();
    await signInBySms(server, thief, mobile);

    const desktop = server.browser();
    const { token } = (await desktop.get('/passport/web/get_qrcode/')).body.data;
    expect((await thief.post('/passport/web/scan_qrcode/', { token })).body.message).toBe('success');
    const { number } = (await desktop.get(`/passport/web/check_qrconnect/?token=${token}`)).body.data;
    await passCooldown();
    const step = await thief.post('/passport/qrcode/scan_qrcode/', { token });
    expect(step.body.message, JSON.stringify(step.body)).toBe('success');
    const sent = await codeFor(server.app, mobile);
    const wrong = sent === '000000' ? '111111' : '000000';
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await thief.post('/passport/qrcode/confirm_by_ticket/', {
        ticket: step.body.data.ticket,
        number,
        code: wrong,
      });
      answers.push(answer.body.data.error_code);
    }
    expect(answers.slice(0, 5)).toEqual(Array(5).fill(ErrorCode.codeWrong));

    // The owner on the remembered phone asks for a code and signs in with it, at once.
    await passCooldown();
    const again = await home.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    expect(again.body.message, JSON.stringify(again.body)).toBe('success');
    const login = await home.post(paths.web.smsLogin, { mobile, code: await codeFor(server.app, mobile) });
    expect(login.body.message, JSON.stringify(login.body)).toBe('success');
  });
});
