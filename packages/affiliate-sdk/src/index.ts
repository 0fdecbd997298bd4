/**
 * `@portico/affiliate-sdk`: organisations for Portico over `@portico/account-sdk`'s client — subjects,
 * member identities, roles, permissions and signing in as an organisation identity. Each call is its
 * own export taking the account client first; the multi-call flows (manager transfer, accepting an
 * invitation) are framework-free observables. The shared tables are `@portico/affiliate-sdk/protocol`.
 */
export { switchMember } from '@portico/account-sdk';
export * from './calls';
export {
  createInvitationAcceptance,
  type InvitationAcceptanceFlow,
  type InvitationAcceptanceSnapshot,
} from './flows/invitation-acceptance';
export { leaveOrganisation } from './flows/leave';
export {
  createManagerTransfer,
  type ManagerTransferFlow,
  type ManagerTransferSnapshot,
} from './flows/manager-transfer';
export { affiliatePlugin } from './plugin';
export type * from './protocol/types';
export {
  type SecondFactorDialog,
  type SecondFactorOptions,
  type SecondFactorRequest,
  secondFactorPlugin,
} from './second-factor';
