/**
 * The signed-in account as the passport answers `account/info` and every sign-in (identifiers masked).
 * Fields the server adds later appear as extra properties.
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
  session: {
    /** Ms since the epoch. */
    created_at: number;
    /** Idle expiry, ms since the epoch. */
    expires_at: number;
  };
  [field: string]: unknown;
}

/** What a code send answers (`send_code`, `email/send_code`). */
export interface SendCodeData {
  /** The masked number the SMS went to. */
  mobile?: string;
  /** The masked address the e-mail went to. */
  email?: string;
  /** Seconds before another code may be requested. */
  retry_time: number;
  /** Seconds the code stays valid. */
  expires_in: number;
}
