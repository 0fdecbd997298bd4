import type {
  SecondFactorMethod,
  SecondVerifyAnswer,
  SecondVerifyDialog,
  SecondVerifyRequest,
  StepUpDialog,
  StepUpProof,
  StepUpRequest,
} from '@portico/account-sdk';
import type { SecondFactorDialog, SecondFactorRequest } from '@portico/affiliate-sdk';

/** What the dialog shows: the request the SDK opened it with, or nothing. */
export interface SecondVerifySnapshot {
  /** A sign-in's second verification (2046), when that is what is shown. */
  request: SecondVerifyRequest | null;
  /** A step-up (2047: prove it is you before changing how you sign in), when that is what is shown. */
  stepUp: StepUpRequest | null;
  /**
   * An organisation's demand to set up a second factor (1621), when one is open. Shown beside the
   * queue, not in it: setting one up asks for a step-up, which opens above it.
   */
  enrol: SecondFactorRequest | null;
  /** Changes with every opened request (a React key: a reopened dialog starts with an empty field). */
  id: number;
  /** When the next code may be sent for this `sms_code_key` (ms since the epoch); 0 when now. */
  sendAllowedAt: number;
}

/** What each panel of the dialog is given: the request it shows, its resend deadline, what settles it. */
export interface PanelProps<Request> {
  request: Request;
  sendAllowedAt: number;
  controller: SecondVerifyController;
}

/**
 * The SDK's `SecondVerifyDialog` and `StepUpDialog` contracts turned into a small store React subscribes
 * to: `open` or `stepUp` (called by the SDK) shows the request and waits; `submit(code)`, `prove(proof)`
 * or `close()` (called by the dialog) settle it. The affiliate SDK's `SecondFactorDialog` too: `enrol`
 * shows the demand to set up a factor until `enrolled(done)`; every call refused meanwhile waits for
 * that one answer. Requests that arrive while one is shown wait their
 * turn. The resend deadline is kept per `sms_code_key` (one for every step-up), so a dialog reopened
 * after a wrong code keeps its countdown.
 */
export interface SecondVerifyController extends SecondVerifyDialog, StepUpDialog, SecondFactorDialog {
  subscribe(listener: () => void): () => void;
  getSnapshot(): SecondVerifySnapshot;
  /** Answers the shown second verification with the code, of `method` (default 'sms'). */
  submit(code: string, method?: SecondFactorMethod): void;
  /** The way last chosen for a sign-in's `sms_code_key`: a dialog reopened after a wrong code keeps it. */
  chosenMethod(smsCodeKey: string): SecondFactorMethod | undefined;
  /** Answers the shown step-up with the person's proof. */
  prove(proof: StepUpProof): void;
  close(): void;
  /** Ends the demand to set up a factor: `true` once the account has one (the refused calls go again). */
  enrolled(done: boolean): void;
  /** Records that a code was sent for the shown request; the next send waits `seconds`. */
  markSent(seconds: number): void;
  /**
   * Closes every open and waiting request (a sign-in replaced the session; the provider unmounts or
   * changes client): each resolves null. An answer given before it whose request comes back with an
   * error (a wrong code in flight) resolves null at once instead of opening the dialog again.
   */
  closeAll(): void;
}

type Pending =
  | {
      id: number;
      kind: 'code';
      request: SecondVerifyRequest;
      resolve(answer: SecondVerifyAnswer | null): void;
    }
  | { id: number; kind: 'stepUp'; request: StepUpRequest; resolve(answer: StepUpProof | null): void };

/** The resend deadline's key: the sign-in's `sms_code_key`, or one for every step-up. */
const STEP_UP_SENDS = 'step-up';
const sendKeyOf = (pending: Pending) =>
  pending.kind === 'code' ? pending.request.sms_code_key : STEP_UP_SENDS;

export function createSecondVerifyController(now: () => number = Date.now): SecondVerifyController {
  const queue: Pending[] = [];
  const sentUntil = new Map<string, number>();
  const chosen = new Map<string, SecondFactorMethod>();
  /** Requests answered since the last `closeAll`, by resend key: only theirs may come back with an error. */
  const answered = new Set<string>();
  const listeners = new Set<() => void>();
  const idle: SecondVerifySnapshot = { request: null, stepUp: null, enrol: null, id: 0, sendAllowedAt: 0 };
  let snapshot = idle;
  let opened = 0;
  let enrolling: { request: SecondFactorRequest; done: Promise<boolean>; end(done: boolean): void } | null =
    null;

  const publish = () => {
    const head = queue[0];
    const enrol = enrolling?.request ?? null;
    snapshot = head
      ? {
          request: head.kind === 'code' ? head.request : null,
          stepUp: head.kind === 'stepUp' ? head.request : null,
          enrol,
          id: head.id,
          sendAllowedAt: sentUntil.get(sendKeyOf(head)) ?? 0,
        }
      : enrol
        ? { ...idle, enrol }
        : idle;
    for (const listener of listeners) listener();
  };
  /**
   * A request reopened after a wrong answer (it carries the error) that was given before `closeAll`:
   * the code or proof was in flight when the sign-in it belonged to was replaced, and must not open a
   * dialog over the new session. It resolves null, as if closed.
   */
  const stale = (pending: Pending) => Boolean(pending.request.error) && !answered.has(sendKeyOf(pending));
  /** Settles the shown request when it is of `kind` (a stale answer of the other kind is ignored). */
  const settle = (kind: Pending['kind'] | null, answer: SecondVerifyAnswer | StepUpProof | null) => {
    const head = queue[0];
    if (!head || (kind && head.kind !== kind)) return;
    queue.shift();
    if (answer) answered.add(sendKeyOf(head));
    (head.resolve as (value: typeof answer) => void)(answer);
    publish();
  };

  return {
    open: (request) =>
      new Promise((resolve) => {
        const pending: Pending = { id: ++opened, kind: 'code', request, resolve };
        if (stale(pending)) return resolve(null);
        queue.push(pending);
        publish();
      }),
    stepUp: (request) =>
      new Promise((resolve) => {
        const pending: Pending = { id: ++opened, kind: 'stepUp', request, resolve };
        if (stale(pending)) return resolve(null);
        queue.push(pending);
        publish();
      }),
    enrol(request) {
      if (!enrolling) {
        let end: (done: boolean) => void = () => {};
        const done = new Promise<boolean>((resolve) => {
          end = resolve;
        });
        enrolling = { request, done, end };
        publish();
      }
      return enrolling.done;
    },
    enrolled(done) {
      const shown = enrolling;
      enrolling = null;
      shown?.end(done);
      publish();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    submit(code, method) {
      const head = queue[0];
      if (head?.kind === 'code' && method) chosen.set(head.request.sms_code_key, method);
      settle('code', method && method !== 'sms' ? { code, method } : { code });
    },
    chosenMethod: (smsCodeKey) => chosen.get(smsCodeKey),
    prove: (proof) => settle('stepUp', proof),
    close: () => settle(null, null),
    markSent(seconds) {
      const head = queue[0];
      if (!head) return;
      sentUntil.set(sendKeyOf(head), now() + seconds * 1000);
      publish();
    },
    closeAll() {
      answered.clear();
      for (const pending of queue.splice(0)) pending.resolve(null);
      enrolling?.end(false);
      enrolling = null;
      publish();
    },
  };
}
