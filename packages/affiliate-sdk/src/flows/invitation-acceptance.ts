import { type AccountClient, createState, type Observable } from '@portico/account-sdk';
import { acceptInvitation, checkInvitation, sendInvitationCode } from '../calls';
import type { AcceptedInvitation, InvitationPreview } from '../protocol/types';
import { stepper } from './stepper';

export interface InvitationAcceptanceSnapshot {
  /** What the ticket shows before accepting (organisation, inviter, roles, masked contact), once checked. */
  preview: InvitationPreview | null;
  /** Where the code went (masked), once sent. */
  codeSentTo: string | null;
  /** The answer of a successful acceptance: the new identity is the session's active one. */
  joined: AcceptedInvitation | null;
  busy: boolean;
  /** The last step's failure (an `AccountError`), cleared when the next step starts. */
  error: unknown;
}

export interface InvitationAcceptanceFlow extends Observable<InvitationAcceptanceSnapshot> {
  /** Reads the preview; fails when the invitation is not live. */
  check(): Promise<InvitationPreview>;
  /** A code to the invited mobile or e-mail, for accepting without an account. */
  sendCode(): Promise<void>;
  /** Accepts signed in (no argument) or registers in the same call (the code and a new password). */
  accept(register?: { code: string; password: string }): Promise<AcceptedInvitation>;
}

/**
 * Accepting an invitation (`invite_ticket` from its link) as one framework-free flow: check it, then
 * accept signed in, or prove the invited contact with a code and register while accepting.
 */
export function createInvitationAcceptance(
  client: AccountClient,
  invite_ticket: string,
): InvitationAcceptanceFlow {
  const state = createState<InvitationAcceptanceSnapshot>({
    preview: null,
    codeSentTo: null,
    joined: null,
    busy: false,
    error: null,
  });
  const step = stepper(state);
  return {
    getSnapshot: state.get,
    subscribe: state.subscribe,
    check: () =>
      step(
        () => checkInvitation(client, { invite_ticket }),
        (preview) => ({ preview }),
      ),
    async sendCode() {
      await step(
        () => sendInvitationCode(client, { invite_ticket }),
        (sent) => ({ codeSentTo: sent.contact }),
      );
    },
    accept: (register) =>
      step(
        () => acceptInvitation(client, register ? { invite_ticket, ...register } : { invite_ticket }),
        (joined) => ({ joined }),
      ),
  };
}
