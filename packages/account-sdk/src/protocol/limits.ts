/**
 * The numbers the SDK, the apps and the server must agree on (spec §9, SECURITY.md), in one place: a
 * form that checks a code's length, a countdown before "send again", and the server's own rules all
 * read them from here. The server may tighten its rate limits in its config; these are the contract.
 */
/** Seconds before another code may be sent to the same target; a constant of its own so that a page
 * reading only it (the send-code flow's default) does not carry the whole table. */
export const SEND_CODE_COOLDOWN_SECONDS = 60;

export const LIMITS = {
  /** Digits of a one-time code. */
  codeLength: 6,
  /** How long a one-time code stays valid, in seconds (10 minutes). */
  codeTtlSeconds: 600,
  /** Wrong guesses a code (and its resend chain) takes before it is dead. */
  codeMaxAttempts: 5,
  /** Seconds before another code may be sent to the same target (the server's `retry_time`). */
  sendCodeCooldownSeconds: SEND_CODE_COOLDOWN_SECONDS,
  /** The shortest new password, in characters after NFKC (NIST SP 800-63B: at least 8). */
  passwordMinLength: 8,
  /** The longest password accepted, in UTF-8 bytes after NFKC; longer input is refused before hashing. */
  passwordMaxBytes: 1024,
  /** The longest `sms_code_key` (second verification) accepted. */
  smsCodeKeyMaxLength: 128,
} as const;
