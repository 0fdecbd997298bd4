import { PassportError } from '../../errors';

/**
 * The username rules (docs/identifiers.md). A username is what a person types to sign in with a
 * password, so it must never read as another identifier and never impersonate the service:
 *
 * - 3 to 32 characters after Unicode NFKC and trimming;
 * - ASCII letters, digits, `_`, `.` and `-`, starting with a letter (so it never reads as a mobile
 *   number, and it has no `@`, so never as an e-mail address);
 * - no two separators in a row, and none at the end;
 * - compared and stored lower-cased: `Alice` and `alice` are one username, taken once;
 * - not one of the reserved words below (nor one of them followed only by digits, `admin1`).
 */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;

const SHAPE = /^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*$/;

export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'admin',
  'administrator',
  'root',
  'system',
  'sysadmin',
  'superuser',
  'support',
  'help',
  'helpdesk',
  'security',
  'abuse',
  'postmaster',
  'hostmaster',
  'webmaster',
  'noreply',
  'no-reply',
  'info',
  'staff',
  'moderator',
  'owner',
  'official',
  'portico',
  'passport',
  'account',
  'accounts',
  'login',
  'logout',
  'signin',
  'signup',
  'register',
  'api',
  'www',
  'mail',
  'sso',
  'oauth',
  'auth',
  'null',
  'undefined',
  'anonymous',
  'guest',
  'user',
  'test',
]);

/** A username normalised for storage, or USERNAME_INVALID / USERNAME_RESERVED. */
export function usernameOf(input: string): string {
  const name = input.normalize('NFKC').trim().toLowerCase();
  if (name.length < USERNAME_MIN || name.length > USERNAME_MAX || !SHAPE.test(name))
    throw new PassportError('usernameInvalid');
  if (RESERVED_USERNAMES.has(name) || RESERVED_USERNAMES.has(name.replace(/\d+$/, '')))
    throw new PassportError('usernameReserved');
  return name;
}
