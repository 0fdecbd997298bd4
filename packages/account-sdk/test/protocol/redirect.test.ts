import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../src/protocol';
import { REDIRECT_ALLOWED, REDIRECT_ORIGIN, REDIRECT_SPELLINGS } from './redirect-spellings';

const policy = { origin: REDIRECT_ORIGIN, allowedOrigins: [REDIRECT_ALLOWED] };

describe('the one redirect rule', () => {
  it('has at least 60 spellings to hold it to', () => {
    expect(REDIRECT_SPELLINGS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(REDIRECT_SPELLINGS)('%j → %j', (target, expected) => {
    expect(safeRedirect(target, policy)).toBe(expected);
  });

  it('never answers a target a browser would send to another host, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (suffix) => {
        for (const target of [`/${suffix}`, `/.${suffix}`, `/${suffix}//x`, suffix]) {
          const answer = safeRedirect(target, policy);
          if (answer === null) continue;
          // What a browser on our origin does with the answer: it must land on an allowed origin.
          const landed = new URL(answer, REDIRECT_ORIGIN).origin;
          expect([REDIRECT_ORIGIN, REDIRECT_ALLOWED]).toContain(landed);
          if (!/^https?:/i.test(answer))
            expect(answer.startsWith('/') && !answer.startsWith('//')).toBe(true);
        }
      }),
    );
  });

  it('refuses non-strings and a malformed policy origin without throwing', () => {
    for (const target of [undefined, null, 42, ['/'], { href: '/' }])
      expect(safeRedirect(target, policy)).toBeNull();
    expect(safeRedirect('/x', { origin: 'not a url' })).toBeNull();
  });
});
