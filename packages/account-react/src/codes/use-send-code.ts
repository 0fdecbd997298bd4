import { type AccountError, type CodeChannel, createSendCode } from '@portico/account-sdk';
import type { CodeTypeValue } from '@portico/account-sdk/protocol';
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { SendCodeData } from '../account-info';
import { useAccountClient } from '../context';

export interface UseSendCodeOptions {
  /** Where the code goes: SMS (`sendMobileCode`) or e-mail (`sendEmailCode`). */
  channel: CodeChannel;
  /** The code's purpose, a `CodeType` value from `@portico/account-sdk/protocol` (e.g. 24 mobile login). */
  type: CodeTypeValue | number;
}

export interface UseSendCodeResult {
  /**
   * Sends a code to `target` (an E.164 mobile or an e-mail address). Never rejects: a failure is in
   * `error`. Does nothing while a send is in flight or the cooldown runs.
   */
  send(target: string): Promise<void>;
  /**
   * Seconds before the next send is allowed; counts down each second. 0 when a send is allowed. Runs
   * after a success, and after a CODE_COOLDOWN failure (from its `retry_time`).
   */
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
 * Sends one-time codes with a resend cooldown, over the SDK's `createSendCode`: after a success the
 * cooldown is the passport's `retry_time` (60 s when it gives none); after CODE_COOLDOWN it is that
 * failure's `retry_time` (the wait the passport still imposes); after any other failure there is none,
 * so the person may try again.
 */
export function useSendCode({ channel, type }: UseSendCodeOptions): UseSendCodeResult {
  const client = useAccountClient();
  const flow = useMemo(() => createSendCode(client, { channel, type }), [client, channel, type]);
  useEffect(() => () => flow.dispose(), [flow]);
  const snapshot = useSyncExternalStore(flow.subscribe, flow.getSnapshot, flow.getSnapshot);
  const send = useCallback((target: string) => flow.send(target), [flow]);
  const reset = useCallback(() => flow.reset(), [flow]);
  return {
    send,
    cooldown: snapshot.cooldown,
    isPending: snapshot.status === 'sending',
    error: snapshot.error,
    data: snapshot.data as SendCodeData | undefined,
    reset,
  };
}
