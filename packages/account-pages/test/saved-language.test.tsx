import { ErrorCode, LANGUAGE_COOKIE, profilePaths, webPaths } from '@portico/account-sdk/protocol';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { createLanguageStore, LanguageSwitch } from '../src';
import { renderAuthApp } from './support/app';

/**
 * The person's saved language in the pages (the server's side: apps/passport-server/test/language.test.ts).
 * The sign-in's answer carries the cookie the server hands over; the store stands in for the cookie jar.
 */
const memory = (initial: Record<string, string> = {}) => {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  };
};
const html = () => ({ documentElement: { lang: '' } }) as unknown as Document;

describe('the saved language', () => {
  it('a sign-in on a browser without a choice takes up the one the server handed over', async () => {
    const storage = memory();
    const languageStore = createLanguageStore({ storage, document: html(), languages: ['zh-CN'] });
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.userLogin]: () => {
        // What the passport's Set-Cookie does: the person saved English.
        storage.setItem(LANGUAGE_COOKIE, 'en');
        return ok(signedInAccount);
      },
    });
    const { router } = renderAuthApp(passport.client, '/login?next=/workbench', {
      methods: ['password'],
      languageStore,
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('手机号、邮箱或用户名'), 'ada');
    await user.type(screen.getByLabelText('密码'), 'a long passphrase');
    await user.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/workbench'));
    expect(languageStore.get()).toBe('en');
  });

  it('the switch tells the app what the person chose, so a signed-in app saves it', async () => {
    const languageStore = createLanguageStore({ storage: memory(), document: html(), languages: [] });
    const onChoose = vi.fn();
    render(<LanguageSwitch store={languageStore} onChoose={onChoose} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'English' }));
    expect(onChoose).toHaveBeenCalledWith('en');
    expect(languageStore.get()).toBe('en');
  });

  it('the SDK call the apps make: update/language with the choice', async () => {
    const passport = fakePassport({ [profilePaths.updateLanguage]: () => ok({ language: 'en' }) });
    const { saveLanguage } = await import('@portico/account-sdk');
    await expect(saveLanguage(passport.client, { language: 'en' })).resolves.toEqual({ language: 'en' });
    expect(passport.to(profilePaths.updateLanguage)[0]?.body).toMatchObject({ language: 'en' });
  });
});
