import * as aff from '@portico/affiliate-sdk';
import { useQueryClient } from '@tanstack/react-query';
import { accountQueryKeys } from '../query-keys';
import { useTouchingMutation } from '../touching-mutation';
import { organisationQueryKeys as keys } from './organisation-keys';

/*
 * The organisation console's changes, one hook per capability. Each takes the organisation
 * (`sec_subject_uid`) once and refreshes only what its change touches: the session where the active
 * identity's name, state or permissions may move (`account/info` carries them), the identities list
 * where a name or a membership moves, and the organisation's own lists otherwise — with its audit log,
 * which records every change.
 */

const session = accountQueryKeys.session;
type In<P, K extends keyof P> = Omit<P, K>;

/** Creates an organisation whose manager is the signed-in person (named by their mobile). */
export const useCreateOrganisation = () =>
  useTouchingMutation(
    (client, v: aff.CreateSubjectByMobile) => aff.createSubjectByMobile(client, v),
    () => [keys.identities],
  );

/** Renames the organisation or edits its details (`subject:update`). */
export const useUpdateOrganisation = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.UpdateSubjectPayload, 'sec_subject_uid'>) =>
      aff.updateSubject(client, { ...v, sec_subject_uid: sid }),
    () => [keys.subject(sid), keys.identities, session, keys.audit(sid)],
  );

/** Freezes (`1`) or thaws (`0`) the organisation; the manager only. */
export const useFreezeOrganisation = (sid: string) =>
  useTouchingMutation(
    (client, is_frozen: 0 | 1) => aff.freezeSubject(client, { sec_subject_uid: sid, is_frozen }),
    () => [keys.subject(sid), keys.identities, session, keys.audit(sid)],
  );

/**
 * Requires (`1`) or stops requiring (`0`) members to use a second factor (`subject:update`); turning
 * it on needs the caller's own session to have proved one.
 */
export const useSecondFactorRequirement = (sid: string) =>
  useTouchingMutation(
    (client, require_second_factor: 0 | 1) =>
      aff.setSecondFactorRequired(client, { sec_subject_uid: sid, require_second_factor }),
    () => [keys.subject(sid), keys.audit(sid)],
  );

/**
 * Adds a member with a role by their mobile or e-mail (`member:create` and `role:assign`): the server
 * sends an invitation, so the members stay as they are until the person accepts it.
 */
export const useAddMember = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.CreateUserWithRolePayload, 'subject_uid'>) =>
      aff.createUserWithRole(client, { ...v, subject_uid: sid }),
    () => [keys.invitations(sid), keys.audit(sid)],
  );

/** Renames a member (`member:update`; one's own without it). */
export const useRenameMember = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.UpdateDeputyPayload, 'sec_subject_uid'>) =>
      aff.updateDeputy(client, { ...v, sec_subject_uid: sid }),
    () => [keys.members(sid), keys.identities, session, keys.audit(sid)],
  );

/** Freezes or thaws a member (`member:freeze`). */
export const useFreezeMember = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.FreezeDeputyPayload, 'sec_subject_uid'>) =>
      aff.freezeDeputy(client, { ...v, sec_subject_uid: sid }),
    () => [keys.members(sid), keys.permissions(sid), keys.audit(sid)],
  );

/** Removes a member (`member:delete`). */
export const useRemoveMember = (sid: string) =>
  useTouchingMutation(
    (client, user_identity_id: string) =>
      aff.deleteDeputy(client, { sec_subject_uid: sid, user_identity_id }),
    () => [keys.members(sid), keys.permissions(sid), keys.audit(sid)],
  );

/** Creates a role granting only permissions the caller holds (`role:create`). */
export const useCreateRole = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.CreateRolePayload, 'subject_uid'>) =>
      aff.createRole(client, { ...v, subject_uid: sid }),
    () => [keys.roles(sid), keys.audit(sid)],
  );

/** Changes a role's name or permissions (`role:update`): its holders' permissions move with it. */
export const useUpdateRole = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.UpdateRolePayload, 'subject_uid'>) =>
      aff.updateRole(client, { ...v, subject_uid: sid }),
    () => [keys.roles(sid), keys.permissions(sid), session, keys.audit(sid)],
  );

/** Bans a role (`1`) or lifts the ban (`0`) (`role:ban`): a banned role grants nothing. */
export const useBanRole = (sid: string) =>
  useTouchingMutation(
    (client, v: { role_key: string; is_banned: 0 | 1 }) => aff.banRole(client, { ...v, subject_uid: sid }),
    () => [keys.roles(sid), keys.permissions(sid), session, keys.audit(sid)],
  );

/** Gives a role to members (`role:assign`). */
export const useGrantRole = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.UserRolesPayload, 'subject_uid'>) =>
      aff.addUserRoles(client, { ...v, subject_uid: sid }),
    () => [keys.members(sid), keys.permissions(sid), session, keys.audit(sid)],
  );

/** Takes a role from members (`role:assign`). */
export const useRevokeRole = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.UserRolesPayload, 'subject_uid'>) =>
      aff.deleteUserRoles(client, { ...v, subject_uid: sid }),
    () => [keys.members(sid), keys.permissions(sid), session, keys.audit(sid)],
  );

/**
 * Leaves the organisation (never its manager) and stays signed in, as the personal identity
 * (`leaveOrganisation`): the session and the identities refresh, nothing cached about it stays.
 */
export function useLeaveOrganisation(sid: string) {
  const queryClient = useQueryClient();
  return useTouchingMutation(
    // biome-ignore lint/suspicious/noConfusingVoidType: the mutation takes no variables, mutate() alone
    (client, _: void) => aff.leaveOrganisation(client, { sec_subject_uid: sid }),
    () => {
      queryClient.removeQueries({ queryKey: keys.of(sid) });
      return [keys.identities, session];
    },
  );
}

export type InviteChannel = aff.InvitationChannel;
export type InviteVariables = In<aff.InviteBase, 'subject_uid'> & {
  channel: InviteChannel;
  contact?: string;
};

/** Invites by e-mail, mobile, workplace chat or a link to copy (`invitation:create`). */
export const useInvite = (sid: string) =>
  useTouchingMutation(
    (client, { channel, contact = '', ...base }: InviteVariables) => {
      const payload = { ...base, subject_uid: sid };
      if (channel === 'link') return aff.inviteByLink(client, payload);
      const send = { email: aff.inviteByEmail, mobile: aff.inviteByMobile, chat: aff.inviteByChat }[channel];
      return send(client, { ...payload, contact });
    },
    () => [keys.invitations(sid), keys.audit(sid)],
  );

/** Sends a pending or expired invitation again with a new link (`invitation:update`). */
export const useResendInvitation = (sid: string) =>
  useTouchingMutation(
    (client, invite_id: string) => aff.resendInvitation(client, { subject_uid: sid, invite_id }),
    () => [keys.invitations(sid), keys.audit(sid)],
  );

/** Changes a pending invitation's name or roles (`invitation:update`). */
export const useUpdateInvitation = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.UpdateInvitationPayload, 'subject_uid'>) =>
      aff.updateInvitation(client, { ...v, subject_uid: sid }),
    () => [keys.invitations(sid), keys.audit(sid)],
  );

/** Cancels a pending invitation: its link dies (`invitation:cancel`). */
export const useCancelInvitation = (sid: string) =>
  useTouchingMutation(
    (client, invite_id: string) => aff.cancelInvitation(client, { subject_uid: sid, invite_id }),
    () => [keys.invitations(sid), keys.audit(sid)],
  );

/** Adds an e-mail domain (`sso:manage`); the answer names the TXT record to publish. */
export const useAddDomain = (sid: string) =>
  useTouchingMutation(
    (client, domain: string) => aff.addDomain(client, { subject_uid: sid, domain }),
    () => [keys.domains(sid), keys.audit(sid)],
  );

/** Asks the server to look the domain's TXT record up and mark it verified (`sso:manage`). */
export const useVerifyDomain = (sid: string) =>
  useTouchingMutation(
    (client, domain: string) => aff.verifyDomain(client, { subject_uid: sid, domain }),
    () => [keys.domains(sid), keys.audit(sid)],
  );

/** Removes an e-mail domain (`sso:manage`). */
export const useRemoveDomain = (sid: string) =>
  useTouchingMutation(
    (client, domain: string) => aff.removeDomain(client, { subject_uid: sid, domain }),
    () => [keys.domains(sid), keys.audit(sid)],
  );

/** Saves the organisation's OpenID Connect connection (`sso:manage`); the secret may be left out. */
export const useSaveSsoConnection = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.SaveSsoConnectionPayload, 'subject_uid'>) =>
      aff.saveSsoConnection(client, { ...v, subject_uid: sid }),
    () => [keys.connection(sid), keys.audit(sid)],
  );

/**
 * Saves the organisation's SAML 2.0 connection (`sso:manage`) from the identity provider's metadata XML
 * or its entity id, address and certificate; it replaces an OpenID Connect one.
 */
export const useSaveSamlConnection = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.SaveSamlConnectionPayload, 'subject_uid'>) =>
      aff.saveSamlConnection(client, { ...v, subject_uid: sid }),
    () => [keys.connection(sid), keys.audit(sid)],
  );

/** Removes the organisation's connection (`sso:manage`); requiring single sign-on lifts with it. */
export const useRemoveSsoConnection = (sid: string) =>
  useTouchingMutation(
    // biome-ignore lint/suspicious/noConfusingVoidType: the mutation takes no variables, mutate() alone
    (client, _: void) => aff.removeSsoConnection(client, { subject_uid: sid }),
    () => [keys.connection(sid), keys.policy(sid), keys.audit(sid)],
  );

/** Saves the single sign-on policy: requiring it, the default role, the role rules (`sso:manage`). */
export const useSaveSsoPolicy = (sid: string) =>
  useTouchingMutation(
    (client, v: In<aff.SaveSsoPolicyPayload, 'subject_uid'>) =>
      aff.saveSsoPolicy(client, { ...v, subject_uid: sid }),
    () => [keys.policy(sid), keys.audit(sid)],
  );

/**
 * The signed-in person's answer to a membership an organisation's identity provider provisioned for
 * their account (`answerMembership`): `{ subject_uid }` accepts it, `{ subject_uid, decline: true }`
 * removes it. The identities list refreshes, and that organisation's member list with it.
 */
export const useAnswerMembership = () =>
  useTouchingMutation(
    (client, v: aff.AnswerMembershipPayload) => aff.answerMembership(client, v),
    (v) => [keys.identities, keys.members(v.subject_uid), keys.audit(v.subject_uid)],
  );

/**
 * Acts as another identity (an organisation's, or the personal one with `sec_subject_uid: null`): a new
 * session, so everything cached about the account refreshes — and nothing outside it.
 */
export const useSwitchIdentity = () =>
  useTouchingMutation(
    (client, identity: Pick<aff.LoginIdentity, 'sec_subject_uid' | 'user_identity_id'>): Promise<unknown> =>
      identity.sec_subject_uid
        ? aff.subjectLogin(client, {
            login_subject_uid: identity.sec_subject_uid,
            user_identity_id: identity.user_identity_id,
          })
        : aff.switchMember(client, { to_sec_member_id: '0' }),
    () => [accountQueryKeys.all],
  );
