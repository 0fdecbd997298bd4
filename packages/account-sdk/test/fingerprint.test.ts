import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDottedHostName, waitForFingerprint, webIdCookie } from '../src';
import { isWebId } from '../src/protocol';
import { cookieJar } from './support/cookie-jar';

describe('the s_v_web_id fingerprint', () => {
  it('creates one verify_ web id when the browser has none, and keeps it', () => {
    const doc = cookieJar();
    const provider = webIdCookie(doc);
    const first = provider();
    expect(isWebId(first)).toBe(true);
    expect(doc.cookie).toBe(`s_v_web_id=${first}`);
    expect(provider()).toBe(first);
    expect(webIdCookie(doc)()).toBe(first);
    expect(doc.writes).toHaveLength(1);
  });

  it('reuses a web id the browser already has', () => {
    const id = 'verify_lx2k3m4n_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef';
    const doc = cookieJar({ s_v_web_id: id });
    expect(webIdCookie(doc)()).toBe(id);
    expect(doc.writes).toHaveLength(0);
  });

  it('sets the cookie domain only when the configured domain looks like a dotted host name', () => {
    const dotted = cookieJar();
    webIdCookie(dotted, '.example.com')();
    expect(dotted.writes[0]).toContain('; domain=.example.com');
    for (const domain of ['localhost', '127.0.0.1', 'bad domain', '.com']) {
      const doc = cookieJar();
      webIdCookie(doc, domain)();
      expect(doc.writes[0]).not.toContain('domain=');
    }
  });

  it.each([
    ['example.com', true],
    ['.example.com', true],
    ['a.b-c.example.co', true],
    ['localhost', false],
    ['10.0.0.1', false],
    ['-bad.com', false],
    ['exa mple.com', false],
  ])('isDottedHostName(%s) is %s', (domain, expected) => {
    expect(isDottedHostName(domain)).toBe(expected);
  });
});

describe('waiting for the fingerprint', () => {
  afterEach(() => vi.useRealTimers());

  it('waits at most 1000 ms for the provider, then uses the empty string', async () => {
    vi.useFakeTimers();
    const wait = waitForFingerprint(() => new Promise<string>(() => {}));
    let value: string | undefined;
    void wait().then((v) => {
      value = v;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(value).toBe('');
  });

  it('runs the provider once and serves a late answer to later requests', async () => {
    vi.useFakeTimers();
    let resolve!: (v: string) => void;
    const provider = vi.fn(() => new Promise<string>((r) => (resolve = r)));
    const wait = waitForFingerprint(provider);
    const first = wait();
    await vi.advanceTimersByTimeAsync(1000);
    await expect(first).resolves.toBe('');
    resolve('verify_late');
    await expect(wait()).resolves.toBe('verify_late');
    expect(provider).toHaveBeenCalledTimes(1);
  });

  it('gives the empty string when the provider throws', async () => {
    await expect(
      waitForFingerprint(() => {
        throw new Error('no canvas');
      })(),
    ).resolves.toBe('');
  });
});
