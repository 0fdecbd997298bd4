import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMonitor, FUNNEL_STEPS, sanitizeUrl, scrubText } from '../src/index';
import { setup } from './fakes';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const page = 'https://accounts.example/login?next=%2F';

describe('sanitizeUrl', () => {
  it('drops the query and the fragment, and the origin when it is the page’s', () => {
    expect(sanitizeUrl('https://accounts.example/reset?mobile=%2B8613800138000#code=1', { base: page })).toBe(
      '/reset',
    );
    expect(sanitizeUrl('/vc/setting?aid=1&language=zh', { base: page })).toBe('/vc/setting');
    expect(sanitizeUrl('https://cdn.example/challenge.js?v=3#x', { base: page })).toBe(
      'https://cdn.example/challenge.js',
    );
  });

  it('keeps allow-listed parameters, and only those', () => {
    const url = 'https://accounts.example/login?aid=1128&email=a%40b.example&lang=en&aid=7';
    expect(sanitizeUrl(url, { base: page, allowParams: ['aid', 'lang'] })).toBe(
      '/login?aid=1128&aid=7&lang=en',
    );
  });

  it('replaces path segments that look like identifiers with :id', () => {
    const cases = {
      'https://accounts.example/user/13800138000/devices': '/user/:id/devices',
      'https://accounts.example/invite/ada%40example.com': '/invite/:id',
      'https://accounts.example/invite/ada@example.com': '/invite/:id',
      'https://accounts.example/t/3f9a8c7e1b2d4f60a1b2c3d4e5f6': '/t/:id',
      'https://accounts.example/assets/index-BxY3k2_a.js': '/assets/index-BxY3k2_a.js',
      'https://accounts.example/orgs/42/members': '/orgs/42/members',
    };
    for (const [url, expected] of Object.entries(cases))
      expect(sanitizeUrl(url, { base: page })).toBe(expected);
  });

  it('says nothing of what it cannot parse, and keeps only the scheme of data and blob addresses', () => {
    expect(sanitizeUrl('http://[::1', { base: page })).toBe('');
    expect(sanitizeUrl('relative/path')).toBe('');
    expect(sanitizeUrl('data:image/png;base64,AAAA', { base: page })).toBe('data:');
  });
});

describe('scrubText', () => {
  it('removes e-mail addresses and phone-like numbers', () => {
    expect(scrubText('No account for ada.lovelace@example.com or +86 138-0013-8000', 500)).toBe(
      'No account for <email> or <number>',
    );
  });

  it('keeps stack frames readable: addresses lose their query, line and column stay', () => {
    const stack = [
      'TypeError: x is undefined',
      '    at submit (https://accounts.example/assets/index-BxY3k2_a.js?v=2:1:1234567)',
      '    at https://cdn.example/vendor.js:12:34',
      'submit@https://accounts.example/assets/app.js#frag:3:9',
    ].join('\n');
    expect(scrubText(stack, 4000, { base: page })).toBe(
      [
        'TypeError: x is undefined',
        '    at submit (/assets/index-BxY3k2_a.js:1:1234567)',
        '    at https://cdn.example/vendor.js:12:34',
        'submit@/assets/app.js:3:9',
      ].join('\n'),
    );
  });

  it('finds numbers at the start of the text and next to punctuation', () => {
    expect(scrubText('13800138000 is taken; call +1 415-555-0100.', 500)).toBe(
      '<number> is taken; call <number>.',
    );
  });

  it('uses no lookbehind, which would be a syntax error that breaks the whole page on Safari before 16.4', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const root = new URL('../src/', import.meta.url);
    const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      expect(await readFile(new URL(file, root), 'utf8'), file).not.toMatch(/\(\?<[=!]/);
    }
  });

  it('cuts at the limit', () => {
    expect(scrubText('a'.repeat(20), 10)).toBe(`${'a'.repeat(9)}…`);
  });
});

describe('what leaves the page', () => {
  it('carries no identifier: the page without its query, funnel fields as short tokens only', () => {
    const { monitor, sink, window } = setup();
    window.location.href = 'https://accounts.example/login?mobile=13800138000&email=a%40b.example#otp=123456';
    monitor.funnel('code_sent', {
      method: 'ada@example.com',
      app: 'web',
      flavour: 'sso',
      error_code: 1.5,
    } as never);
    monitor.funnel('failed', { method: 'mobile_code', error_code: 1105 });
    monitor.flush();
    const body = JSON.stringify(sink.sent);
    expect(body).not.toMatch(/13800138000|example\.|123456|%40/);
    expect(sink.events).toEqual([
      expect.objectContaining({
        step: 'code_sent',
        method: 'other',
        app: 'web',
        flavour: 'sso',
        page: '/login',
      }),
      expect.objectContaining({ step: 'failed', method: 'mobile_code', error_code: 1105 }),
    ]);
    expect(sink.events[0]).not.toHaveProperty('error_code');
  });

  it('knows the funnel’s steps and ignores any other', () => {
    expect(FUNNEL_STEPS).toEqual([
      'method_shown',
      'code_sent',
      'challenge_shown',
      'challenge_solved',
      'second_verify',
      'signed_in',
      'failed',
    ]);
    const { monitor } = setup();
    expect(monitor.funnel('clicked' as never)).toBe(false);
  });

  it('refuses an app that is missing or not a short name, with the fix in the message', () => {
    expect(() => createMonitor({} as never)).toThrow(/`app` is undefined\. Pass your app id/);
    expect(() => setup({ app: 'ada@example.com' })).toThrow(/`app` is "ada@example.com"/);
    expect(setup({ app: 1128 }).monitor.app).toBe('1128');
  });
});
