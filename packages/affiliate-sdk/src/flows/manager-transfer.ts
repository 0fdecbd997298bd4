import { type AccountClient, createState, isAccountError, type Observable } from '@portico/account-sdk';
import {
  abandonManagerTransfer,
  sendNewManagerCode,
  sendOldManagerCode,
  startManagerTransfer,
  transferManager,
  verifyNewManager,
  verifyOldManager,
} from '../calls';
import type { Deputy, PendingTransfer } from '../protocol/types';
import { stepper } from './stepper';

export interface ManagerTransferSnapshot {
  /**
   * The manager's side: `prove` (send a code to themself, enter it), then `choose` (name the new
   * manager; the single-use ticket the code bought is held by the flow, never by the page).
   */
  step: 'prove' | 'choose';
  /** A call is on its way. */
  busy: boolean;
  /** Where the last code went (masked), or null. */
  codeSentTo: string | null;
  /**
   * When the passport takes the next send (ms since the epoch): a send's `retry_time` from its answer,
   * or from a CODE_COOLDOWN refusal; 0 when a send may go now. A page counts down to it.
   */
  sendAllowedAt: number;
  /** The last step's failure (an `AccountError`), cleared when the next step starts. */
  error: unknown;
}

export interface ManagerTransferFlow extends Observable<ManagerTransferSnapshot> {
  /** A code to the manager's own mobile or e-mail (`from`), or to the new manager's (`to`). */
  sendCode(side: 'from' | 'to'): Promise<void>;
  /** The manager's code: buys the ticket that `start` spends; the step becomes `choose`. */
  prove(code: string): Promise<void>;
  /** Names the new manager: the transfer is pending and a code goes to them. */
  start(user_identity_id: string): Promise<PendingTransfer>;
  /** The new manager's code: verifies it and commits the transfer in one go. */
  accept(code: string): Promise<Deputy>;
  /** Either side abandons the pending transfer; the manager starts again from `prove`. */
  abandon(): Promise<void>;
}

/**
 * The two-sided manager transfer of an organisation (`subject_uid`) as one framework-free flow over
 * the calls of the same names: the manager proves it is them, names a member, and that member proves
 * it is them to take over. The pending transfer itself is `pendingManagerTransfer`, which the page
 * reads again after each step.
 */
export function createManagerTransfer(client: AccountClient, subject_uid: string): ManagerTransferFlow {
  const state = createState<ManagerTransferSnapshot>({
    step: 'prove',
    busy: false,
    codeSentTo: null,
    sendAllowedAt: 0,
    error: null,
  });
  const step = stepper(state);
  const waitUntil = (seconds: unknown) =>
    typeof seconds === 'number' && seconds > 0 ? Date.now() + Math.ceil(seconds) * 1000 : 0;
  let ticket = '';
  return {
    getSnapshot: state.get,
    subscribe: state.subscribe,
    async sendCode(side) {
      const send = side === 'from' ? sendOldManagerCode : sendNewManagerCode;
      try {
        await step(
          () => send(client, { subject_uid }),
          (sent) => ({ codeSentTo: sent.contact, sendAllowedAt: waitUntil(sent.retry_time) }),
        );
      } catch (error) {
        // A refusal that says how long (CODE_COOLDOWN's retry_time) counts down like a send.
        const wait = isAccountError(error) ? waitUntil(error.data.retry_time) : 0;
        if (wait) state.set({ ...state.get(), sendAllowedAt: wait });
        throw error;
      }
    },
    async prove(code) {
      ticket = (
        await step(
          () => verifyOldManager(client, { subject_uid, code }),
          () => ({ step: 'choose', codeSentTo: null }),
        )
      ).transfer_ticket;
    },
    start(user_identity_id) {
      const spent = ticket;
      ticket = '';
      return step(
        () => startManagerTransfer(client, { subject_uid, transfer_ticket: spent, user_identity_id }),
        () => ({ step: 'prove', codeSentTo: null }),
      );
    },
    accept(code) {
      return step(
        async () => {
          const { transfer_ticket } = await verifyNewManager(client, { subject_uid, code });
          return transferManager(client, { subject_uid, transfer_ticket });
        },
        () => ({ codeSentTo: null }),
      );
    },
    async abandon() {
      ticket = '';
      await step(
        () => abandonManagerTransfer(client, { subject_uid }),
        () => ({ step: 'prove', codeSentTo: null }),
      );
    },
  };
}
