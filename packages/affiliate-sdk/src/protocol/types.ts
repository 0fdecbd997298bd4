/** The wire types of the affiliate calls (snake_case, as the passport sends and takes them). */
import type { AccountInfo, AuditPageData, MemberIdentity } from '@portico/account-sdk/protocol';

/** A page of a list: the spec's defaults are page 1, 10 a page. */
export interface PageQuery {
  page?: number;
  page_size?: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
  has_more: boolean;
}

/** JSON details of a subject; at most LIMITS 8 KiB each once serialised. */
export type Infos = Record<string, unknown>;

export interface Subject {
  sec_subject_uid: string;
  subject_name: string;
  base_infos: Infos;
  detail_infos: Infos;
  /** Whether real-name fields are on file (they are stored encrypted and never sent back). */
  has_real_name: boolean;
  is_frozen: 0 | 1;
  /** 1: members must use a second factor (a passkey or an authenticator app) to act as its identities. */
  require_second_factor: 0 | 1;
  created_at: number;
}

/** A member identity (deputy). */
export interface Deputy {
  user_identity_id: string;
  sec_subject_uid: string;
  sec_user_id: string;
  deputy_name: string;
  is_manager: boolean;
  is_frozen: 0 | 1;
  /** Provisioned by the organisation's identity provider (SCIM) and frozen until the person accepts. */
  awaiting_acceptance: boolean;
  role_keys: string[];
  created_at: number;
}

/** One identity the signed-in person may act as; user_identity_id '0' is the personal one. */
export type LoginIdentity = MemberIdentity;

export interface Role {
  role_key: string;
  role_name: string;
  permissions: string[];
  description: string;
  is_banned: 0 | 1;
  created_at: number;
  updated_at: number;
}

export interface ResourceRow {
  resource: string;
  actions: string[];
}

export interface UserRoleLink {
  user_identity_id: string;
  deputy_name: string;
  role_key: string;
  role_name: string;
}

export interface MemberPermissions {
  user_identity_id: string;
  is_manager: boolean;
  permissions: string[];
}

/** Why a member holds a permission: each role granting it, with its permission entries. */
export interface PermissionExplanation {
  user_identity_id: string;
  permission: string;
  granted: boolean;
  /** true when the member is the subject's manager (who holds every permission). */
  by_manager: boolean;
  roles: { role_key: string; role_name: string; permissions: string[] }[];
  /** The member's banned roles that would grant it (a banned role grants nothing). */
  banned_roles: string[];
}

/** The active identity as account/info and the product token carry it (`org` claim). */
export interface ActiveIdentity {
  sec_subject_uid: string;
  user_identity_id: string;
  is_manager: boolean;
  permissions: string[];
}

// Payloads

export interface CreateSubjectBase {
  subject_name: string;
  deputy_name: string;
  /** The signed-in account's password, re-checked when given. */
  password?: string;
  base_infos?: Infos;
  detail_infos?: Infos;
  identity_card?: string;
  real_name?: string;
}
/** The identifier, when given, must name the signed-in account (it never says who acts). */
export interface CreateSubjectByUsername extends CreateSubjectBase {
  username?: string;
}
export interface CreateSubjectByMobile extends CreateSubjectBase {
  mobile?: string;
}
export interface CreateSubjectByEmail extends CreateSubjectBase {
  email?: string;
}
export interface SubjectRef {
  sec_subject_uid: string;
}
export interface ListSubjectsPayload extends PageQuery {
  /** Only the subject of this identity. */
  deputy_identity_id?: string;
}
export interface UpdateSubjectPayload extends SubjectRef {
  subject_name?: string;
  base_infos?: Infos;
  detail_infos?: Infos;
  identity_card?: string;
  real_name?: string;
}
export interface FreezeSubjectPayload extends SubjectRef {
  is_frozen: 0 | 1;
}
export interface SecondFactorPayload extends SubjectRef {
  /** 1: members must use a second factor; 0: they need not. */
  require_second_factor: 0 | 1;
}
export interface ListDeputiesPayload extends SubjectRef, PageQuery {}
export interface DeputyRef extends SubjectRef {
  user_identity_id: string;
}
export interface UpdateDeputyPayload extends DeputyRef {
  deputy_name: string;
}
export interface FreezeDeputyPayload extends DeputyRef {
  is_frozen: 0 | 1;
}
export interface SubjectUid {
  subject_uid: string;
}
export interface ResourceListPayload extends SubjectUid, PageQuery {}
export interface CreateRolePayload extends SubjectUid {
  role_key: string;
  role_name: string;
  permissions: string[];
  description?: string;
}
export interface UpdateRolePayload extends SubjectUid {
  role_key: string;
  role_name?: string;
  permissions?: string[];
  description?: string;
}
export interface BanRolePayload extends SubjectUid {
  role_key: string;
  /** 1 bans, 0 lifts the ban. Default 1. */
  is_banned?: 0 | 1;
}
export interface RoleRef extends SubjectUid {
  role_key: string;
}
export interface RoleListPayload extends SubjectUid, PageQuery {}
export interface CreateUserWithRolePayload extends SubjectUid {
  /** The mobile or e-mail to invite (an account holding it joins by accepting; a username is refused). */
  account: string;
  deputy_name: string;
  role_key: string;
}
export interface UserRolesPayload extends SubjectUid {
  role_key: string;
  sec_user_identity_ids: string[];
}
export interface UserRoleListPayload extends SubjectUid, PageQuery {
  role_key: string;
}
export interface AllUserRolesPayload extends SubjectUid, PageQuery {}
export interface UserPermissionsPayload extends SubjectUid {
  /** Whose permissions; default the caller's own identity in the subject. */
  identity_id?: string;
}
export interface ExplainPayload extends UserPermissionsPayload {
  permission: string;
}
export interface ForgotPasswordPayload {
  /** A mobile number or an e-mail address. */
  identifier: string;
  code: string;
  password: string;
}
export interface SubjectLoginPayload {
  login_subject_uid: string;
  user_identity_id: string;
  /** 1: a frozen identity answers with its frozen state instead of being refused. Default 0. */
  need_frozen_user?: 0 | 1;
}

// Invitations (issue 13)

/** How an invitation travels: SMS, e-mail, the workplace chat webhook, or a link the inviter shares. */
export type InvitationChannel = 'mobile' | 'email' | 'chat' | 'link';
/** `expired` is a pending invitation past its `expires_at`. */
export type InvitationState = 'pending' | 'accepted' | 'cancelled' | 'expired';

export interface Invitation {
  invite_id: string;
  sec_subject_uid: string;
  channel: InvitationChannel;
  /** The invited contact: a masked mobile or e-mail, the chat id, or null for a link. */
  contact: string | null;
  /** The identity the invitation creates on acceptance (its id is fixed at creation). */
  deputy_identity_id: string;
  deputy_name: string;
  role_keys: string[];
  state: InvitationState;
  inviter_identity_id: string | null;
  inviter_name: string;
  next_url: string | null;
  extra: Infos;
  resent_count: number;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

/** What the inviter gets on creating or resending: the invitation, its ticket and link (shown once). */
export interface IssuedInvitation extends Invitation {
  invite_ticket: string;
  link: string;
}

/** What anyone holding the ticket may see before accepting: nothing more. */
export interface InvitationPreview {
  subject_name: string;
  inviter_name: string;
  role_names: string[];
  channel: InvitationChannel;
  /** Masked mobile or e-mail; the chat id's first characters; null for a link. */
  contact: string | null;
  expires_at: number;
}

export interface InviteBase extends SubjectUid {
  /** The name of the identity the invitation creates. */
  deputy_name: string;
  /** The roles it grants (each must be granted only permissions the inviter holds). */
  role_keys?: string[];
  /** Where the invitee goes after accepting: a same-origin path or an allowed origin. */
  next_url?: string;
  /**
   * @deprecated Ignored: the link is the server's own (its public origin's `/invite` page), whatever
   * the inviter sends.
   */
  link?: string;
  /** Free JSON details kept with the invitation (at most 2 KiB). */
  extra?: Infos;
}
export interface InviteByContact extends InviteBase {
  /** A mobile number, an e-mail address, or a chat user id, by route. */
  contact: string;
}
export interface ListInvitationsPayload extends SubjectUid, PageQuery {
  state?: InvitationState;
}
export interface InvitationRef extends SubjectUid {
  invite_id: string;
}
export interface ResendInvitationPayload extends InvitationRef {
  next_url?: string;
  /** @deprecated Ignored: the link is the server's own. */
  link?: string;
}
export interface UpdateInvitationPayload extends InvitationRef {
  /** When given, must be the invitation's identity (it never changes). */
  deputy_identity_id?: string;
  deputy_name?: string;
  role_keys?: string[];
}
export interface InviteTicketPayload {
  invite_ticket: string;
}
export interface AcceptInvitationPayload extends InviteTicketPayload {
  /** A new account's password (accepting without an account registers one). */
  password?: string;
  /** A code sent to the invited mobile or e-mail by `sendInvitationCode` (proves the contact). */
  code?: string;
  extra?: Infos;
}
export interface InvitationCodeSent {
  contact: string;
  retry_time: number;
  expires_in: number;
}
/** The account as every sign-in answers it, now acting as the identity the invitation made. */
export interface AcceptedInvitation extends Omit<AccountInfo, 'org'> {
  /** The identity made and now active. */
  org: NonNullable<AccountInfo['org']>;
  next_url: string | null;
}

// Manager transfer (issue 13)

export type CodeChannel = 'mobile' | 'email';
export interface TransferCodePayload extends SubjectUid {
  /** Where the code goes: the account's mobile (default) or e-mail. */
  channel?: CodeChannel;
}
export interface TransferVerifyPayload extends TransferCodePayload {
  code: string;
}
/** A single-use, short-lived ticket between the steps of a transfer. */
export interface TransferTicket {
  transfer_ticket: string;
  expires_in: number;
}
export interface CheckNewManagerPayload extends SubjectUid {
  user_identity_id: string;
}
export interface NewManagerCandidate {
  user_identity_id: string;
  deputy_name: string;
  /** Where the candidate's code would go, masked. */
  contact: string;
  channel: CodeChannel;
}
export interface StartTransferPayload extends SubjectUid {
  transfer_ticket: string;
  user_identity_id: string;
}
export interface TransferCommitPayload extends SubjectUid {
  transfer_ticket: string;
}
export interface PendingTransfer {
  transfer_id: string;
  sec_subject_uid: string;
  from_identity_id: string;
  from_name: string;
  to_identity_id: string;
  to_name: string;
  /** Where the new manager's code goes (masked) and by which channel. */
  contact: string;
  channel: CodeChannel;
  /** Which side the caller is. */
  role: 'from' | 'to';
  expires_at: number;
}

/** The filters of an organisation's audit log. */
export interface AuditFilters {
  /** An event type, or a prefix ending in '.' (`organisation.member_`). */
  type?: string;
  /** Who did it (a user id). */
  actor_user_id?: string;
  /** Whom it was done to (a user id). */
  target_user_id?: string;
  /** Ms since the epoch: from (inclusive), to (exclusive). */
  from?: number;
  to?: number;
}

/** `audit/list` (audit:read): a page, newest first. */
export interface AuditListPayload extends SubjectRef, AuditFilters {
  /** `next_cursor` of the page before. */
  cursor?: string;
  /** 1–100, default 20. */
  count?: number;
}

/** A page of the organisation's audit log, with the names of the members it mentions. */
export interface OrganisationAuditPage extends AuditPageData {
  /** Member names by user id (people no longer members are absent: show their id). */
  names: Record<string, string>;
}

/** `audit/export` (audit:read): the filtered log as a file. */
export interface AuditExportQuery extends SubjectRef, AuditFilters {
  format?: 'csv' | 'json';
}

/** An organisation's e-mail domain (sso:manage). */
export interface DomainRef extends SubjectUid {
  /** The domain, e.g. `example.com` (lower-cased, without a trailing dot). */
  domain: string;
}
export interface OrganisationDomain {
  domain: string;
  /** Whether the TXT record was found: only a verified domain routes sign-ins and vouches for e-mails. */
  verified: boolean;
  verified_at: number | null;
  /** Publish a TXT record at this name… */
  record_name: string;
  /** …with this value, then ask to verify. */
  record_value: string;
  created_at: number;
}

/** The organisation's OpenID Connect connection as the console sees it: never its secret. */
export type SsoConnection = OidcSsoConnection | SamlSsoConnection;
export interface OidcSsoConnection {
  protocol: 'oidc';
  issuer: string;
  client_id: string;
  /** Whether a client secret is on file (sealed; never sent back). */
  has_secret: boolean;
  updated_at: number;
}
export interface SamlSsoConnection {
  protocol: 'saml';
  /** The identity provider's entity id. */
  issuer: string;
  /** The identity provider's single sign-on address (HTTP-Redirect binding). */
  sso_url: string;
  /** How many signing certificates are on file. */
  certificates: number;
  /** Our entity id for this organisation, to give the identity provider. */
  sp_entity_id: string;
  /** Our assertion consumer service (HTTP-POST binding), to give the identity provider. */
  acs_url: string;
  /** Our service provider metadata, to upload at the identity provider. */
  sp_metadata_url: string;
  /** The address the identity provider's metadata was read from (save it again to read it again); null when given. */
  metadata_url: string | null;
  updated_at: number;
}
/** A rule of the single sign-on policy: a claim holding `value` (or a list with it) gives `role_key`. */
export interface SsoRoleRule {
  /** A claim of the ID token or the userinfo, e.g. `groups`. */
  claim: string;
  value: string;
  role_key: string;
}
export interface SsoPolicy {
  /** Members whose e-mail is in a verified domain sign in to the organisation only through its connection. */
  require_sso: boolean;
  /** The role of a first sign-in's membership when no rule matches; null: none. */
  default_role_key: string | null;
  /** Every matching rule gives its role; at most 20. */
  role_rules: SsoRoleRule[];
  /** A first sign-in through the connection makes the membership (just in time); off, members only. */
  jit_provisioning: boolean;
}
/** Accept (or, with `decline`, refuse) a membership an organisation's identity provider provisioned. */
export interface AnswerMembershipPayload extends SubjectUid {
  decline?: boolean;
}
export interface MembershipAnswer {
  sec_subject_uid: string;
  /** The identity to sign in to once accepted; null when declined. */
  user_identity_id: string | null;
  accepted: boolean;
}
export interface SaveSsoPolicyPayload extends SubjectUid {
  require_sso: boolean;
  /** Absent: on. Off: only members (the console's, or SCIM's) sign in through the connection. */
  jit_provisioning?: boolean;
  /** Empty or absent: none. */
  default_role_key?: string;
  role_rules?: SsoRoleRule[];
}
/**
 * The identity provider's metadata, by the address it publishes it at (read by the server) or as XML,
 * or its entity id, single sign-on address and certificate. The address wins over the rest.
 */
export interface SaveSamlConnectionPayload extends SubjectUid {
  /** https (http only on loopback while the server is); read once on each save. */
  metadata_url?: string;
  metadata_xml?: string;
  entity_id?: string;
  sso_url?: string;
  /** The signing certificate, PEM or base64. */
  certificate?: string;
}
export interface SaveSsoConnectionPayload extends SubjectUid {
  /** The identity provider's issuer (its discovery document must be at `/.well-known/openid-configuration`). */
  issuer: string;
  client_id: string;
  /** Required the first time; omitted, the secret on file stays. */
  client_secret?: string;
}
