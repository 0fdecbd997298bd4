import { rateLimitKey } from '../../lib/ip';
import type { Identifier } from '../accounts/accounts';

/**
 * The store key counting wrong passwords given for one identifier from one client address (IPv6 by
 * its /64): the temporary lock falls on that pair, the attacker's side, never on the account for
 * everyone (issue 9 item 2). Across addresses the account's failures bring a challenge (src/domain/risk).
 */
export const passwordFailureKey = (kind: Identifier['kind'] | 'invalid', value: string, ip: string) =>
  `pw:fail:id:${kind}:${value}:ip:${rateLimitKey(ip)}`;

/** The store key counting wrong passwords from one client address (IPv6 by its /64), sign-in and update alike. */
export const passwordIpFailureKey = (ip: string) => `pw:fail:ip:${rateLimitKey(ip)}`;

/** The store key counting wrong current passwords of a signed-in account (update locks on it too). */
export const currentPasswordFailureKey = (userId: string) => `pw:fail:user:${userId}`;
