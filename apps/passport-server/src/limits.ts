import { ARGON2_OPTIONS } from './domain/passwords/passwords';
import { LIMITS } from './protocol';

/**
 * The security numbers of SECURITY.md, in one place. Those the SDK and the apps must agree on (code life,
 * tries, resend cooldown) come from the protocol's LIMITS. Tests may lower them through buildServer's options.
 */
export interface Limits {
  /**
   * argon2id's memory (KiB) and passes for password hashes: OWASP's 19 MiB and 2 (ARGON2_OPTIONS). A
   * stored hash made with less is rehashed at its next sign-in. Only the server suite lowers them, for
   * its servers whose tests are not about the hash (test/support/server.ts).
   */
  passwordHashMemoryKiB: number;
  passwordHashPasses: number;
  /** One-time code lifetime (≤ 10 min). */
  codeTtlMs: number;
  /** Wrong guesses per code (and per resend chain) before it is dead. */
  codeMaxAttempts: number;
  /**
   * The window of the per-target guess budget: at most codeMaxAttempts wrong guesses per target
   * (channel + normalised mobile or e-mail) and code lane (the known device, or the asking client)
   * within it, whatever code types the guesses name.
   */
  codeGuessWindowMs: number;
  /** Resend cooldown per target. */
  sendCooldownMs: number;
  /**
   * Code sends per target per hour. The owner's lane (a known device) is refused past it; strangers,
   * counted together whichever client asks, slow down instead (a doubling cooldown, up to
   * sendSlowCooldownMaxMs), and each client address is refused past it for that target.
   */
  sendPerTargetPerHour: number;
  /** The longest cooldown strangers' sends to a target slow down to past its hourly count. */
  sendSlowCooldownMaxMs: number;
  /** Code sends per client address (IPv6 by /64) per hour. */
  sendPerIpPerHour: number;
  /**
   * Messages other people send to one mobile, e-mail or chat id per hour (invitations, their resends,
   * an operator's notices), whoever sends them; each also waits for the recipient's cooldown
   * (sendCooldownMs).
   */
  messagesPerRecipientPerHour: number;
  /**
   * Security notices (a password reset or change) to one of an account's own verified channels per
   * hour: a count of their own, so strangers who spend the recipient's messages never silence them.
   */
  accountNoticesPerChannelPerHour: number;
  /** Invitations and resends one account may send per hour. */
  invitationsPerSenderPerHour: number;
  /** Invitations and resends sent from one client address (IPv6 by /64) per hour, whichever account. */
  invitationsPerIpPerHour: number;
  /** Password failures per identifier within passwordFailureWindowMs before a temporary lock. */
  passwordFailuresPerAccount: number;
  passwordFailureWindowMs: number;
  /**
   * Passwords judged per identifier within passwordFailureWindowMs from addresses whose lock on it is
   * closed (the locked lane): a right one there leads to a second verification, never a session.
   */
  lockedLaneGuessesPerAccount: number;
  /** Password failures per client address per hour before 429. */
  passwordFailuresPerIpPerHour: number;
  /**
   * Runs of the password strength estimator per client address (IPv6 by /64) per hour: it costs CPU
   * and some routes run it before any code is checked.
   */
  passwordChecksPerIpPerHour: number;
  /** A session's last-seen time is written at most this often (no write per request). */
  sessionTouchMs: number;
  /** Housekeeping (expired rows) runs this often. */
  sweepIntervalMs: number;
  /** Verify-ticket lifetime: the step between a checked code and the action it unlocks. */
  ticketTtlMs: number;
  /**
   * Step-up: how recent the session's last verification (its sign-in, or a later auth/verify or
   * account/verify) must be to add or remove a way in (bind a mobile or e-mail, set a username or a
   * first password, link, switch or unlink a third-party account). Older: STEP_UP_REQUIRED (2047).
   */
  stepUpMaxAgeMs: number;
  /**
   * An organisation that requires a second factor: how recent the session's last proof of one (a
   * passkey, an authenticator app or a recovery code, at its sign-in or a step-up) must be to act as its
   * identity. Older: STEP_UP_REQUIRED (2047) naming only the account's factors.
   */
  orgFactorMaxAgeMs: number;
  /** check_mobile/email_registered calls per client address (IPv6 by /64) per hour: an enumeration oracle. */
  checkRegisteredPerIpPerHour: number;
  /** How long a remembered device's token proves it without a sign-in (each sign-in rotates and renews it). */
  deviceTrustMs: number;
  /**
   * The same lookups per IPv6 /48 and per /32 (one holder of a /48 has 65,536 /64s). Higher than the
   * per-address number: many unrelated people share a /48 (a site) or a /32 (a provider).
   */
  checkRegisteredPer48PerHour: number;
  checkRegisteredPer32PerHour: number;
  /** The same lookups per device (`fp`, `verifyFp` or the `s_v_web_id` cookie), across addresses. */
  checkRegisteredPerDevicePerHour: number;
  /** QR sign-in: how long a code lives (≤ 120 s; docs/qr-login.md). */
  qrTtlMs: number;
  /** QR codes one client address (IPv6 by /64) may ask for per hour. */
  qrCodesPerIpPerHour: number;
  /**
   * QR polls (check_qrconnect) one client address (IPv6 by /64) may make per minute, made-up tokens
   * included: a browser showing a code polls every second or two; past it RATE_LIMITED.
   */
  qrPollsPerIpPerMinute: number;
  /**
   * SSO service tickets (/sso/login, signed in) one session, and one client address (IPv6 by /64), may
   * have minted per minute: each is a store write; past either RATE_LIMITED.
   */
  ssoTicketsPerSessionPerMinute: number;
  ssoTicketsPerIpPerMinute: number;
  /** Monitoring batches one client address (IPv6 by /64) may post per minute before 429. */
  monitorBatchesPerIpPerMinute: number;
  /**
   * How long accepted monitoring events wait to be written together (0: each batch at once). One write
   * per batch was one commit and fsync per batch, which slowed the session check beside the collector.
   */
  monitorWriteDelayMs: number;
  /** Fresh web ids one client address may ask for per hour. */
  webIdsPerIpPerHour: number;
  /** Waitlist submissions one client address may make per hour. */
  waitlistSubmitsPerIpPerHour: number;
  /**
   * The events dispatcher (src/events/dispatcher): how often it looks for other servers' events, how
   * long a wake after a commit here waits to gather more, a cursor lease's life, and a failing
   * consumer's first and longest retry delays.
   */
  eventPollMs: number;
  eventWakeDelayMs: number;
  eventLeaseMs: number;
  eventRetryBaseMs: number;
  eventRetryMaxMs: number;
  /** Members one account, and one client address, may add (each an invitation) per hour. */
  memberAddsPerCallerPerHour: number;
  /**
   * Webhook deliveries (docs/webhooks.md): how often the worker looks for due deliveries, a failed
   * attempt's first retry delay (it doubles) and longest one, an attempt's deadline and the response
   * bytes it reads, a claimed delivery's lease, and deliveries sent at once. The retry window itself is
   * WEBHOOK_RETRY_HOURS.
   */
  webhookPollMs: number;
  webhookRetryBaseMs: number;
  webhookRetryMaxMs: number;
  webhookTimeoutMs: number;
  webhookResponseBytes: number;
  webhookLeaseMs: number;
  webhookConcurrency: number;
}

export const defaultLimits: Limits = {
  passwordHashMemoryKiB: ARGON2_OPTIONS.memoryCost,
  passwordHashPasses: ARGON2_OPTIONS.timeCost,
  codeTtlMs: LIMITS.codeTtlSeconds * 1000,
  codeMaxAttempts: LIMITS.codeMaxAttempts,
  codeGuessWindowMs: 10 * 60_000,
  sendCooldownMs: LIMITS.sendCodeCooldownSeconds * 1000,
  sendPerTargetPerHour: 10,
  sendSlowCooldownMaxMs: 30 * 60_000,
  sendPerIpPerHour: 30,
  messagesPerRecipientPerHour: 5,
  accountNoticesPerChannelPerHour: 10,
  invitationsPerSenderPerHour: 20,
  invitationsPerIpPerHour: 30,
  passwordFailuresPerAccount: 10,
  passwordFailureWindowMs: 15 * 60_000,
  lockedLaneGuessesPerAccount: 5,
  passwordFailuresPerIpPerHour: 100,
  passwordChecksPerIpPerHour: 60,
  sessionTouchMs: 60_000,
  sweepIntervalMs: 10 * 60_000,
  ticketTtlMs: 10 * 60_000,
  stepUpMaxAgeMs: 10 * 60_000,
  // A working day: a member proves the factor at the morning's sign-in, not on every call.
  orgFactorMaxAgeMs: 12 * 3_600_000,
  checkRegisteredPerIpPerHour: 10,
  deviceTrustMs: 180 * 24 * 3_600_000,
  checkRegisteredPer48PerHour: 100,
  checkRegisteredPer32PerHour: 1000,
  checkRegisteredPerDevicePerHour: 10,
  qrTtlMs: 120_000,
  qrCodesPerIpPerHour: 600,
  qrPollsPerIpPerMinute: 600,
  ssoTicketsPerSessionPerMinute: 30,
  ssoTicketsPerIpPerMinute: 300,
  monitorBatchesPerIpPerMinute: 120,
  monitorWriteDelayMs: 250,
  webIdsPerIpPerHour: 120,
  waitlistSubmitsPerIpPerHour: 10,
  eventPollMs: 2_000,
  // A delivery is one commit (one fsync on SQLite, on the event-loop thread) however many events it
  // copies: at 100 ms the audit log costs about one commit per 100 ms of sign-ins, not one per two.
  eventWakeDelayMs: 100,
  eventLeaseMs: 30_000,
  eventRetryBaseMs: 1_000,
  eventRetryMaxMs: 5 * 60_000,
  memberAddsPerCallerPerHour: 60,
  webhookPollMs: 1_000,
  webhookRetryBaseMs: 10_000,
  webhookRetryMaxMs: 60 * 60_000,
  webhookTimeoutMs: 10_000,
  webhookResponseBytes: 64 * 1024,
  webhookLeaseMs: 60_000,
  webhookConcurrency: 8,
};

export const HOUR = 3_600_000;
export const MINUTE = 60_000;
