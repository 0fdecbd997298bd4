import type { CodeTypeValue } from '../protocol/code-types';

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
}

export interface OAuthLoginPayload extends Extra, FrozenUser {
  platform_app_id: string | number;
  code: string;
  redirect_uri?: string;
  /** Use the login-only endpoint (no account is created). Default true. */
  login_only?: boolean;
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
  recaptcha_token?: string;
  next_url?: string;
}

export interface NextPayload extends Extra {
  /** Default '/'. */
  next?: string;
}
export interface LogoutPayload extends NextPayload {
  not_redirect?: 0 | 1;
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
  /** Unbind the third-party account from any other user first. Default 0. */
  unbind_exist?: 0 | 1;
}
export interface AuthUnbindPayload extends Extra {
  platform_app_id: string | number;
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
