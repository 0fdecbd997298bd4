/**
 * `@portico/affiliate-sdk`: organisations for Portico over `@portico/account-sdk`'s client — subjects,
 * member identities, roles, permissions and signing in as an organisation identity. Each call is its
 * own export taking the account client first. The shared tables are `@portico/affiliate-sdk/protocol`.
 */
export { switchMember } from '@portico/account-sdk';
export * from './calls';
export { affiliatePlugin } from './plugin';
export type * from './protocol/types';
