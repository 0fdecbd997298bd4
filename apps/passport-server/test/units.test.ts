import { describe, expect, it } from 'vitest';
import { PassportError } from '../src/errors';
import { normaliseEmail, normaliseMobile } from '../src/lib/identifiers';
import { networkKey, rateLimitKey } from '../src/lib/ip';
import { safeRedirect } from '../src/lib/redirect';

describe('rate-limit keys', () => {
  it('keys IPv6 by its /64 whatever the textual form', () => {
    const forms = [
      '2001:db8:a:b::1',
      '2001:0db8:000a:000b:0000:0000:0000:0001',
      '2001:DB8:A:B:1:2:3:4',
      '[2001:db8:a:b::9]',
      'fe80::1%eth0',
    ];
    expect(new Set(forms.slice(0, 4).map(rateLimitKey))).toEqual(new Set(['2001:db8:a:b::/64']));
    expect(rateLimitKey(forms[4] ?? '')).toBe('fe80:0:0:0::/64');
  });

  it('reads IPv4-mapped IPv6 as the IPv4 address', () => {
    expect(rateLimitKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(rateLimitKey('::ffff:c000:207')).toBe('192.0.2.7');
    expect(rateLimitKey('192.0.2.7')).toBe('192.0.2.7');
  });

  it('keys the wider IPv6 networks by /48 and /32 whatever the textual form, and IPv4 not at all', () => {
    const forms = ['2001:db8:a:b::1', '2001:0DB8:000A:ffff:1:2:3:4', '[2001:db8:a::9]'];
    expect(new Set(forms.map((form) => networkKey(form, 48)))).toEqual(new Set(['2001:db8:a::/48']));
    expect(networkKey('2001:db8:ffff:1::1', 32)).toBe('2001:db8::/32');
    for (const address of ['192.0.2.7', '::ffff:192.0.2.7', 'not an address'])
      expect(networkKey(address, 48), address).toBeNull();
  });
});

describe('identifiers', () => {
  it('normalises mobiles to E.164 and refuses non-mobile numbers', () => {
    expect(normaliseMobile('138 0013 8000', 'CN')?.e164).toBe('+8613800138000');
    expect(normaliseMobile('+1 (201) 555-0123', 'CN')?.e164).toBe('+12015550123');
    expect(normaliseMobile('010 1234 5678', 'CN')).toBeNull();
    expect(normaliseMobile('not a number', 'CN')).toBeNull();
  });

  it('trims and lower-cases e-mails and refuses what is not one', () => {
    expect(normaliseEmail('  Ann@Example.COM ')).toBe('ann@example.com');
    expect(normaliseEmail('ann@localhost')).toBeNull();
    expect(normaliseEmail('a b@example.com')).toBeNull();
  });
});

describe('redirect targets', () => {
  const check = (next: unknown) =>
    safeRedirect(next, 'https://passport.example.com', ['https://app.example.com']);
  it('keeps same-origin paths and allow-listed origins only', () => {
    expect(check('/a/b?c=d#e')).toBe('/a/b?c=d#e');
    expect(check('https://app.example.com/x')).toBe('https://app.example.com/x');
    expect(check('https://passport.example.com/y')).toBe('https://passport.example.com/y');
    for (const bad of [
      '//evil.com',
      '/\\evil.com',
      'https://APP.example.com.evil.com',
      'https://user@app.example.com/',
      'javascript:alert(1)',
      '/\tx',
      '',
      42,
      undefined,
    ]) {
      expect(check(bad)).toBe('/');
    }
  });
});

describe('PassportError', () => {
  it('captures no stack for an answer to the client, keeps one for a server failure, and restores the limit', () => {
    const limit = Error.stackTraceLimit;
    const answer = new PassportError('notLoggedIn');
    expect(answer.statusCode).toBeLessThan(500);
    expect(answer.stack?.split('\n')).toHaveLength(1);
    const failure = new PassportError('internalError');
    expect(failure.statusCode).toBeGreaterThanOrEqual(500);
    expect(failure.stack?.split('\n').length).toBeGreaterThan(1);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('plain').stack?.split('\n').length).toBeGreaterThan(1);
  });
});
