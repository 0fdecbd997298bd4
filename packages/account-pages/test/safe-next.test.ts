import { describe, expect, it } from 'vitest';
import { REDIRECT_ORIGIN, REDIRECT_SPELLINGS } from '../../account-sdk/test/protocol/redirect-spellings';
import { nextOrFallback } from '../src/next/after-sign-in';
import { loginHref, safeNext } from '../src/next/safe-next';

const SIGNED_OUT = ['/login', '/sign-up', '/reset-password'];
const afterSignIn = (next: string | null) => nextOrFallback(next, '/workbench', SIGNED_OUT);

describe('safeNext: where a sign-in may send the browser', () => {
  it.each([
    ['/workbench', '/workbench'],
    ['/privacy-policy/2026-11-22?x=1#top', '/privacy-policy/2026-11-22?x=1#top'],
    ['/a/../workbench', '/workbench'],
  ])('keeps the same-origin path %s', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    '',
    'workbench',
    '//evil.example/x',
    '/\\evil.example/x',
    '\\\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/\t/evil.example',
    '/\n/evil.example',
    ' /workbench',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (next) => {
    expect(safeNext(next)).toBeNull();
  });

  it.each(REDIRECT_SPELLINGS)(
    'follows the one redirect rule for %j (same-origin paths only)',
    (next, rule) => {
      expect(safeNext(next, REDIRECT_ORIGIN)).toBe(rule?.startsWith('/') ? rule : null);
    },
  );

  it('sends a signed-in visit to a safe next, else to the workbench, never back to a sign-in page', () => {
    expect(afterSignIn('/extension')).toBe('/extension');
    expect(afterSignIn('//evil.example')).toBe('/workbench');
    expect(afterSignIn(null)).toBe('/workbench');
    expect(afterSignIn('/login?next=/login')).toBe('/workbench');
    expect(afterSignIn('/SIGN-UP')).toBe('/workbench');
    expect(afterSignIn('/login-help')).toBe('/login-help');
    expect(afterSignIn('/login/')).toBe('/workbench');
    expect(afterSignIn('/reset-password/x#y')).toBe('/workbench');
  });

  it('builds /login?next=… with the path readable and the rest escaped', () => {
    expect(loginHref('/workbench')).toBe('/login?next=/workbench');
    expect(loginHref('/a?b=1&c=2')).toBe('/login?next=/a%3Fb%3D1%26c%3D2');
    expect(loginHref('//evil.example')).toBe('/login');
  });
});
