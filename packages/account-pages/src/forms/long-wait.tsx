import { type CodeChannel, DEFAULT_CODE_COOLDOWN } from '@portico/account-sdk';
import { ErrorCode } from '@portico/account-sdk/protocol';
import { lazy, Suspense } from 'react';
import type { SignInMethod } from '../routes/auth-options';

/** What the rule reads of a code sender (`useSendCode()`). */
interface Sender {
  error: unknown;
  cooldown: number;
}

/**
 * The page's other sign-in methods, for a code form to offer when its code is long in coming, and how
 * to switch to one of them (the method tabs' `onSelect`).
 */
export interface OtherMethods {
  methods: readonly SignInMethod[];
  select(method: SignInMethod): void;
}

/**
 * The rule of a long wait for a sign-in code, in one place. A send refused with CODE_COOLDOWN whose
 * `retry_time` is longer than the passport's usual cooldown (60 s) means strangers keep asking for
 * codes to this number or address: past 10 sends an hour the passport slows their sends down, up to 30
 * minutes, and an owner on a new device waits with them (apps/passport-server README, "Security: no
 * lockout an attacker can impose"). The form then says how long, and offers the ways that do not wait
 * (`LongWaitNotice`): the password, whose second verification has sends of its own, and the other code
 * channel. The answer is the wait in seconds as the passport gave it, while the cooldown still runs;
 * otherwise 0.
 */
export function longWaitOf(sender: Sender): number {
  const { error, cooldown } = sender;
  const failure = error as { error_code?: unknown; retry_time?: unknown } | null;
  const wait = failure?.error_code === ErrorCode.codeCooldown ? failure.retry_time : 0;
  return cooldown > 0 && typeof wait === 'number' && wait > DEFAULT_CODE_COOLDOWN ? Math.ceil(wait) : 0;
}

/** The failure of the last send to show on the target field: none during a long wait, which its notice explains. */
export function sendProblem(sender: Sender): unknown {
  return longWaitOf(sender) ? null : sender.error;
}

/** Loaded when a long wait is shown, which is rare: not with the page (its first load has a budget). */
const LongWaitNotice = lazy(() => import('./long-wait-notice'));

/** A code form's notice of a long wait (`longWaitOf`), under its code field; nothing otherwise. */
export function LongWait({
  sender,
  channel,
  others,
}: {
  sender: Sender;
  channel: CodeChannel;
  others: OtherMethods | undefined;
}) {
  const seconds = longWaitOf(sender);
  return seconds ? (
    <Suspense fallback={null}>
      <LongWaitNotice channel={channel} seconds={seconds} others={others} />
    </Suspense>
  ) : null;
}
