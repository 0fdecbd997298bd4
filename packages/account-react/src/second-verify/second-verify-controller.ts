import type { SecondVerifyDialog, SecondVerifyRequest } from '@portico/account-sdk';

/** What the dialog shows: the request the SDK opened it with, or nothing. */
export interface SecondVerifySnapshot {
  request: SecondVerifyRequest | null;
  /** Changes with every opened request (a React key: a reopened dialog starts with an empty field). */
  id: number;
  /** When the next code may be sent for this `sms_code_key` (ms since the epoch); 0 when now. */
  sendAllowedAt: number;
}

/**
 * The SDK's `SecondVerifyDialog` contract turned into a small store React subscribes to: `open` (called
 * by the SDK) shows the request and waits; `submit(code)` or `close()` (called by the dialog) settle it.
 * Requests that arrive while one is shown wait their turn. The resend deadline is kept per
 * `sms_code_key`, so a dialog reopened after a wrong code keeps its countdown.
 */
export interface SecondVerifyController extends SecondVerifyDialog {
  subscribe(listener: () => void): () => void;
  getSnapshot(): SecondVerifySnapshot;
  submit(code: string): void;
  close(): void;
  /** Records that a code was sent for the shown request; the next send waits `seconds`. */
  markSent(seconds: number): void;
  /** Closes every open and waiting request (the provider unmounts or changes client). */
  closeAll(): void;
}

interface Pending {
  id: number;
  request: SecondVerifyRequest;
  resolve(answer: { code: string } | null): void;
}

export function createSecondVerifyController(now: () => number = Date.now): SecondVerifyController {
  const queue: Pending[] = [];
  const sentUntil = new Map<string, number>();
  const listeners = new Set<() => void>();
  let snapshot: SecondVerifySnapshot = { request: null, id: 0, sendAllowedAt: 0 };
  let opened = 0;

  const publish = () => {
    const head = queue[0];
    snapshot = head
      ? { request: head.request, id: head.id, sendAllowedAt: sentUntil.get(head.request.sms_code_key) ?? 0 }
      : { request: null, id: 0, sendAllowedAt: 0 };
    for (const listener of listeners) listener();
  };
  const settle = (answer: { code: string } | null) => {
    const head = queue.shift();
    if (!head) return;
    head.resolve(answer);
    publish();
  };

  return {
    open: (request) =>
      new Promise((resolve) => {
        queue.push({ id: ++opened, request, resolve });
        publish();
      }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    submit: (code) => settle({ code }),
    close: () => settle(null),
    markSent(seconds) {
      const head = queue[0];
      if (!head) return;
      sentUntil.set(head.request.sms_code_key, now() + seconds * 1000);
      publish();
    },
    closeAll() {
      for (const pending of queue.splice(0)) pending.resolve(null);
      publish();
    },
  };
}
