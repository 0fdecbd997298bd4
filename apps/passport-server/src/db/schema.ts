import type { Generated, Insertable, Selectable } from 'kysely';
import type { ProviderName } from '../domain/oauth/providers';

/** Times are milliseconds since the epoch in a BIGINT column, the same on SQLite and PostgreSQL. */
type Millis = number;

export interface UsersTable {
  id: string;
  /** E.164, e.g. +8613800138000. */
  mobile: string | null;
  /** Trimmed and lower-cased. */
  email: string | null;
  /** NFKC, lower-cased. */
  username: string | null;
  /**
   * argon2id PHC string; null until the user sets a password. An imported account may hold another
   * provider's hash until its first sign-in (src/domain/passwords/imported.ts).
   */
  password_hash: string | null;
  screen_name: string;
  is_frozen: Generated<number>;
  created_at: Millis;
  updated_at: Millis;
  /** Profile (migration 0010). */
  description: Generated<string>;
  /** YYYY-MM-DD, or null. */
  birthday: string | null;
  /** 0 unset, 1 male, 2 female, 3 another. */
  gender: Generated<number>;
  /** The key of the avatar image (images.key), or null for none. */
  avatar_key: string | null;
  /** When the person last chose a name; null while it is the generated one. */
  name_set_at: Millis | null;
  /** Cancellation (migration 0011): requested, its erasure time, and when the data was erased. */
  cancel_requested_at: Millis | null;
  cancel_erase_at: Millis | null;
  erased_at: Millis | null;
  /** The person's saved language, 'zh' or 'en' (migration 0035); null until they switch. */
  language: string | null;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: Millis;
  last_seen_at: Millis;
  /** Idle expiry, slid forward on use, never past absolute_expires_at. */
  expires_at: Millis;
  absolute_expires_at: Millis;
  user_agent: string | null;
  ip: string | null;
  /** The `verifyFp` / `s_v_web_id` device hint. */
  fp: string | null;
  did: string | null;
  /** The active organisation identity (migration 0012); null for the personal one. */
  deputy_id: Generated<string | null>;
  /**
   * When the person last proved it is them in this session (migration 0020): the sign-in, then each
   * re-verification. Null (a session older than the column) is no verification: a step-up asks again.
   */
  verified_at: Generated<Millis | null>;
  /**
   * When the person last proved a second factor in this session (migration 0031): a passkey, an
   * authenticator app's code or a recovery code, at its sign-in or a step-up, or a factor enrolled in
   * it. Null: none. An organisation that requires a second factor reads it.
   */
  factor_verified_at: Generated<Millis | null>;
}

export interface OneTimeCodesTable {
  id: string;
  purpose: number;
  channel: 'mobile' | 'email';
  target: string;
  /** HMAC-SHA256(server secret, purpose:target:code), hex. */
  code_hash: string;
  created_at: Millis;
  expires_at: Millis;
  attempts: Generated<number>;
  used_at: Millis | null;
  /**
   * Who asked for it (migration 0006): 'owner' when the request came from a device the target's
   * account remembers, else `c:` and a keyed hash of the asking client's pre-session or session ('' for
   * invitations and manager transfers). Only that lane may guess it; each lane has its own live code and
   * guesses, so strangers hammering a number never spend the owner's, nor another client's.
   */
  lane: Generated<string>;
}

export interface VerifyTicketsTable {
  /** SHA-256 of the ticket handed to the client. */
  ticket_hash: string;
  purpose: number;
  channel: 'mobile' | 'email';
  target: string;
  user_id: string | null;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}

/** A signed-in person's proof that it is them (migration 0007, src/domain/verification-tickets). */
export interface VerificationTicketsTable {
  /** HMAC of the ticket; the ticket itself is never stored. */
  ticket_hash: string;
  user_id: string;
  /** The session that earned it (the SHA-256 of its cookie token): no other session can use it. */
  session_id: string;
  /** What it may be spent on: 'change_identifier', 'cancel_account'. */
  purpose: string;
  /** How the person proved it: 'mobile', 'email' (a code) or 'password'. */
  method: string;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}

export interface DevicesTable {
  id: string;
  user_id: string;
  /**
   * SHA-256 (hex) of the browser's device token (migration 0005), the HttpOnly cookie that proves the
   * device; every account that remembered the browser holds the same current hash.
   */
  token_hash: string;
  /** When the token stops proving the device (a rotation pushes it on). */
  expires_at: Millis;
  first_seen_at: Millis;
  last_seen_at: Millis;
  /** The user agent of the latest sign-in from it, cut to 512 characters. */
  user_agent: string | null;
}

export interface OutboxMessagesTable {
  id: string;
  channel: 'sms' | 'email';
  recipient: string;
  subject: string | null;
  body: string;
  created_at: Millis;
}

/** The database Store: rate-limit counters and one-time state with a time to live. */
export interface StoreEntriesTable {
  key: string;
  value: string | null;
  counter: number;
  expires_at: Millis;
}

/** A published version of a legal document (migration 0004); never edited, a change is a new version. */
export interface LegalDocumentsTable {
  kind: 'privacy-policy' | 'terms-of-service';
  /** The version, e.g. 2026-11-22. */
  id: string;
  title_zh: string;
  title_en: string;
  /** Markdown-ish text: `## heading`, `- item` lines, blank lines between paragraphs. */
  body_zh: string;
  body_en: string;
  published_at: Millis;
}

/** A third-party identity linked to an account (migration 0008_linked_identities). */
export interface LinkedIdentitiesTable {
  id: string;
  user_id: string;
  provider: ProviderName;
  /** The provider's stable id of the person (OIDC `sub`, GitHub's numeric user id). */
  subject: string;
  /** The provider's e-mail at link time, for display; never used to link. */
  email: string | null;
  email_verified: Generated<number>;
  name: string | null;
  avatar_url: string | null;
  created_at: Millis;
  last_used_at: Millis | null;
}

/** An account's WebAuthn user handle (migration 0022): random, one per account, no personal data. */
export interface PasskeyUserHandlesTable {
  user_id: string;
  /** base64url of 32 random bytes. */
  handle: string;
  created_at: Millis;
}

/** A passkey (migration 0022): one WebAuthn credential of an account. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url, as the authenticator made it. */
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: string;
  /** The signature counter last seen; 0 for authenticators that keep none. */
  counter: number;
  /** JSON list of the transports the browser reported (internal, hybrid, usb, …). */
  transports: Generated<string>;
  /** `singleDevice` or `multiDevice` (synced). */
  device_type: string;
  /** Whether the credential is backed up (synced) now: 0 or 1, updated at each use. */
  backed_up: number;
  /** The authenticator's model (AAGUID), all zeros when it does not say. */
  aaguid: string;
  /** The person's name for it. */
  name: string;
  created_at: Millis;
  last_used_at: Millis | null;
}

/** An organisation (migration 0012). */
export interface SubjectsTable {
  id: string;
  name: string;
  /** JSON object text, validated and size-capped (src/domain/organisations/infos.ts). */
  base_infos: string;
  detail_infos: string;
  /** AES-256-GCM sealed (src/domain/organisations/real-name.ts); null when not given. */
  identity_card_sealed: string | null;
  real_name_sealed: string | null;
  is_frozen: Generated<number>;
  /** 1: members must use a second factor to act as its identities (migration 0031). */
  require_second_factor: Generated<number>;
  created_by: string | null;
  created_at: Millis;
  updated_at: Millis;
}

/** A member identity: an account in a subject. At most one `is_manager = 1` per subject (partial unique index). */
export interface DeputiesTable {
  id: string;
  subject_id: string;
  user_id: string;
  deputy_name: string;
  is_manager: Generated<number>;
  is_frozen: Generated<number>;
  created_at: Millis;
  updated_at: Millis;
}

export interface RolesTable {
  id: string;
  subject_id: string;
  role_key: string;
  role_name: string;
  /** JSON array of `resource:action`. */
  permissions: string;
  description: string;
  is_banned: Generated<number>;
  created_at: Millis;
  updated_at: Millis;
}

export interface DeputyRolesTable {
  deputy_id: string;
  role_id: string;
  subject_id: string;
  created_at: Millis;
}

/** One profile change (migration 0010), counted by the update quotas. */
export interface ProfileUpdatesTable {
  id: string;
  user_id: string;
  namespace: string;
  field: string;
  at: Millis;
}

/** An uploaded (re-encoded) or built-in image (migration 0010). */
export interface ImagesTable {
  /** Server-chosen: 32 random base64url characters, or `default-…` for the built-in ones. */
  key: string;
  /** Null for the built-in defaults. */
  owner_id: string | null;
  kind: 'avatar' | 'pic' | 'default-avatar' | 'default-background';
  mime: string;
  width: number;
  height: number;
  size: number;
  review_state: 'approved' | 'pending' | 'rejected';
  data: Buffer;
  created_at: Millis;
}

/** Invitations (migration 0013). `state` is pending, accepted or cancelled; expiry is `expires_at`. */
export interface InvitationsTable {
  id: string;
  subject_id: string;
  inviter_deputy_id: string | null;
  inviter_name: string;
  channel: 'mobile' | 'email' | 'chat' | 'link';
  /** E.164 mobile, normalised e-mail, a chat id, or null for a link. */
  contact: string | null;
  /** The identity acceptance creates. */
  deputy_id: string;
  deputy_name: string;
  /** JSON list of role keys. */
  role_keys: string;
  next_url: string | null;
  extra: string;
  /** HMAC of the ticket; the ticket is never stored. */
  ticket_hash: string;
  state: 'pending' | 'accepted' | 'cancelled';
  resent_count: Generated<number>;
  expires_at: Millis;
  accepted_by: string | null;
  accepted_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
}

/** The open manager transfer of a subject (migration 0013), at most one. */
export interface ManagerTransfersTable {
  subject_id: string;
  id: string;
  from_deputy_id: string;
  to_deputy_id: string;
  from_user_id: string;
  to_user_id: string;
  /** Where the new manager's code goes. */
  channel: 'mobile' | 'email';
  created_at: Millis;
  expires_at: Millis;
}

/** One event the monitoring collector kept (migration 0015, src/domain/monitoring). */
export interface MonitorEventsTable {
  id: string;
  at: Millis;
  /** YYYY-MM-DD (UTC) of `at`. */
  day: string;
  app: string;
  flavour: string;
  kind: string;
  session: string;
  /** 1 / the rate the event was sampled with. */
  weight: number;
  page: string;
  /** funnel: the sign-in method. */
  method: string | null;
  /** funnel: the step. */
  step: string | null;
  /** js_error: the message; http: the path; web_vital: the metric; resource(_error): the address. */
  label: string | null;
  /** funnel and http: the passport's error code. */
  error_code: number | null;
  /** http: the status. */
  status: number | null;
  /** http and resource: milliseconds; web_vital: its value. */
  value: number | null;
}

/** One person waiting for an admission (migration 0016). */
export interface WaitlistEntriesTable {
  id: string;
  channel: 'mobile' | 'email';
  /** E.164 mobile or normalised e-mail. */
  target: string;
  note: string;
  language: 'zh' | 'en';
  state: 'waiting' | 'admitted' | 'registered';
  created_at: Millis;
  admitted_at: Millis | null;
  /** The operator's user id. */
  admitted_by: string | null;
  /** HMAC of the sign-up link's token. */
  token_hash: string | null;
  registered_at: Millis | null;
}

/**
 * The outbox: every domain event, committed with the change that caused it (src/events). `position`
 * orders them; consumers keep their own position in `event_cursors`.
 */
export interface EventsTable {
  position: Generated<number>;
  id: string;
  type: string;
  version: number;
  /** The ordering stream: `user:<id>`, `subject:<id>`. */
  stream: string;
  /** JSON of the EventActor. */
  actor: string;
  actor_user_id: string | null;
  subject_id: string | null;
  target_user_id: string | null;
  /** JSON of the event's data, as its catalogue schema describes. */
  data: string;
  ip: string | null;
  device_id: string | null;
  occurred_at: Millis;
}

/** How far each event consumer has got, and who is delivering to it now (a lease). */
export interface EventCursorsTable {
  consumer: string;
  position: number;
  lease_owner: string | null;
  lease_until: Millis | null;
  /** Failed tries of the event after `position`, and when to try it again. */
  attempts: Generated<number>;
  retry_at: Millis | null;
  last_error: string | null;
}

/**
 * The audit log: the outbox's events as people, managers and operators read them (src/events/consumers/
 * audit-log). `position` is the event's outbox position (newest first is its reverse).
 */
export type AuditLogTable = Omit<EventsTable, 'position' | 'stream'> & {
  /** The event's outbox position; erasure replaces the person's identifiers in `data`. */
  position: number;
};

/** An account's authenticator app (src/domain/factors/totp.ts); pending until its first code. */
export interface TotpFactorsTable {
  user_id: string;
  /** The base32 secret, sealed (AES-256-GCM, a key derived from the server secret, the user id as AAD). */
  secret: string;
  created_at: Millis;
  /** Null: enrolment started, not yet confirmed by a code. */
  confirmed_at: Millis | null;
  /** The last time step whose code was accepted: that step and every earlier one are spent. */
  last_step: number | null;
}

/** An account's recovery codes (src/domain/factors/recovery-codes.ts), each usable once. */
export interface RecoveryCodesTable {
  /** HMAC of the user id and the normalised code; the code itself is never stored. */
  code_hash: string;
  user_id: string;
  created_at: Millis;
  used_at: Millis | null;
}

/** An organisation's user as its identity provider provisioned it over SCIM (migration 0033). */
export interface ScimUsersTable {
  id: string;
  subject_id: string;
  user_id: string;
  user_name: string;
  /** `user_name` lower-cased: unique in the organisation. */
  user_name_key: string;
  external_id: string | null;
  /** JSON: the SCIM attributes as sent (name, displayName, emails, …), without id, meta or groups. */
  attributes: string;
  active: Generated<number>;
  version: Generated<number>;
  /** 1: the create made the account (the organisation's own); its memberships need no acceptance. */
  own_account: Generated<number>;
  /** 1: the membership SCIM made waits, frozen, for the person to accept it (migration 0036). */
  awaiting_acceptance: Generated<number>;
  /** When the person declined the membership this User made (migration 0037); it is not made again. */
  declined_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
}

/** A role SCIM made as a group (migration 0033); a role the console made has no row. */
export interface ScimGroupsTable {
  role_id: string;
  subject_id: string;
  external_id: string | null;
  version: Generated<number>;
  created_at: Millis;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
  verify_tickets: VerifyTicketsTable;
  verification_tickets: VerificationTicketsTable;
  devices: DevicesTable;
  outbox_messages: OutboxMessagesTable;
  store_entries: StoreEntriesTable;
  legal_documents: LegalDocumentsTable;
  linked_identities: LinkedIdentitiesTable;
  passkeys: PasskeysTable;
  passkey_user_handles: PasskeyUserHandlesTable;
  subjects: SubjectsTable;
  deputies: DeputiesTable;
  roles: RolesTable;
  deputy_roles: DeputyRolesTable;
  profile_updates: ProfileUpdatesTable;
  images: ImagesTable;
  invitations: InvitationsTable;
  manager_transfers: ManagerTransfersTable;
  monitor_events: MonitorEventsTable;
  waitlist_entries: WaitlistEntriesTable;
  events: EventsTable;
  event_cursors: EventCursorsTable;
  audit_log: AuditLogTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  webhook_attempts: WebhookAttemptsTable;
  organisation_domains: OrganisationDomainsTable;
  organisation_sso_connections: OrganisationSsoConnectionsTable;
  organisation_sso_policies: OrganisationSsoPoliciesTable;
  organisation_sso_identities: OrganisationSsoIdentitiesTable;
  imported_users: ImportedUsersTable;
}

/**
 * Which account a user of another provider's export became (migration 0030, docs/importing-users.md):
 * an import run again skips what it imported before. Erased with the account.
 */
export interface ImportedUsersTable {
  /** The provider: auth0, supabase, firebase, better-auth, clerk. */
  source: string;
  /** The user's id at the provider. */
  source_id: string;
  user_id: string;
  imported_at: Millis;
}

/** An organisation's single sign-on connection (migration 0028, docs/enterprise-sso.md); one each. */
export interface OrganisationSsoConnectionsTable {
  subject_id: string;
  /** `oidc` or `saml` (migration 0034). */
  protocol: string;
  /** The OpenID issuer, or the SAML identity provider's entity id. */
  issuer: string;
  /** Empty for SAML. */
  client_id: string;
  /** Sealed (AES-256-GCM, a key derived from the server secret, the subject id as AAD); empty for SAML. */
  client_secret: string;
  /** SAML: the identity provider's single sign-on address (HTTP-Redirect binding); null for OIDC. */
  saml_sso_url: string | null;
  /** SAML: a JSON array of the identity provider's signing certificates (base64 DER); null for OIDC. */
  saml_certificates: string | null;
  /** SAML: the address the metadata was read from (migration 0037); null when it was given. */
  saml_metadata_url: string | null;
  created_at: Millis;
  updated_at: Millis;
}

/** An organisation's single sign-on policy (migration 0029, docs/enterprise-sso.md); none: the defaults. */
export interface OrganisationSsoPoliciesTable {
  subject_id: string;
  /** 1: members whose e-mail is in a verified domain sign in to the organisation only through it. */
  require_sso: number;
  /** The role a first sign-in's membership gets when no rule matches; null: none. */
  default_role_key: string | null;
  /** JSON array of `{ claim, value, role_key }`, in order (src/domain/enterprise/sso-policy.ts). */
  role_rules: string;
  /** 1 (the default): a first sign-in through the connection makes the membership; 0: members only. */
  jit_provisioning: Generated<number>;
  updated_at: Millis;
}

/** A person of an organisation's identity provider linked to an account (migration 0029). */
export interface OrganisationSsoIdentitiesTable {
  id: string;
  subject_id: string;
  issuer: string;
  /** The provider's `sub`. */
  idp_subject: string;
  user_id: string;
  created_at: Millis;
  last_used_at: Millis;
}

/** An organisation's e-mail domain (migration 0028, docs/enterprise-sso.md). */
export interface OrganisationDomainsTable {
  id: string;
  subject_id: string;
  /** Lower-case ASCII (an IDN in its xn-- form), no trailing dot. */
  domain: string;
  /** The random value the TXT record must hold; public once published, so kept as it is. */
  token: string;
  /** `domain` once verified, else null: unique across organisations. */
  verified_domain: string | null;
  verified_at: Millis | null;
  created_at: Millis;
}

/** A management API key (migration 0023): its HMAC, never the key itself. */
export interface ApiKeysTable {
  id: string;
  name: string;
  /** The key's first characters, shown to tell keys apart (`portico_sk_AbCd`). */
  prefix: string;
  secret_hash: string;
  /** JSON array of scopes (`users:read`, …). */
  scopes: string;
  created_by: string;
  created_at: number;
  /** Null: never. A rotated key gets one (the end of its overlap). */
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
  /** The organisation an organisation's key is limited to (migration 0026); null: the deployment's. */
  subject_id: string | null;
}

/** The monitoring events' database (on SQLite a file of its own, src/db/database.ts). */
export type MonitorSchema = Pick<Database, 'monitor_events'>;

/** What the store needs of a database: its one table. */
export type StoreSchema = Pick<Database, 'store_entries'>;

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type SubjectRow = Selectable<SubjectsTable>;
export type DeputyRow = Selectable<DeputiesTable>;
export type RoleRow = Selectable<RolesTable>;
export type PasskeyRow = Selectable<PasskeysTable>;

/** A webhook endpoint (migration 0027, docs/webhooks.md). */
export interface WebhookEndpointsTable {
  id: string;
  /** Null: the deployment's (every event); else the organisation whose events only it receives. */
  subject_id: string | null;
  url: string;
  description: string;
  /** JSON array of event types or prefixes ending in `.`; empty: every type. */
  event_types: string;
  /** The signing secret (`whsec_…`), sealed with a key derived from SECRET. */
  secret: string;
  /** After a rotation, the old secret (sealed), which also signs until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  /** 1 or 0. */
  enabled: number;
  /** Why it is disabled: `manual` or `failing`. */
  disabled_reason: string | null;
  /** Since when every delivery has failed (null: the last one succeeded). */
  failing_since: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

/** One event for one endpoint: its body fixed when the event came, its last attempt. */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_position: number;
  event_type: string;
  stream: string;
  /** The JSON body, as signed and sent on every attempt. */
  payload: string;
  /** `pending`, `succeeded` or `failed` (given up after the retry window). */
  status: string;
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  last_status: number | null;
  last_latency_ms: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  at: number;
  /** The HTTP status, null when there was none (refused, timed out). */
  status: number | null;
  latency_ms: number;
  /** The response body's first characters. */
  response: string | null;
  error: string | null;
}
