import { checkEmailCode, checkMobileCode } from '../calls/codes';
import type { AccountData } from '../calls/define-call';
import {
  resetPassword,
  resetPasswordByEmail,
  resetPasswordByEmailTicket,
  resetPasswordByTicket,
} from '../calls/password';
import type { AccountClient } from '../client/types';
import { CodeType } from '../protocol/code-types';
import { type CodeChannel, type CodeProof, type TicketAnswer, ticketOf } from './channel';

/**
 * Resets a forgotten password in one call with the code sent to the account's mobile or e-mail
 * (`password/reset`, `email/password/reset`). The passport ends every session of the account.
 */
export function resetPasswordWithCode<T = AccountData>(
  client: AccountClient,
  { channel, target, code, password }: CodeProof & { password: string },
): Promise<T> {
  return channel === 'mobile'
    ? resetPassword<T>(client, { mobile: target, code, password })
    : resetPasswordByEmail<T>(client, { email: target, code, password });
}

/**
 * The first step of a reset in two: checks a reset code (type 4) and resolves the ticket that stands
 * for it, so a page can ask for the new password after the code is known to be right.
 */
export async function verifyResetCode(client: AccountClient, proof: CodeProof): Promise<string> {
  const payload = { code: proof.code, type: CodeType.resetPassword };
  const answer =
    proof.channel === 'mobile'
      ? await checkMobileCode<TicketAnswer>(client, { ...payload, mobile: proof.target })
      : await checkEmailCode<TicketAnswer>(client, { ...payload, email: proof.target });
  return ticketOf(answer, 'verifyResetCode');
}

/**
 * The second step: sets the new password with the ticket of `verifyResetCode`. The passport checks the
 * password before spending the ticket, so a refused password can be corrected with the same ticket.
 */
export function resetPasswordWithTicket<T = AccountData>(
  client: AccountClient,
  { channel, ticket, password }: { channel: CodeChannel; ticket: string; password: string },
): Promise<T> {
  return channel === 'mobile'
    ? resetPasswordByTicket<T>(client, { ticket, password })
    : resetPasswordByEmailTicket<T>(client, { ticket, password });
}
