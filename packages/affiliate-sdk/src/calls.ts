import {
  type AccountClient,
  type Call,
  type CallOptions,
  defineCall,
  type SwitchedAccountInfo,
} from '@portico/account-sdk';
import { type AffiliatePath, PAGE_DEFAULTS, affiliatePaths as p } from './protocol/paths';
import type * as T from './protocol/types';

/**
 * Every affiliate call of spec §7 by purpose, as the account SDK's calls are: `await roleCreate(client,
 * { subject_uid, role_key, role_name, permissions })`. They travel through the account client (its
 * common parameters, CSRF header, mix codec for `subject_name`, `base_infos`, `identity_card`,
 * `real_name` and `names`, hooks and plugins); JSON details go as JSON text.
 */

type Path = AffiliatePath;

/** `base_infos` / `detail_infos` as JSON text before the mix codec sees them. */
function withJsonInfos<P extends object, D>(call: Call<P, D>): Call<P, D> {
  return ((client: AccountClient, payload?: P, options?: CallOptions) => {
    if (!payload) return call(client, ...([payload, options] as never));
    const out = { ...payload } as Record<string, unknown>;
    for (const field of ['base_infos', 'detail_infos'])
      if (out[field] !== undefined && typeof out[field] !== 'string') out[field] = JSON.stringify(out[field]);
    return call(client, ...([out, options] as never));
  }) as Call<P, D>;
}

const post = <P extends object, D = Record<string, unknown>>(path: Path) => defineCall<P, D, Path>(path);
const get = <P extends object, D>(path: Path, defaults?: Partial<P>) =>
  defineCall<P, D, Path>(path, defaults ?? null, 'GET');
const paged = <P extends T.PageQuery, D>(path: Path) => get<P, T.Page<D>>(path, PAGE_DEFAULTS as Partial<P>);

// Subjects
/** Creates a subject with the signed-in account (named by its username) as its manager. */
export const createSubjectByUsername = /* @__PURE__ */ withJsonInfos(
  post<T.CreateSubjectByUsername, T.Subject>(p.subjectCreateByUsername),
);
/** Creates a subject with the signed-in account (named by its mobile) as its manager. */
export const createSubjectByMobile = /* @__PURE__ */ withJsonInfos(
  post<T.CreateSubjectByMobile, T.Subject>(p.subjectCreateByMobile),
);
/** Creates a subject with the signed-in account (named by its e-mail) as its manager. */
export const createSubjectByEmail = /* @__PURE__ */ withJsonInfos(
  post<T.CreateSubjectByEmail, T.Subject>(p.subjectCreateByEmail),
);
/** The subjects the signed-in person is a member of, paged (page 1, 10 a page). */
export const listSubjects = /* @__PURE__ */ paged<T.ListSubjectsPayload, T.Subject>(p.subjectList);
/** One subject the caller is a member of. */
export const subjectInfo = /* @__PURE__ */ get<T.SubjectRef, T.Subject>(p.subjectInfo);
/** Updates a subject's name, details or real-name fields (`subject:update`). */
export const updateSubject = /* @__PURE__ */ withJsonInfos(
  post<T.UpdateSubjectPayload, T.Subject>(p.subjectUpdate),
);
/** Freezes (`is_frozen: 1`) or thaws a subject; the manager only. */
export const freezeSubject = /* @__PURE__ */ post<T.FreezeSubjectPayload, T.Subject>(p.subjectFreeze);
/**
 * Requires (`require_second_factor: 1`) or stops requiring members to use a second factor
 * (`subject:update`); turning it on needs the caller's own session to have proved one.
 */
export const setSecondFactorRequired = /* @__PURE__ */ post<T.SecondFactorPayload, T.Subject>(
  p.subjectSecondFactor,
);

// Deputies (member identities)
/** A subject's members, paged (`member:read`). */
export const listDeputies = /* @__PURE__ */ paged<T.ListDeputiesPayload, T.Deputy>(p.deputyList);
/** The signed-in person's member identities in every subject, paged. */
export const listIdentities = /* @__PURE__ */ paged<T.PageQuery, T.Deputy>(p.identityList);
/** Renames a member identity (`member:update`; one's own without it). */
export const updateDeputy = /* @__PURE__ */ post<T.UpdateDeputyPayload, T.Deputy>(p.deputyUpdate);
/** Freezes or thaws a member identity (`member:freeze`); never the manager. */
export const freezeDeputy = /* @__PURE__ */ post<T.FreezeDeputyPayload, T.Deputy>(p.deputyFreeze);
/** Removes a member identity (`member:delete`); never the manager. */
export const deleteDeputy = /* @__PURE__ */ post<T.DeputyRef, { deleted: true }>(p.deputyDelete);

// Resources, roles, user roles
/** The access statement's resources and actions, paged (any member). */
export const resourceList = /* @__PURE__ */ paged<T.ResourceListPayload, T.ResourceRow>(p.resourceList);
/** Creates a role (`role:create`) granting only permissions the caller holds. */
export const createRole = /* @__PURE__ */ post<T.CreateRolePayload, T.Role>(p.roleCreate);
/** Updates a role (`role:update`) granting only permissions the caller holds. */
export const updateRole = /* @__PURE__ */ post<T.UpdateRolePayload, T.Role>(p.roleUpdate);
/** Bans a role (`role:ban`; `is_banned: 0` lifts it): it grants nothing and cannot be assigned. */
export const banRole = /* @__PURE__ */ defineCall<T.BanRolePayload, T.Role, Path>(p.roleBan, {
  is_banned: 1,
});
/** A subject's roles, paged (`role:read`). */
export const listRoles = /* @__PURE__ */ paged<T.RoleListPayload, T.Role>(p.roleList);
/** One role (`role:read`). */
export const roleInfo = /* @__PURE__ */ get<T.RoleRef, T.Role>(p.roleInfo);
/**
 * Invites a member with a role by mobile or e-mail (`member:create` and `role:assign`): an invitation,
 * the same whether or not an account holds the contact; the person joins when they accept it.
 */
export const createUserWithRole = /* @__PURE__ */ post<T.CreateUserWithRolePayload, T.IssuedInvitation>(
  p.userRoleCreateUser,
);
/** Gives a role to members (`role:assign`). */
export const addUserRoles = /* @__PURE__ */ post<T.UserRolesPayload, { added: number }>(p.userRoleAdd);
/** Takes a role from members (`role:assign`). */
export const deleteUserRoles = /* @__PURE__ */ post<T.UserRolesPayload, { removed: number }>(
  p.userRoleDelete,
);
/** The members holding a role, paged (`role:read`). */
export const listUserRoles = /* @__PURE__ */ paged<T.UserRoleListPayload, T.UserRoleLink>(p.userRoleList);
/** Every member-role link of a subject, paged (`role:read`). */
export const allUserRoles = /* @__PURE__ */ paged<T.AllUserRolesPayload, T.UserRoleLink>(p.userRoleAll);
/** A member's permissions in a subject (one's own; another's with `member:read`). */
export const userPermissions = /* @__PURE__ */ get<T.UserPermissionsPayload, T.MemberPermissions>(
  p.userPermissions,
);
/** Why a member has a permission: the roles granting it (one's own; another's with `member:read`). */
export const explainPermission = /* @__PURE__ */ get<T.ExplainPayload, T.PermissionExplanation>(
  p.permissionExplain,
);

// Signing in as an identity
/** Organisation forgot password: a mobile or e-mail identifier, its reset code (type 4) and the new password. */
export const orgForgotPassword = /* @__PURE__ */ post<
  T.ForgotPasswordPayload,
  { user_id: string; signed_in: boolean }
>(p.forgotPassword);
/** The identities the signed-in person may act as (the personal one first). */
export const subjectLoginList = /* @__PURE__ */ get<Record<never, never>, { items: T.LoginIdentity[] }>(
  p.subjectLoginList,
);
/** Makes an identity active: a new session token whose account/info and product token carry it. */
export const subjectLogin = /* @__PURE__ */ post<T.SubjectLoginPayload, SwitchedAccountInfo>(p.subjectLogin);

// Invitations (issue 13)
/** Invites by SMS: `contact` is the mobile number; only who proves that number accepts (`invitation:create`). */
export const inviteByMobile = /* @__PURE__ */ withJsonInfos(
  post<T.InviteByContact, T.IssuedInvitation>(p.inviteByMobile),
);
/** Invites by e-mail: `contact` is the address; only who proves that address accepts. */
export const inviteByEmail = /* @__PURE__ */ withJsonInfos(
  post<T.InviteByContact, T.IssuedInvitation>(p.inviteByEmail),
);
/** Invites through the workplace chat webhook: `contact` is the chat user id; whoever holds the link accepts, once. */
export const inviteByChat = /* @__PURE__ */ withJsonInfos(
  post<T.InviteByContact, T.IssuedInvitation>(p.inviteByChat),
);
/** A shareable link: whoever holds it accepts, once. The answer's `link` is shown to copy. */
export const inviteByLink = /* @__PURE__ */ withJsonInfos(
  post<T.InviteBase, T.IssuedInvitation>(p.inviteByLink),
);
/** A subject's invitations, paged with the page in the path (page 1, 10 a page), filterable by state (`invitation:read`). */
export const listInvitations = ((
  client: AccountClient,
  payload: T.ListInvitationsPayload,
  options?: CallOptions,
) => {
  const { page = PAGE_DEFAULTS.page, ...rest } = payload;
  return client.request<T.Page<T.Invitation>>({
    ...options,
    path: `${p.inviteList}${page}/`,
    method: 'GET',
    data: { page_size: PAGE_DEFAULTS.page_size, ...rest },
    envelope: 'web',
  });
}) as (
  client: AccountClient,
  payload: T.ListInvitationsPayload,
  options?: CallOptions,
) => Promise<T.Page<T.Invitation>>;
/** Cancels a pending invitation: its link dies (`invitation:cancel`). */
export const cancelInvitation = /* @__PURE__ */ post<T.InvitationRef, T.Invitation>(p.inviteCancel);
/** Sends the invitation again with a new ticket (the old link dies) and a new expiry (`invitation:update`). */
export const resendInvitation = /* @__PURE__ */ post<T.ResendInvitationPayload, T.IssuedInvitation>(
  p.inviteResend,
);
/** Changes the name or roles of a pending invitation (`invitation:update`). */
export const updateInvitation = /* @__PURE__ */ post<T.UpdateInvitationPayload, T.Invitation>(p.inviteUpdate);
/** What the holder of a ticket may see before accepting; fails when the invitation is not live. */
export const checkInvitation = /* @__PURE__ */ post<T.InviteTicketPayload, T.InvitationPreview>(
  p.inviteCheck,
);
/** Sends a code to the invited mobile or e-mail, to prove it while accepting. */
export const sendInvitationCode = /* @__PURE__ */ post<T.InviteTicketPayload, T.InvitationCodeSent>(
  p.inviteSendCode,
);
/** Accepts: signed in, or registering in the same call (password and code); the new identity becomes active. */
export const acceptInvitation = /* @__PURE__ */ withJsonInfos(
  post<T.AcceptInvitationPayload, T.AcceptedInvitation>(p.inviteAccept),
);
/** Leaves a subject (never its manager); the identity's sessions end at once. */
export const leaveSubject = /* @__PURE__ */ post<T.SubjectRef, { left: true }>(p.deputyLeave);

// Manager transfer (issue 13)
/** Step 1, the manager: a code (type 22) to their own mobile or e-mail. */
export const sendOldManagerCode = /* @__PURE__ */ post<T.TransferCodePayload, T.InvitationCodeSent>(
  p.managerSendOldCode,
);
/** Step 2, the manager: the code for a single-use ticket. */
export const verifyOldManager = /* @__PURE__ */ post<T.TransferVerifyPayload, T.TransferTicket>(
  p.managerVerifyOld,
);
/** Whether a member can become the manager, and where their code would go (masked); the manager only. */
export const checkNewManager = /* @__PURE__ */ get<T.CheckNewManagerPayload, T.NewManagerCandidate>(
  p.managerCheckNew,
);
/** Step 3, the manager: spends the ticket naming the new manager; the transfer is pending and a code (type 101) goes to them. */
export const startManagerTransfer = /* @__PURE__ */ post<T.StartTransferPayload, T.PendingTransfer>(
  p.managerStart,
);
/** The new manager: the code again. */
export const sendNewManagerCode = /* @__PURE__ */ post<T.SubjectUid, T.InvitationCodeSent>(
  p.managerSendNewCode,
);
/** Step 4, the new manager: the code for a single-use ticket. */
export const verifyNewManager = /* @__PURE__ */ post<T.TransferVerifyPayload, T.TransferTicket>(
  p.managerVerifyNew,
);
/** Step 5, the new manager: commits the transfer in one transaction. */
export const transferManager = /* @__PURE__ */ post<T.TransferCommitPayload, T.Deputy>(p.managerTransfer);
/** Either side abandons the pending transfer. */
export const abandonManagerTransfer = /* @__PURE__ */ post<T.SubjectUid, { abandoned: boolean }>(
  p.managerAbandon,
);
/** The pending transfer the caller is a side of (or null), and who manages the subject now. */
export const pendingManagerTransfer = /* @__PURE__ */ get<
  T.SubjectUid,
  { transfer: T.PendingTransfer | null; manager: { user_identity_id: string; deputy_name: string } | null }
>(p.managerPending);

// The audit log
/**
 * A page of the organisation's audit log (`audit:read`, which the manager holds), newest first: who
 * did what to whom, and when. Pass `next_cursor` as `cursor` for the older page.
 */
export const listAuditLog = /* @__PURE__ */ get<T.AuditListPayload, T.OrganisationAuditPage>(p.auditList);

// Verified domains
/**
 * Adds an e-mail domain to the organisation (`sso:manage`); the answer names the DNS TXT record to
 * publish. Adding a domain proves nothing: `verifyDomain` does.
 */
export const addDomain = /* @__PURE__ */ post<T.DomainRef, T.OrganisationDomain>(p.domainAdd);
/** The organisation's domains, verified or not (`sso:manage`). */
export const listDomains = /* @__PURE__ */ get<T.SubjectUid, { items: T.OrganisationDomain[] }>(p.domainList);
/**
 * Looks the domain's TXT record up and marks it verified when it holds the value `addDomain` gave
 * (`sso:manage`); DOMAIN_NOT_VERIFIED while it is not published yet, DOMAIN_TAKEN when another
 * organisation verified it first.
 */
export const verifyDomain = /* @__PURE__ */ post<T.DomainRef, T.OrganisationDomain>(p.domainVerify);
/** Removes a domain from the organisation (`sso:manage`). */
export const removeDomain = /* @__PURE__ */ post<T.DomainRef, { domain: string }>(p.domainRemove);

// Single sign-on connections
/**
 * Saves the organisation's OpenID Connect connection (`sso:manage`): the server reads the issuer's
 * discovery document first (CONNECTION_DISCOVERY_FAILED when it cannot) and keeps the secret sealed.
 */
export const saveSsoConnection = /* @__PURE__ */ post<T.SaveSsoConnectionPayload, T.SsoConnection>(
  p.connectionSave,
);
/**
 * Saves the organisation's SAML 2.0 connection (`sso:manage`): the identity provider's metadata by its
 * address (the server reads it; saving the same address again refreshes it) or as XML, or its entity
 * id, single sign-on address and signing certificate; CONNECTION_METADATA_INVALID (with a `reason`)
 * when they cannot be read. The answer names our entity id, ACS and metadata address for the provider.
 */
export const saveSamlConnection = /* @__PURE__ */ post<T.SaveSamlConnectionPayload, T.SsoConnection>(
  p.samlConnectionSave,
);
/** The organisation's connection, without its secret (`sso:manage`); CONNECTION_NOT_FOUND when none. */
export const ssoConnectionInfo = /* @__PURE__ */ get<T.SubjectUid, T.SsoConnection>(p.connectionInfo);
/** Removes the organisation's connection (`sso:manage`). */
export const removeSsoConnection = /* @__PURE__ */ post<T.SubjectUid, { removed: boolean }>(
  p.connectionRemove,
);
/**
 * Sets the organisation's single sign-on policy (`sso:manage`): require it (needs a connection), and
 * the roles a first sign-in's membership gets (ROLE_NOT_FOUND for a key the organisation lacks).
 */
export const saveSsoPolicy = /* @__PURE__ */ post<T.SaveSsoPolicyPayload, T.SsoPolicy>(p.policySave);
/** The organisation's single sign-on policy (`sso:manage`); the defaults when never set. */
export const ssoPolicyInfo = /* @__PURE__ */ get<T.SubjectUid, T.SsoPolicy>(p.policyInfo);
/**
 * The signed-in person accepts (or declines) the membership an organisation's identity provider
 * provisioned over SCIM for the account they had before; NOTHING_TO_ACCEPT when none waits.
 */
export const answerMembership = /* @__PURE__ */ post<T.AnswerMembershipPayload, T.MembershipAnswer>(
  p.membershipAccept,
);

/**
 * The address of the organisation's audit log as a file (CSV by default, or JSON), filtered: a link
 * for the browser to download with its session (`<a href download>`), at most 10,000 entries.
 */
export function auditExportUrl(baseUrl: string, query: T.AuditExportQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  return `${baseUrl.replace(/\/$/, '')}${p.auditExport}?${params}`;
}
