import { AccountError } from '../errors/account-error';

/** Where a one-time code goes: an SMS to a mobile number or an e-mail to an address. */
export type CodeChannel = 'mobile' | 'email';

/** A code sent to `target` on `channel` (an E.164 mobile number or an e-mail address). */
export interface CodeProof {
  channel: CodeChannel;
  target: string;
  code: string;
}

/** The answer of a code check: the ticket it was exchanged for (`verify_ticket`; older names say `ticket`). */
export interface TicketAnswer {
  verify_ticket?: string;
  ticket?: string;
}

/** The ticket of a code check's answer; a success without one is a malformed answer, not a ticket. */
export function ticketOf(answer: TicketAnswer | null | undefined, step: string): string {
  const ticket = answer?.verify_ticket ?? answer?.ticket;
  if (typeof ticket === 'string' && ticket !== '') return ticket;
  throw new AccountError(
    'status',
    { error_code: -1, description: '' },
    { message: `${step}: the passport answered success without a verify_ticket` },
  );
}
