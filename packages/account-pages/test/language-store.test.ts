import { describe, expect, it, vi } from 'vitest';
import { createLanguageStore } from '../src';

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
    const store = createLanguageStore({ storage, document, storageKey: 'sso.language' });
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
});
