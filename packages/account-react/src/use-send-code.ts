import { type AccountError, sendEmailCode, sendMobileCode } from '@portico/account-sdk';
import type { CodeTypeValue } from '@portico/account-sdk/protocol';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type { SendCodeData } from './account-info';
import { useAccountClient } from './context';
import { useCooldown } from './use-cooldown';

/** Seconds before another code may be requested when the passport does not say (its own rule is 60 s). */
export const DEFAULT_CODE_COOLDOWN = 60;

export interface UseSendCodeOptions {
  /** Where the code goes: SMS (`sendMobileCode`) or e-mail (`sendEmailCode`). */
  channel: 'mobile' | 'email';
  /** The code's purpose, a `CodeType` value from `@portico/account-sdk/protocol` (e.g. 24 mobile login). */
  type: CodeTypeValue | number;
}

export interface UseSendCodeResult {
  /**
   * Sends a code to `target` (an E.164 mobile or an e-mail address). Never rejects: a failure is in
   * `error`. Does nothing while a send is in flight or the cooldown runs.
   */
  send(target: string): Promise<void>;
  /** Seconds before the next send is allowed; counts down each second. 0 when a send is allowed. */
  cooldown: number;
  isPending: boolean;
  /** The last send's failure, cleared by the next send or `reset()`. */
  error: AccountError | null;
  /** The last successful answer: the masked target, `expires_in`, `retry_time`. */
  data: SendCodeData | undefined;
  /** Clears `error` and `data` (the cooldown keeps running: the passport's does too). */
  reset(): void;
}

/**
 * Sends one-time codes with a resend cooldown: after a success the cooldown is the passport's
 * `retry_time` (60 s when it gives none); after a failure there is none, so the person may try again.
 */
export function useSendCode({ channel, type }: UseSendCodeOptions): UseSendCodeResult {
  const client = useAccountClient();
  const { seconds, start } = useCooldown();
  const mutation = useMutation<SendCodeData, AccountError, string>({
    mutationFn: (target) =>
      channel === 'mobile'
        ? sendMobileCode<SendCodeData>(client, { mobile: target, type: type as CodeTypeValue })
        : sendEmailCode<SendCodeData>(client, { email: target, type: type as CodeTypeValue }),
    onSuccess: (data) => {
      start(cooldownOf(data));
    },
  });
  // The latest state for `send`, which must not go stale between renders (a double click in one frame).
  const busy = useRef(false);
  busy.current = mutation.isPending || seconds > 0;
  const { mutateAsync } = mutation;
  const send = useCallback(
    async (target: string) => {
      if (busy.current) return;
      busy.current = true;
      try {
        await mutateAsync(target);
      } catch {
        // Kept in `error`.
      }
    },
    [mutateAsync],
  );
  return {
    send,
    cooldown: seconds,
    isPending: mutation.isPending,
    error: mutation.error,
    data: mutation.data,
    reset: mutation.reset,
  };
}

/** The passport's `retry_time` when it is a positive number of seconds, else the 60 s default. */
export function cooldownOf(data: unknown): number {
  const retry = (data as { retry_time?: unknown } | null | undefined)?.retry_time;
  return typeof retry === 'number' && Number.isFinite(retry) && retry > 0
    ? Math.ceil(retry)
    : DEFAULT_CODE_COOLDOWN;
}
