import { checkMobileCode } from '../calls/codes';
import type { AccountData } from '../calls/define-call';
import { registerByEmail, registerByMobile, verifyEmailRegisterCode } from '../calls/register';
import type { AccountClient } from '../client/types';
import type { AccountError } from '../errors/account-error';
import { CodeType } from '../protocol/code-types';
import { type CodeChannel, type CodeProof, type TicketAnswer, ticketOf } from './channel';
import { createState, type Observable } from './observable';

/**
 * Exchanges a register code (type 1) for a verify ticket: `mobile/check_code` for SMS,
 * `email/register_verify` for e-mail. The code is used up; the ticket stands for it.
 */
export async function verifyRegisterCode(client: AccountClient, proof: CodeProof): Promise<string> {
  const answer =
    proof.channel === 'mobile'
      ? await checkMobileCode<TicketAnswer>(client, {
          mobile: proof.target,
          code: proof.code,
          type: CodeType.register,
        })
      : await verifyEmailRegisterCode<TicketAnswer>(client, { email: proof.target, code: proof.code });
  return ticketOf(answer, 'verifyRegisterCode');
}

export interface TicketRegistration {
  channel: CodeChannel;
  target: string;
  ticket: string;
  password: string;
}

/** Creates the account with a verify ticket and a password; the passport signs the browser in. */
export function registerWithTicket<T = AccountData>(
  client: AccountClient,
  { channel, target, ticket, password }: TicketRegistration,
): Promise<T> {
  return channel === 'mobile'
    ? registerByMobile<T>(client, { mobile: target, verify_ticket: ticket, password })
    : registerByEmail<T>(client, { email: target, verify_ticket: ticket, password });
}

/** A registration's input: the code sent to the target, and the password to set. */
export interface RegisterValues extends CodeProof {
  password: string;
}

export type RegistrationStep = 'idle' | 'verifying' | 'registering' | 'done' | 'failed';

export interface RegistrationSnapshot<T = AccountData> {
  step: RegistrationStep;
  /** The signed-in account once `step` is 'done'. */
  account: T | undefined;
  /** The last failure once `step` is 'failed'. */
  error: AccountError | undefined;
}

export interface Registration<T = AccountData> extends Observable<RegistrationSnapshot<T>> {
  /**
   * Registration by code (spec §4): the code is exchanged for a verify ticket, then the account is
   * created with it. Resolves the signed-in account; rejects with the failing step's AccountError.
   */
  submit(values: RegisterValues): Promise<T>;
  /** Forgets the kept ticket and returns to 'idle'. */
  reset(): void;
}

/**
 * A registration that keeps the verify ticket of its last code: submitting again with the same
 * target and code (after the passport refused the password as too common, say) reuses the ticket
 * instead of spending the code twice, so the person corrects the password without a new code.
 */
export function createRegistration<T = AccountData>(client: AccountClient): Registration<T> {
  const idle: RegistrationSnapshot<T> = { step: 'idle', account: undefined, error: undefined };
  const state = createState(idle);
  let kept: { key: string; ticket: string } | undefined;
  return {
    getSnapshot: state.get,
    subscribe: state.subscribe,
    async submit(values) {
      const key = `${values.channel}\n${values.target}\n${values.code}`;
      try {
        if (kept?.key !== key) {
          state.set({ step: 'verifying', account: undefined, error: undefined });
          kept = { key, ticket: await verifyRegisterCode(client, values) };
        }
        state.set({ step: 'registering', account: undefined, error: undefined });
        const account = await registerWithTicket<T>(client, { ...values, ticket: kept.ticket });
        kept = undefined;
        state.set({ step: 'done', account, error: undefined });
        return account;
      } catch (error) {
        state.set({ step: 'failed', account: undefined, error: error as AccountError });
        throw error;
      }
    },
    reset() {
      kept = undefined;
      state.set(idle);
    },
  };
}
