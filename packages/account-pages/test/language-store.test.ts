import { accountInfo } from '@portico/account-sdk';
import { webPaths } from '@portico/account-sdk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { createLanguageStore } from '../src';
import { languagePlugin } from '../src/i18n/language-plugin';

const memory = (initial: Record<string, string> = {}) => {
  const map = new Map(Object.entries(initial));
  return {
    getItem: vi.fn((key: string) => map.get(key) ?? null),
    setItem: vi.fn((key: string, value: string) => void map.set(key, value)),
  };
};
const html = () => ({ documentElement: { lang: '' } }) as unknown as Document;

describe('createLanguageStore', () => {
  it('reads nothing when made; the first get() reads the remembered choice and sets <html lang>', () => {
    const storage = memory({ 'portico.language': 'en' });
    const document = html();
    const store = createLanguageStore({ storage, document });
    expect(storage.getItem).not.toHaveBeenCalled();
    expect(store.get()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('switches, remembers under its key and tells its listeners', () => {
    const storage = memory();
    const document = html();
    const store = createLanguageStore({ storage, document, storageKey: 'sso.language', languages: [] });
    const listener = vi.fn();
    store.subscribe(listener);
    expect(store.get()).toBe('zh');
    store.set('en');
    store.set('en');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(storage.setItem).toHaveBeenCalledWith('sso.language', 'en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('works without storage (blocked by privacy settings): the fallback, switched for the visit', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = createLanguageStore({ storage: blocked, document: null, fallback: 'en' });
    expect(store.get()).toBe('en');
    store.set('zh');
    expect(store.get()).toBe('zh');
  });

  it('speaks ui_locales first, for the visit only, then the remembered choice, then the browser', () => {
    const storage = memory({ 'portico.language': 'zh' });
    const asked = createLanguageStore({
      storage,
      document: null,
      location: { search: '?client_id=a&ui_locales=fr-CA%20en-GB' },
      languages: ['zh-CN'],
    });
    expect(asked.get()).toBe('en');
    expect(asked.remembered()).toBe('zh');
    expect(storage.setItem).not.toHaveBeenCalled();

    const chosen = createLanguageStore({ storage, document: null, location: null, languages: ['en-US'] });
    expect(chosen.get()).toBe('zh');

    const browser = (languages: string[]) =>
      createLanguageStore({ storage: memory(), document: null, location: null, languages }).get();
    expect(browser(['fr-FR', 'en-US', 'zh-CN'])).toBe('en');
    expect(browser(['zh-Hant-TW', 'en'])).toBe('zh');
    expect(browser(['fr-FR'])).toBe('zh');
  });

  it('remembers a choice the page already spoke, so the next visit follows the person', () => {
    const storage = memory();
    const store = createLanguageStore({ storage, document: null, location: null, languages: ['en-US'] });
    const listener = vi.fn();
    store.subscribe(listener);
    expect(store.get()).toBe('en');
    store.set('en');
    expect(storage.setItem).toHaveBeenCalledWith('portico.language', 'en');
    expect(listener).not.toHaveBeenCalled();
  });

  it('remembers in a cookie of the host by default, which every app on it reads', () => {
    const page = { cookie: '', documentElement: { lang: '' } };
    let jar = '';
    Object.defineProperty(page, 'cookie', {
      get: () => jar,
      set: (line: string) => {
        jar = line.split(';')[0] ?? '';
      },
    });
    const web = createLanguageStore({ document: page as unknown as Document, location: null, languages: [] });
    expect(web.get()).toBe('zh');
    web.set('en');
    expect(jar).toBe('portico.language=en');
    // The sso app and the phone's pages on the same host: their own stores, the same choice.
    const sso = createLanguageStore({ document: page as unknown as Document, location: null, languages: [] });
    expect(sso.get()).toBe('en');
    expect(page.documentElement.lang).toBe('en');
  });

  it('sends the language of the moment with every call, not the one the client was made with', async () => {
    const store = createLanguageStore({ storage: memory(), document: null, location: null, languages: [] });
    const passport = fakePassport({ [webPaths.accountInfo]: () => ok(signedInAccount) });
    passport.client.use(languagePlugin(store));
    await accountInfo(passport.client, {});
    store.set('en');
    await accountInfo(passport.client, {});
    expect(passport.to(webPaths.accountInfo).map((r) => r.query.language)).toEqual(['zh', 'en']);
  });
});
