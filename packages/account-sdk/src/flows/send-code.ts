import { sendEmailCode, sendMobileCode } from '../calls/codes';
import type { AccountClient } from '../client/types';
import type { AccountError } from '../errors/account-error';
import type { CodeTypeValue } from '../protocol/code-types';
import { SEND_CODE_COOLDOWN_SECONDS } from '../protocol/limits';
import type { CodeChannel } from './channel';
import { createState, type Observable } from './observable';

/** Seconds before another code may be requested when the passport does not say (its own rule: `LIMITS.sendCodeCooldownSeconds`). */
export const DEFAULT_CODE_COOLDOWN = SEND_CODE_COOLDOWN_SECONDS;

/** What a code send answers (`send_code`, `email/send_code`). */
export interface SendCodeAnswer {
  /** The masked number the SMS went to. */
  mobile?: string;
  /** The masked address the e-mail went to. */
  email?: string;
  /** Seconds before another code may be requested. */
  retry_time?: number;
  /** Seconds the code stays valid. */
  expires_in?: number;
  [field: string]: unknown;
}

/** CODE_COOLDOWN (the "One-time codes" range), written out so a page carries no error table. */
const CODE_COOLDOWN = 1304;

/** A positive `retry_time`, rounded up to whole seconds; 0 when there is none. */
function retrySeconds(answer: unknown): number {
  const retry = (answer as { retry_time?: unknown } | null | undefined)?.retry_time;
  return typeof retry === 'number' && Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : 0;
}

/** The passport's `retry_time` when it is a positive number of seconds, else `DEFAULT_CODE_COOLDOWN`. */
export function cooldownOf(answer: unknown): number {
  return retrySeconds(answer) || DEFAULT_CODE_COOLDOWN;
}

export interface SendCodeTarget {
  channel: CodeChannel;
  /** An E.164 mobile number or an e-mail address. */
  target: string;
  /** The code's purpose, a `CodeType` value. */
  type: CodeTypeValue | number;
}

/** Sends one code by SMS (`sendMobileCode`) or e-mail (`sendEmailCode`). */
export function sendCode<T = SendCodeAnswer>(
  client: AccountClient,
  { channel, target, type }: SendCodeTarget,
): Promise<T> {
  const purpose = type as CodeTypeValue;
  return channel === 'mobile'
    ? sendMobileCode<T>(client, { mobile: target, type: purpose })
    : sendEmailCode<T>(client, { email: target, type: purpose });
}

export interface SendCodeSnapshot {
  status: 'idle' | 'sending' | 'sent' | 'failed';
  /**
   * Seconds before the next send is allowed, counted down once a second; 0 when a send is allowed.
   * Runs after a success, and after a CODE_COOLDOWN failure that says how long (its `retry_time`).
   */
  cooldown: number;
  /** The last send's failure; cleared by the next send or `reset()`. */
  error: AccountError | null;
  /** The last successful answer: the masked target, `expires_in`, `retry_time`. */
  data: SendCodeAnswer | undefined;
}

/** The clock and timers a cooldown counts with. Default: `Date.now` and the global timers. */
export interface CooldownClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SendCodeOptions {
  channel: CodeChannel;
  /** The code's purpose, a `CodeType` value (e.g. `CodeType.mobileLogin`). */
  type: CodeTypeValue | number;
  clock?: CooldownClock;
}

export interface SendCodeFlow extends Observable<SendCodeSnapshot> {
  /**
   * Sends a code to `target`. Never rejects: a failure is in the snapshot's `error`. Does nothing while
   * a send is in flight or the cooldown runs, so a double click sends one code.
   */
  send(target: string): Promise<void>;
  /** Clears `error` and `data`; the cooldown keeps running (the passport's does too). */
  reset(): void;
  /** Stops the countdown's timer. */
  dispose(): void;
}

const globalClock: CooldownClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Code sending with the resend cooldown: after a success the cooldown is the passport's `retry_time`
 * (60 s when it gives none); after a CODE_COOLDOWN failure it is that failure's `retry_time` (the
 * number's cooldown was armed by another send, perhaps from another client), so the button shows the
 * real wait instead of inviting clicks the passport refuses; after any other failure there is none, so
 * the person may try again. The countdown is kept as a deadline, so a throttled background tab still
 * shows the right number.
 */
export function createSendCode(client: AccountClient, options: SendCodeOptions): SendCodeFlow {
  const clock = options.clock ?? globalClock;
  const state = createState<SendCodeSnapshot>({
    status: 'idle',
    cooldown: 0,
    error: null,
    data: undefined,
  });
  let deadline = 0;
  let timer: unknown;
  const patch = (next: Partial<SendCodeSnapshot>) => state.set({ ...state.get(), ...next });
  const secondsLeft = () => Math.max(0, Math.ceil((deadline - clock.now()) / 1000));

  // Wakes at the next whole second of the deadline, so the number changes once a second.
  function schedule() {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer =
      state.get().cooldown > 0 ? clock.setTimeout(tick, (deadline - clock.now()) % 1000 || 1000) : undefined;
  }
  // Also the end of a send: its outcome and the cooldown it starts (`deadline`), in one update.
  function tick(outcome?: Partial<SendCodeSnapshot>) {
    patch({ ...outcome, cooldown: secondsLeft() });
    schedule();
  }

  return {
    getSnapshot: state.get,
    subscribe: state.subscribe,
    async send(target) {
      const now = state.get();
      if (now.status === 'sending' || now.cooldown > 0) return;
      patch({ status: 'sending', error: null });
      try {
        const data = await sendCode(client, { channel: options.channel, target, type: options.type });
        deadline = clock.now() + cooldownOf(data) * 1000;
        tick({ status: 'sent', data });
      } catch (error) {
        const wait =
          (error as AccountError | undefined)?.error_code === CODE_COOLDOWN ? retrySeconds(error) : 0;
        deadline = clock.now() + wait * 1000;
        tick({ status: 'failed', error: error as AccountError });
      }
    },
    reset() {
      patch({ status: 'idle', error: null, data: undefined });
    },
    dispose() {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}
