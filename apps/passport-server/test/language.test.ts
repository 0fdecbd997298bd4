import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, LANGUAGE_COOKIE, paths } from '../src/protocol';
import { signInBySms } from './support/flows';
import { startServer, type TestServer } from './support/server';

/**
 * The person's language follows them (docs/web.md "Language"): saved by update/language while signed
 * in, handed at sign-in to a browser that has no choice of its own; a browser's own choice stays first.
 */
let server: TestServer;
beforeAll(async () => {
  // One person signs in on three browsers: no cooldown between the codes to their one mobile.
  server = await startServer({}, { limits: { sendCooldownMs: 0 } });
});
afterAll(async () => server?.close());

const savedLanguage = async (userId: string) =>
  (
    await server.app.db
      .selectFrom('users')
      .select('language')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  ).language;

describe('the saved language', () => {
  it('follows the person to a new browser, and a browser that chose keeps its choice', async () => {
    const laptop = server.browser();
    const { mobile, userId } = await signInBySms(server, laptop);
    expect(await savedLanguage(userId)).toBeNull();
    // A first sign-in with nothing saved hands over nothing.
    expect(laptop.cookies.has(LANGUAGE_COOKIE)).toBe(false);

    const saved = await laptop.post(paths.profile.updateLanguage, { language: 'en' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ language: 'en' });
    expect(await savedLanguage(userId)).toBe('en');

    // A new phone, never switched: it starts in the person's language once they sign in.
    const phone = server.browser();
    await signInBySms(server, phone, mobile);
    expect(phone.cookies.get(LANGUAGE_COOKIE)).toBe('en');

    // A shared computer someone set to Chinese keeps Chinese.
    const shared = server.browser();
    shared.cookies.set(LANGUAGE_COOKIE, 'zh');
    await signInBySms(server, shared, mobile);
    expect(shared.cookies.get(LANGUAGE_COOKIE)).toBe('zh');
  });

  it('is saved only for a signed-in person, and only zh or en', async () => {
    const stranger = server.browser();
    const anonymous = await stranger.post(paths.profile.updateLanguage, { language: 'en' });
    expect(anonymous.body.data?.error_code).toBe(ErrorCode.notLoggedIn);

    const person = server.browser();
    const { userId } = await signInBySms(server, person);
    for (const language of ['fr', '', 'EN']) {
      const refused = await person.post(paths.profile.updateLanguage, { language });
      expect(refused.status, language).toBeGreaterThanOrEqual(400);
      expect(refused.status, language).toBeLessThan(500);
      expect(refused.body.message, language).toBe('error');
    }
    expect(await savedLanguage(userId)).toBeNull();
  });
});
