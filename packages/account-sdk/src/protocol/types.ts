/**
 * The wire types: what each call sends (payloads) and what the passport answers in the envelope's
 * `data`, written once for the SDK, account-react, the apps and the server. Types only: nothing here
 * ships in a bundle. The server's TypeBox schemas are checked against the data types both ways by a
 * type test (apps/passport-server/test/protocol-types.test-d.ts).
 */
import type { CodeTypeValue } from './code-types';

// ---------------------------------------------------------------------------------------- data

/**
 * The signed-in account as the passport answers `account/info` and every sign-in (identifiers masked).
 */
export interface AccountInfo {
  user_id: string;
  sec_user_id: string;
  screen_name: string;
  name: string;
  avatar_url: string;
  /** Masked, '' when none. */
  mobile: string;
  /** Masked, '' when none. */
  email: string;
  username: string;
  has_password: boolean;
  is_frozen: number;
  /** True when this sign-in created the account. */
  new_user?: boolean;
  /**
   * The active organisation identity (after subject login or member switch, `@portico/affiliate-sdk`);
   * absent while the personal identity is active.
   */
  org?: {
    sec_subject_uid: string;
    subject_name: string;
    user_identity_id: string;
    deputy_name: string;
    is_manager: boolean;
    /** 1 when the identity or its subject is frozen (it holds no permissions then). */
    is_frozen: number;
    subject_is_frozen: number;
    /** `resource:action` entries the identity holds now (banned roles grant nothing). */
    permissions: string[];
  };
  /** Set while a requested cancellation waits out its cooling-off period: when the data is erased. */
  cancel_erase_at?: number;
  session: {
    /** Ms since the epoch. */
    created_at: number;
    /** Idle expiry, ms since the epoch. */
    expires_at: number;
  };
}

/** An identity a person may act as: '0' is the personal one, the others their organisation identities. */
export interface MemberIdentity {
  user_identity_id: string;
  sec_subject_uid: string | null;
  subject_name: string | null;
  deputy_name: string;
  is_manager: boolean;
  /** 1 when the identity or its subject is frozen: it cannot be signed in as. */
  is_frozen: 0 | 1;
  subject_is_frozen: 0 | 1;
  /**
   * A membership the organisation's identity provider provisioned (SCIM) for the account the person
   * had: frozen until they accept it (`answerMembership`), or decline it.
   */
  awaiting_acceptance: boolean;
  active: boolean;
}

/**
 * What switching identity answers (`member/switch`, `subject/login`): the account, acting as the
 * identity now. With `need_frozen_user: 1`, a frozen identity is answered in `frozen_identity` and the
 * session stays as it was.
 */
export interface SwitchedAccountInfo extends AccountInfo {
  frozen_identity?: MemberIdentity;
}

/** What binding or changing a mobile or e-mail answers: the account, and what the change did. */
export interface IdentifierChangedData extends AccountInfo {
  /** Other sessions ended by `kick_other`. */
  kicked_sessions: number;
  /** Whether the mobile or e-mail was moved off another account (`change_bind`). */
  moved: boolean;
}

/** What `account/verify` and `auth/verify` answer: a ticket for a sensitive step. */
export interface VerifiedData {
  /** Single use, bound to this session. */
  ticket: string;
  /** Seconds the ticket stays valid. */
  expires_in: number;
  /** How it was earned: 'mobile', 'email' or 'password'. */
  method: string;
  purpose: string;
}

/** An answer with no data: `{}`. */
export type EmptyData = Record<never, never>;

/** What a code send answers (`send_code`, `email/send_code`). */
export interface SendCodeData {
  /** The masked number the SMS went to. */
  mobile?: string;
  /** The masked address the e-mail went to. */
  email?: string;
  /** Seconds before another code may be requested (`LIMITS.sendCodeCooldownSeconds`). */
  retry_time: number;
  /** Seconds the code stays valid. */
  expires_in: number;
}

/** What a code check answers: a single-use verify ticket for the next step (register, reset). */
export interface TicketData {
  /** Single use; bound to the code's purpose and target. */
  ticket: string;
  /** The same ticket, under the name the register calls send. */
  verify_ticket: string;
  /** Seconds the ticket stays valid. */
  expires_in: number;
}

/** Whether the request carries a session (`check_login`, `/CheckLogin`). */
export interface CheckLoginData {
  is_login: boolean;
  /** The signed-in user, only when `is_login`. */
  user_id?: string;
}

/** What a logout answers with `not_redirect: 1`: the validated `next` address. */
export interface LogoutData {
  next: string;
}

/** The only-user register variant: the new account's id, no session. */
export interface OnlyUserData {
  user_id: string;
  new_user: true;
  signed_in: false;
}

/** What a register call answers: the signed-in account (with the checked `next_url`), or an only-user answer. */
export type RegisteredData = (AccountInfo & { next_url?: string }) | OnlyUserData;

/** What a password reset, change, update or set answers. */
export interface PasswordChangedData {
  user_id: string;
  /** Whether this browser holds a (new) session afterwards. */
  signed_in: boolean;
}

/** `password/has_set`. */
export interface HasPasswordData {
  has_set: boolean;
}

/** `user/check_mobile_registered`, `user/check_email_registered`. */
export interface RegisteredCheckData {
  is_registered: boolean;
}

/** A device the account has verified (second verification), as `listDevices` answers it. Never a fingerprint. */
export interface RememberedDevice {
  id: string;
  /** Ms since the epoch. */
  first_seen_at: number;
  /** Ms since the epoch. */
  last_seen_at: number;
  /** Browser and system, e.g. "Chrome on macOS". */
  user_agent: string;
  /** The device this request comes from. */
  current: boolean;
}

/** Who caused an audit entry. */
export interface AuditActor {
  kind: 'person' | 'identity' | 'apiKey' | 'anonymous' | 'system';
  userId?: string;
  subjectId?: string;
  deputyId?: string;
  keyId?: string;
}

/**
 * One entry of an audit log: an event (`account.signed_in`, `organisation.member_removed`, …) with who
 * caused it, whom it happened to, its data and when.
 */
export interface AuditEntry {
  /** Pass as `cursor` for the entries older than this one. */
  cursor: string;
  /** The event id. */
  id: string;
  type: string;
  /** The version of the type's data. */
  version: number;
  actor: AuditActor;
  subject_id: string | null;
  target_user_id: string | null;
  /** The event's data, as its type and version describe it (`account.signed_in`: method, newDevice). */
  data: { [key: string]: unknown };
  /** The client address; null after erasure. */
  ip: string | null;
  /** Ms since the epoch. */
  occurred_at: number;
}

/** A page of an audit log, newest first. */
export interface AuditPageData {
  entries: AuditEntry[];
  /** The next (older) page's cursor, or null on the last page. */
  next_cursor: string | null;
}

/** `account/activity`: the signed-in person's own security activity. */
export interface AccountActivityPayload {
  cursor?: string;
  /** 1–100, default 20. */
  count?: number;
  /** An event type, or a prefix ending in '.' (`account.`). */
  type?: string;
}

/** One change to the account's sign-in methods (`account/sign_in_changes`). */
export interface SignInChange {
  /** The change's event id: what `disownSignInChange` takes. */
  id: string;
  /** `account.identifier_bound`, `account.password_reset`, `account.third_party_linked`, `passkey.added`, … */
  type: string;
  /** The event's data: the channel and the masked identifier, the provider, the method. */
  data: { [key: string]: unknown };
  /** The client address the change came from. */
  ip: string | null;
  /** ms since the epoch. */
  occurred_at: number;
  /** The person already said this change was not them. */
  disowned: boolean;
}

/** `account/sign_in_changes`: the last 30 days' changes to the sign-in methods, newest first. */
export interface SignInChangesData {
  changes: SignInChange[];
}

/** `account/sign_in_changes/disown`: what "this wasn't me" ended. */
export interface SignInChangeDisownedData {
  /** Sessions ended, this one included: the caller is signed out. */
  sessions_ended: number;
  /** Remembered devices forgotten: each next sign-in asks for the second verification. */
  devices_forgotten: number;
}

/** `device/list`. */
export interface DeviceListData {
  devices: RememberedDevice[];
}

/** `/GetUserToken`: a short-lived JWT naming the signed-in user, for product back ends. */
export interface UserTokenData {
  /** An ES256 JWT; verify it against /.well-known/jwks.json. */
  token: string;
  token_type: 'Bearer';
  /** Seconds. */
  expires_in: number;
  /** Ms since the epoch. */
  expires_at: number;
}

// ------------------------------------------------------------------------------------ payloads

/** Fields a payload may always add: the server ignores what it does not know. */
export interface Extra {
  [field: string]: unknown;
}

export interface MobileCodePayload extends Extra {
  mobile: string;
  /** The code's purpose, a `CodeType` value. */
  type: CodeTypeValue;
}
export interface EmailCodePayload extends Extra {
  email: string;
  /** The code's purpose; sent as `ect_type` by an sso client. */
  type: CodeTypeValue;
}
export interface MobileCheckPayload extends Extra {
  mobile: string;
  code: string;
  type: CodeTypeValue;
}
export interface EmailCheckPayload extends Extra {
  email: string;
  code: string;
  type: CodeTypeValue;
}

/** `need_frozen_user` defaults to 0 (frozen accounts are not signed in). */
export interface FrozenUser {
  need_frozen_user?: 0 | 1;
}

export interface SmsLoginPayload extends Extra, FrozenUser {
  mobile: string;
  code: string;
  /** Default: none; the server assumes a login code. */
  type?: CodeTypeValue;
}
export interface EmailCodeLoginPayload extends Extra, FrozenUser {
  email: string;
  code: string;
  type?: CodeTypeValue;
}
export interface EmailPasswordLoginPayload extends Extra, FrozenUser {
  email: string;
  password: string;
}

type Identifier =
  | { email: string; username?: string; mobile?: string; account?: string }
  | { email?: string; username: string; mobile?: string; account?: string }
  | { email?: string; username?: string; mobile: string; account?: string }
  | { email?: string; username?: string; mobile?: string; account: string };

/** A password and at least one of email, username, mobile or account. */
export type PasswordLoginPayload = Identifier & FrozenUser & Extra & { password: string };

export interface SmsLoginContinuePayload extends Extra {
  /** From the 2046 second-verification failure. */
  sms_code_key: string;
  /**
   * How `code` is proven: 'sms' (the default), 'email' (a code sent to the account's e-mail), 'totp'
   * (an authenticator app), 'recovery_code', 'passkey' (with `credential`), or another of the 2046
   * data's `methods`.
   */
  method?: SecondFactorMethod;
  /** With `method: 'passkey'`: the browser's answer to `passkeyFactorOptions`, as JSON. */
  credential?: string;
}

export interface OAuthLoginPayload extends Extra, FrozenUser {
  /** The provider: `github`, `google` or `wechat` (the ones the passport has configured). */
  platform_app_id: string | number;
  /** The callback's code; `auth/login` takes a `profile_key` instead to create a pending profile's account. */
  code?: string;
  /** The callback's state (it must be one this browser started). */
  state?: string;
  /** The callback's `iss` (RFC 9207), when the provider sends one. */
  iss?: string;
  profile_key?: string;
  redirect_uri?: string;
  /** Use the login-only endpoint (no account is created). Default true. */
  login_only?: boolean;
}

/** The data of OAUTH_NOT_LINKED (1854): the pending profile of an identity no account links. */
export interface OAuthNotLinkedData {
  profile_key: string;
  platform: string;
  name: string;
  avatar_url: string;
  /** Masked; only an e-mail the provider verified. */
  email: string;
  email_verified: boolean;
  /** The verified e-mail has an account: sign in to it to link. */
  email_registered: boolean;
}

/** Sign in with a code and link a pending profile (mobile/bind_login, auth/bind_login). */
export interface BindLoginPayload extends Extra, FrozenUser {
  profile_key: string;
  mobile?: string;
  email?: string;
  code: string;
  type?: number;
}

/** A linked third-party identity of the signed-in account. */
export interface LinkedIdentity {
  platform: string;
  name: string;
  avatar_url: string;
  email: string;
  linked_at: number;
}

/** The linked identities left after a bind, switch or unbind. */
export interface LinkedData {
  linked: LinkedIdentity[];
}

/** The pending third-party profile of this browser (`get/oauth_profile`). */
export interface OAuthProfileData {
  platform: string;
  name: string;
  avatar_url: string;
  email: string;
  email_verified: boolean;
}

/** `show_oauth_mobile`: whether the provider's e-mail has an account, and the mobile to show. */
export interface OAuthMobileData {
  email_registered: boolean;
  mobile: string;
}

/** The configured providers and, signed in, the linked identities. */
export interface ThirdPartyAccountsData {
  providers: string[];
  linked: LinkedIdentity[];
  /** Per linked provider: whether unlinking it leaves another way in. */
  can_unbind: Record<string, boolean>;
}

/** A passkey of the signed-in account (docs/factors.md). */
export interface PasskeyData {
  id: string;
  name: string;
  /** `multiDevice`: synced between the person's devices (a password manager, a platform account). */
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
  transports: string[];
  /** Ms since the epoch. */
  created_at: number;
  /** Ms since the epoch, or null while it was never used to sign in. */
  last_used_at: number | null;
}

/** The account's passkeys, oldest first. */
export interface PasskeyListData {
  passkeys: PasskeyData[];
}

/**
 * A ceremony's options, as the server generated them for `navigator.credentials`
 * (`PublicKeyCredentialCreationOptionsJSON` or `…RequestOptionsJSON`); its challenge is single use.
 */
export interface PasskeyOptionsData {
  options: { challenge: string; [key: string]: unknown };
  /** Seconds the challenge stays usable. */
  expires_in: number;
}

export interface PasskeyRemovedData {
  /** The removed passkey's id. */
  removed: string;
}

export interface PasskeyRegisterPayload extends Extra {
  /** The `RegistrationResponseJSON` the browser answered, as JSON. */
  credential: string;
  /** The person's name for it (up to 64 characters). */
  name?: string;
}
/** Options to prove a passkey as a factor: a second verification's key, or none for a step-up. */
export interface PasskeyFactorOptionsPayload extends Extra {
  sms_code_key?: string;
}
export interface PasskeyLoginPayload extends Extra {
  /** The `AuthenticationResponseJSON` the browser answered, as JSON. */
  credential: string;
}
export interface PasskeyRenamePayload extends Extra {
  id: string;
  name: string;
}
export interface PasskeyRemovePayload extends Extra {
  id: string;
}

export interface RegisterByEmailPayload extends Extra {
  email: string;
  password?: string;
  verify_ticket: string;
}
export interface RegisterByMobilePayload extends Extra {
  mobile: string;
  password?: string;
  verify_ticket: string;
}
export interface RegisterWithoutVerifyPayload extends Extra {
  email: string;
  password: string;
  /**
   * The human check: the configured provider's token (Turnstile, hCaptcha, GeeTest) or the pass of our
   * own challenge. Without one the call fails with CHALLENGE_REQUIRED and the challenge flow resends it.
   */
  recaptcha_token?: string;
  /** Where the confirmation link lands once the account exists (same-origin or allow-listed). */
  next_url?: string;
}
/**
 * The no-verify registration's answer: a link went to the address (whether or not it has an account);
 * the account is made when the link is followed.
 */
export interface RegisterLinkSentData {
  link_sent: true;
  /** Seconds the link stays usable. */
  expires_in: number;
}

export interface NextPayload extends Extra {
  /** Default '/'. */
  next?: string;
}
/** account/info's query. */
export interface AccountInfoPayload extends Extra {
  /**
   * The account's own `mobile` and `email` unmasked (`+8613800138000`, not `+86138****8000`).
   * Default false (`DEFAULTS.needPlaintext`): masked, as every other answer shows identifiers.
   */
  need_plaintext?: boolean;
}

export interface LogoutPayload extends NextPayload {
  not_redirect?: 0 | 1;
  /** Organisation mode: leave only this organisation's identity (its `sec_subject_uid`), staying signed in. */
  subject_aid?: string | number;
}
export interface TokenPayload extends Extra {
  token: string;
}

export interface ResetPasswordPayload extends Extra {
  mobile?: string;
  email?: string;
  code: string;
  password: string;
}
export interface TicketPasswordPayload extends Extra {
  ticket: string;
  password: string;
}
export interface ChangePasswordPayload extends Extra {
  code?: string;
  ticket?: string;
  password: string;
}
export interface UpdatePasswordPayload extends Extra {
  password: string;
  current_password: string;
}
export interface PasswordPayload extends Extra {
  password: string;
}
export interface EmailResetAndLoginPayload extends Extra {
  email: string;
  code: string;
  password: string;
}

export interface BindMobilePayload extends Extra {
  mobile: string;
  code: string;
  /** Sign the account out elsewhere. Default 0. */
  kick_other?: 0 | 1;
  ticket?: string;
}
export interface ChangeMobilePayload extends BindMobilePayload {
  /** Default 0. */
  change_bind?: 0 | 1;
  old_mobile?: string;
}
export interface BindEmailPayload extends Extra {
  email: string;
  code: string;
  kick_other?: 0 | 1;
  ticket?: string;
}
export interface AuthBindPayload extends Extra {
  platform_app_id: string | number;
  code?: string;
  /** The callback's state and `iss`, as for `oauthLogin`. */
  state?: string;
  iss?: string;
  /** Unbind the third-party account from any other user first. Default 0. */
  unbind_exist?: 0 | 1;
}
export interface AuthUnbindPayload extends Extra {
  platform_app_id: string | number;
}

/**
 * A proof that the signed-in person is who the account belongs to (a step-up, or the first step of a
 * change): a code (type 22) sent to the account's own mobile or e-mail, given in full, or its password.
 */
export type ReverifyPayload = Extra &
  (
    | { mobile: string; code: string }
    | { email: string; code: string }
    | { password: string }
    /** A code of a factor the account has: its authenticator app, or one of its recovery codes. */
    | { method: SecondFactorMethod; code: string }
    /** One of the account's passkeys: the browser's answer to `passkeyFactorOptions`, as JSON. */
    | { method: 'passkey'; credential: string }
  ) & {
    /** What the answered ticket may be spent on: 'change_identifier' (the default) or 'cancel_account'. */
    purpose?: string;
  };

/** What a verification answers (`reverify`): a single-use ticket bound to this session; the step-up renewed. */
export type VerificationTicketData = VerifiedData;

/** The data of STEP_UP_REQUIRED (2047): the ways the person can prove it is them again. */
export interface StepUpRequiredData {
  /** The account's mobile and e-mail, masked; '' when it has none. */
  mobile: string;
  email: string;
  has_password: boolean;
  /** Seconds a verification counts for the refused call. */
  max_age: number;
  /**
   * Every way the account can verify ('sms', 'email', 'password', 'totp', 'recovery_code', …), sent
   * only for an account with a factor beyond its mobile, e-mail and password.
   */
  methods?: VerifyMethod[];
}

/** A factor a second verification or a step-up accepts beside a code to the mobile or e-mail. */
export type SecondFactorMethod = 'sms' | 'email' | 'totp' | 'recovery_code' | 'passkey' | (string & {});
/** A way a step-up or second verification names in its `methods`. */
export type VerifyMethod = SecondFactorMethod | 'email' | 'password';

/** `factor/list`: the account's authenticator app and recovery codes. */
export interface FactorsData {
  totp: { enabled: boolean; confirmed_at: number | null };
  recovery_codes: { total: number; remaining: number; created_at: number | null };
  /** Every way a second verification of this account accepts ('sms', 'totp', 'recovery_code', …). */
  methods: SecondFactorMethod[];
}

/** `totp/start`: the new secret, shown once; confirm it with `totpConfirm` and a first code. */
export interface TotpStartedData {
  /** Base32, for typing into an app by hand. */
  secret: string;
  /** The otpauth:// URI, for the QR code. */
  uri: string;
  algorithm: string;
  digits: number;
  period: number;
  /** Seconds left to confirm it. */
  expires_in: number;
}

/** `recovery_code/generate`: the new codes, shown once. */
export interface RecoveryCodesData {
  codes: string[];
}

export interface SetAccountPayload extends Extra {
  username: string;
  password: string;
}
export interface CancelConfirmPayload extends Extra {
  abandon?: 0 | 1;
  cancel_ticket?: string;
}
export interface MemberSwitchPayload extends Extra {
  to_sec_member_id: string;
}

export interface UploadAvatarPayload extends Extra {
  avatar: Blob;
}
export interface UploadPicPayload extends Extra {
  pic: Blob;
  is_sensitive?: 0 | 1;
}
export interface ScenePayload extends Extra {
  /** Default 'normal'. */
  scene?: string;
}
export interface RemainUpdateTimesPayload extends Extra {
  field: string;
  field_namespace?: string;
}
export interface ImageKeyPayload extends Extra {
  key: string;
}

/** Profile fields `update/user_info` changes; each one left out stays as it is. */
export interface UpdateUserInfoPayload extends Extra {
  /** The display name, 1–20 characters. */
  name?: string;
  description?: string;
  /** YYYY-MM-DD, or '' to clear it; sensitive (mixed on the wire). */
  birthday?: string;
  /** 0 unset, 1 male, 2 female, 3 another. */
  gender?: 0 | 1 | 2 | 3;
  /** A default avatar's key (`default_avatar_list`) or an image this user uploaded. */
  avatar_key?: string;
}

/** The person's language, as `update/language` takes and answers it. */
export interface LanguagePayload extends Extra {
  language: 'zh' | 'en';
}

/** The editable profile, as `update/user_info` answers it. */
export interface ProfileData {
  user_id: string;
  name: string;
  description: string;
  birthday: string;
  gender: number;
  avatar_key: string;
  avatar_url: string;
}

/** What `get/remain_update_times` answers. */
export interface RemainUpdateTimesData {
  field: string;
  field_namespace: string;
  remain_times: number;
  total_times: number;
  window_seconds: number;
  /** Ms since the epoch when the next change is possible; 0 when one is possible now. */
  next_available_at: number;
}

/** What `check/default_info` answers: whether the profile still has generated defaults. */
export interface DefaultInfoData {
  scene: string;
  is_default: boolean;
  default_fields: string[];
}

/** The default avatars or background images a profile may pick. */
export interface ImageListData {
  images: { key: string; url: string }[];
}

/** Suggested names (`settings/recommend_name`). */
export interface RecommendNamesData {
  names: string[];
}

/** One image as `download/image/v2` describes it. */
export interface ImageInfoData {
  key: string;
  url: string;
  mime: string;
  width: number;
  height: number;
  size: number;
  review_state: string;
}

/** Operators: the pictures waiting for review. */
export interface PendingPicsData {
  pictures: {
    key: string;
    url: string;
    owner_id: string;
    width: number;
    height: number;
    created_at: number;
  }[];
}

/** Operators: a reviewed picture and its new state. */
export interface ReviewedPicData {
  key: string;
  review_state: string;
}

/** An uploaded image, as `upload_avatar` and `upload/pic` answer it. */
export interface UploadedImage {
  key: string;
  url: string;
  width: number;
  height: number;
  /** 'approved', or 'pending' (a sensitive picture until an operator approves it), or 'rejected'. */
  review_state: 'approved' | 'pending' | 'rejected';
}

/** One way the signed-in person can prove ownership before cancelling. */
export interface CancelWay {
  way: 'mobile' | 'email' | 'password';
  /** Masked mobile or e-mail; '' for the password. */
  target: string;
}

/** What `cancel_verify_way` answers: the ways the person can prove ownership. */
export interface CancelWaysData {
  ways: CancelWay[];
}

/** What `cancel/check` answers. */
export interface CancelCheckData {
  can_cancel: boolean;
  blockers: { key: string; detail?: Record<string, unknown> }[];
  /** What erasure will remove, by kind (counts). */
  losses: { key: string; count: number }[];
  cooling_off_days: number;
  /** Set while a cancellation is pending. */
  erase_at?: number;
}

/** What `cancel/request` answers: after `send: 1` where the code went; once verified, the ticket. */
export interface CancelRequestedData {
  target?: string;
  retry_time?: number;
  /** The ticket `cancel/confirm` takes. */
  cancel_ticket?: string;
  expires_in?: number;
}

/** What `cancel/confirm` answers: the cancellation pending until `erase_at`, or withdrawn. */
export interface CancelConfirmedData {
  state: 'pending' | 'abandoned';
  erase_at?: number;
}

/**
 * What `get/user_data` answers: everything the signed-in account holds, to keep before cancelling
 * (its own identifiers unmasked; no password hash, credential or token).
 */
export interface AccountExportData {
  /** When the copy was made, ms since the epoch. */
  exported_at: number;
  account: {
    user_id: string;
    /** '' when none. */
    mobile: string;
    /** '' when none. */
    email: string;
    username: string;
    has_password: boolean;
    created_at: number;
  };
  profile: {
    name: string;
    description: string;
    birthday: string;
    gender: number;
    avatar_url: string;
    /** The saved language (`saveLanguage`), '' when none. */
    language: '' | 'zh' | 'en';
  };
  images: {
    key: string;
    kind: 'avatar' | 'pic' | 'default-avatar' | 'default-background';
    mime: string;
    width: number;
    height: number;
    size: number;
    review_state: 'approved' | 'pending' | 'rejected';
    created_at: number;
    url: string;
  }[];
  /** The browsers the account was remembered on. */
  devices: { first_seen_at: number; last_seen_at: number; user_agent: string }[];
  passkeys: {
    name: string;
    device_type: string;
    backed_up: boolean;
    created_at: number;
    last_used_at: number | null;
  }[];
  /** Each counted profile change: which field, when. */
  profile_changes: { namespace: string; field: string; at: number }[];
  /** What organisations' identity providers sent about the person over SCIM, one per organisation. */
  provisioned: {
    organisation_id: string;
    user_name: string;
    external_id: string | null;
    active: boolean;
    /** The SCIM User as the identity provider last sent it. */
    attributes: Record<string, unknown>;
    created_at: number;
    updated_at: number;
  }[];
}

export interface CancelRequestPayload extends Extra {
  way: 'mobile' | 'email' | 'password';
  /** 1: send a code to the account's own mobile or e-mail (the client never sees it unmasked). */
  send?: 0 | 1;
  code?: string;
  password?: string;
}

/**
 * The strength estimator's warning (zxcvbn-ts keys): why a new password was judged easy to guess.
 * Stable keys, never sentences; a page translates them.
 */
export type PasswordWarning =
  | 'straightRow'
  | 'keyPattern'
  | 'simpleRepeat'
  | 'extendedRepeat'
  | 'sequences'
  | 'recentYears'
  | 'dates'
  | 'topTen'
  | 'topHundred'
  | 'common'
  | 'similarToCommon'
  | 'wordByItself'
  | 'namesByThemselves'
  | 'commonNames'
  | 'userInputs'
  | 'pwned';

/** The strength estimator's suggestions (zxcvbn-ts keys): how to make a new password harder to guess. */
export type PasswordSuggestion =
  | 'l33t'
  | 'reverseWords'
  | 'allUppercase'
  | 'capitalization'
  | 'dates'
  | 'recentYears'
  | 'associatedYears'
  | 'sequences'
  | 'repeated'
  | 'longerKeyboardPattern'
  | 'anotherWord'
  | 'useWords'
  | 'noNeed'
  | 'pwned';

/** The failure data of PASSWORD_TOO_WEAK (1208), besides error_code and description. */
export interface PasswordTooWeakData {
  /** The estimator's score, 0 (guessed at once) … 4 (very hard to guess). */
  password_score: number;
  /** The lowest score the passport accepts. */
  password_min_score: number;
  password_feedback: { warning: PasswordWarning | null; suggestions: PasswordSuggestion[] };
}

/** QR sign-in (docs/qr-login.md): the states of a code, only ever moving forward. */
export type QrStatus = 'new' | 'scanned' | 'confirmed' | 'consumed' | 'cancelled' | 'expired';

/** `get_qrcode`: a new code for this browser (the browser is bound to it by an HttpOnly cookie). */
export interface QrcodeData {
  /** ≥ 128 bits, base64url. Polled with `check_qrconnect`, redeemed with `web_login`. */
  token: string;
  /** What the QR code encodes: the confirmation page of the app flavour with the token. */
  qrcode_index_url: string;
  /** Seconds the code lives (≤ 120). */
  expires_in: number;
  /** Ms since the epoch. */
  expires_at: number;
}

/** `check_qrconnect`: the state of the browser's own code. */
export interface QrStatusData {
  status: QrStatus;
  /** The two-digit number the person picks on the phone; only while `scanned`. */
  number?: number;
  /** Seconds left (0 once expired). */
  expires_in: number;
}

/** Where a request came from, from its address alone (no geolocation service): see docs/qr-login.md. */
export interface QrPlace {
  /** loopback: this machine; private: a local network; public: the internet. */
  kind: 'loopback' | 'private' | 'public';
  /** The address with its host part hidden: `203.0.113.0/24`, `2001:db8:1::/48`. */
  network: string;
}

/** `scan_qrcode`: what is asking to sign in, and the three numbers the person picks from. */
export interface QrScanData {
  status: 'scanned';
  /** "Chrome on macOS": the browser that showed the code. */
  browser: string;
  place: QrPlace;
  /** When the code was made, ms since the epoch. */
  created_at: number;
  expires_in: number;
  /** Three two-digit numbers; one is the number the browser shows. */
  choices: number[];
  /**
   * The account must prove its mobile before confirming from this device: use the two-step variant
   * (`verifyScanQrcode`, then `confirmQrcodeByTicket` with the SMS code).
   */
  need_second_factor: boolean;
}

/** The two-step variant's scan: the ticket to confirm with, and where the code went when one is needed. */
export interface QrVerifyScanData extends QrScanData {
  ticket: string;
  /** Whether `confirm_by_ticket` needs the SMS code sent to `mobile`. */
  need_code: boolean;
  /** The masked mobile the code went to; '' when no code is needed. */
  mobile: string;
}

/** `confirm_qrcode`: the number picked, or `cancel: 1`. */
export interface QrConfirmPayload extends Extra {
  token: string;
  number?: number;
  cancel?: 0 | 1;
}

/** `confirm_by_ticket`: the scan's ticket, the number picked (or cancel) and the SMS code when needed. */
export interface QrTicketConfirmPayload extends Extra {
  ticket: string;
  number?: number;
  cancel?: 0 | 1;
  code?: string;
}

/** What the phone sees after deciding. */
export interface QrDecisionData {
  status: 'confirmed' | 'cancelled';
}

/** `web_login`: the creating browser redeems its confirmed code; a new session and where to go. */
export type QrLoginData = AccountInfo & { redirect_url: string };

/* Monitoring and the waitlist (issue 18; docs/monitoring.md). */

/** `/CheckWaitListEnable`: whether new accounts need an admission; with `token`, what that link is worth. */
export interface WaitlistEnableData {
  enable: boolean;
  /** Only with a `token` query: the sign-up link's admission ('unknown' for a wrong token). */
  admission?: 'admitted' | 'registered' | 'unknown';
}

/** `/SubmitWaitList`: a mobile or an e-mail, the code sent to it (type 1, register) and an optional note. */
export interface SubmitWaitlistPayload extends Extra {
  mobile?: string;
  email?: string;
  code: string;
  note?: string;
}

/** The person's place: 1 is next; 0 once admitted. */
export interface WaitlistPlaceData {
  state: 'waiting' | 'admitted' | 'registered';
  position: number;
  /** How many are waiting in all. */
  waiting: number;
  joined_at: number;
}

/** One entry as an operator sees it: the identifier masked. */
export interface WaitlistEntry {
  id: string;
  channel: 'mobile' | 'email';
  /** Masked mobile or e-mail. */
  target: string;
  note: string;
  state: 'waiting' | 'admitted' | 'registered';
  joined_at: number;
  admitted_at: number | null;
}

export interface WaitlistListData {
  entries: WaitlistEntry[];
  total: number;
  page: number;
  page_size: number;
}

/** `POST /monitor/batch/` and `/monitor/event_list/`: how many events were kept. */
export interface MonitorBatchData {
  accepted: number;
}

/** `POST /web_id/`: a fresh `s_v_web_id` value. */
export interface WebIdData {
  web_id: string;
}

/** One row of the sign-in funnel: a day, an app, a sign-in method (counts weighted by 1 / rate). */
export interface FunnelRow {
  day: string;
  app: string;
  method: string;
  visits: number;
  code_sent: number;
  signed_in: number;
  failed: number;
  /** Share of visits that never had a code sent, and of code sends that never signed in (0–1). */
  drop_off_visit: number;
  drop_off_code: number;
  /** The failure codes behind the drop-off, most frequent first. */
  failures: { error_code: number; count: number }[];
}

/** `GET /monitor/dashboard/`: an operator's view of a range of days. */
export interface MonitorDashboardData {
  from: string;
  to: string;
  /** The apps and flavours seen in the range (the filters' choices). */
  apps: string[];
  flavours: string[];
  funnel: FunnelRow[];
  errors: { day: string; message: string; count: number }[];
  vitals: { day: string; name: string; p75: number; count: number }[];
  sdk: { day: string; path: string; calls: number; errors: number; error_rate: number; p75_ms: number }[];
}

/** Open authorization (docs/open-authorization.md): one scope as the consent page shows it. */
export interface OpenScopeInfo {
  name: string;
  /** What it lets the app do, in Chinese and in English. */
  zh: string;
  en: string;
}

/** open/auth_info/v2: who is asking for what, and who would answer. */
export interface OpenAuthInfo {
  client_key: string;
  app_name: string;
  /** The app's icon URL, or '' for none. */
  app_icon: string;
  /** Scopes the app requires (user_info at least). */
  scope: OpenScopeInfo[];
  /** Scopes the person may switch off. */
  optionalScope: OpenScopeInfo[];
  /** The person signed in to Portico, or null: the page asks them to sign in first. */
  user: { user_id: string; name: string; avatar_url: string } | null;
  /** The language the app asked the page to speak (its request's `ui_locales`), when it named zh or en. */
  ui_language?: 'zh' | 'en';
}

/** open/web/auth: approve (1) or deny (0) the request of an interaction. */
export interface OpenAuthDecisionPayload {
  interaction: string;
  approve: 0 | 1;
  /** The optional scopes the person left on, comma-separated. */
  scope?: string;
}

/** open/web/auth's answer: where the browser goes next (back through the provider to the app). */
export interface OpenAuthDecision {
  redirect_url: string;
}

/**
 * open/auth/token: an access token the provider issued, in the body (never the URL), and the app asking
 * (`client_key`: a token issued to another app is refused). `state` comes back as sent;
 * `response_format_type` picks the answer's shape ('app' unless said).
 */
export interface OpenAuthTokenPayload {
  token: string;
  client_key: string;
  state?: string;
  response_format_type?: 'app' | 'oidc';
}

/** open/auth/token's answer in the 'app' shape: the authorization the token carries. */
export interface OpenAuthTokenResult {
  /** The person, as the app knows them (the ID token's and userinfo's `sub`). */
  open_id: string;
  client_key: string;
  app_name: string;
  /** The scopes the person granted. */
  scope: string[];
  /** Seconds the access token has left. */
  expires_in: number;
  /** The claims of the scopes granted (`name`, `picture`, `email`, …), as userinfo answers them. */
  user: Record<string, unknown>;
  state?: string;
}

/** open/auth/token's answer in the 'oidc' shape: userinfo's claims with RFC 7662's names for the token. */
export interface OpenAuthTokenClaims extends Record<string, unknown> {
  sub: string;
  client_id: string;
  /** Space-separated, as the token endpoint answered it. */
  scope: string;
  /** Seconds since the epoch. */
  exp: number;
  state?: string;
}

/** One app the signed-in person has authorised (open/authorized_apps). */
export interface AuthorizedApp {
  client_key: string;
  app_name: string;
  app_icon: string;
  scopes: string[];
  /** The same scopes, described as the consent page described them. */
  scope_info: OpenScopeInfo[];
  authorized_at: number;
}

/** Enterprise single sign-on (docs/enterprise-sso.md): start with a work e-mail. */
export interface EnterpriseSsoStartPayload extends Extra {
  email: string;
  /** Where to go once signed in (the server's redirect rule applies). */
  next?: string;
}
export interface EnterpriseSsoStartData {
  /** Send the browser here: the organisation's identity provider. */
  authorize_url: string;
}
/** What the provider sent to the callback page. */
/** OpenID Connect: the callback's `code`, `state` and `iss`; SAML: its `saml`. */
export interface EnterpriseSsoLoginPayload extends Extra {
  code?: string;
  state?: string;
  iss?: string;
  saml?: string;
}
export type EnterpriseSsoSignedIn = AccountInfo & {
  /** Where the sign-in started to go. */
  next: string;
};
