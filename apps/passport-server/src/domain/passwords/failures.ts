import { rateLimitKey } from '../../lib/ip';
import type { Identifier } from '../accounts/accounts';

/** The store key counting wrong passwords given for one identifier (the account lock). */
export const passwordFailureKey = (kind: Identifier['kind'] | 'invalid', value: string) =>
  `pw:fail:id:${kind}:${value}`;

/** The store key counting wrong passwords from one client address (IPv6 by its /64), sign-in and update alike. */
export const passwordIpFailureKey = (ip: string) => `pw:fail:ip:${rateLimitKey(ip)}`;

/** The store key counting wrong current passwords of a signed-in account (update locks on it too). */
export const currentPasswordFailureKey = (userId: string) => `pw:fail:user:${userId}`;
