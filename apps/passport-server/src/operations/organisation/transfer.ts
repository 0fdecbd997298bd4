import { assertStaying } from '../../domain/cancellation/cancellation';
import {
  candidate,
  deleteTransfer,
  FROM_TICKET_PURPOSE,
  fromTicketTarget,
  handOver,
  insertTransfer,
  lockSubject,
  managerIdentity,
  openTransfer,
  parseToTicketTarget,
  TICKET_CHANNEL,
  TO_TICKET_PURPOSE,
  TRANSFER_PENDING_MS,
  transferView,
} from '../../domain/organisations/transfer';
import { deputyView } from '../../domain/organisations/views';
import type { TicketDemand } from '../../domain/tickets/tickets';
import { PassportError } from '../../errors';
import { mask } from '../../lib/identifiers';
import {
  CandidateData,
  Flagged,
  PendingData,
  invitationSchemas as schemas,
  TransferData,
} from '../../schemas/invitations';
import { DeputyData } from '../../schemas/organisations';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { emitInSubject } from './emit';

/**
 * Handing the organisation over (docs/organisations.md, "Handing the organisation over"), two-sided:
 * the manager proves it is them by a code (a flow: src/flows/manager-transfer.ts) for a ticket, and
 * spends it here to name a member (start); the member proves it is them the same way and spends their
 * ticket to accept (confirm): the pending row goes, the old manager steps down and the new one up, in
 * one transaction with its event. Either side may abandon. Every step of a subject locks the subject
 * first, so two of them never interleave.
 */

type IdentityContext = OperationContext<CallerOf<{ kind: 'identity'; permission: null }>>;

const subject = (input: { subject_uid: string }) => input.subject_uid;

/** Only the manager hands the organisation over (no permission grants it). */
function assertManager(ctx: IdentityContext): void {
  if (!ctx.caller.isManager) throw new PassportError('permissionDenied', { permission: 'manager' });
}

/** Spends a transfer ticket of the caller; any refusal is TRANSFER_TICKET_INVALID. */
async function spendTicket(ctx: IdentityContext, demand: Omit<TicketDemand, 'channel' | 'userId'>) {
  try {
    return await ctx.tickets.consume({ ...demand, channel: TICKET_CHANNEL, userId: ctx.caller.user.id });
  } catch (error) {
    if (error instanceof PassportError && error.errorName === 'ticketInvalid')
      throw new PassportError('transferTicketInvalid');
    throw error;
  }
}

export const checkNewManager = defineOperation({
  name: 'organisation.manager.transfer.check',
  input: schemas.managerCheckNew.querystring,
  output: CandidateData,
  caller: caller.identity(null),
  subject,
  emits: [],
  async run(ctx, input) {
    assertManager(ctx);
    const { deputy, to } = await candidate(
      ctx.tx,
      ctx.caller.subject.id,
      ctx.caller.deputy.id,
      input.user_identity_id,
    );
    return {
      user_identity_id: deputy.id,
      deputy_name: deputy.deputy_name,
      contact: mask(to.target),
      channel: to.channel,
    };
  },
});

export const startTransfer = defineOperation({
  name: 'organisation.manager.transfer.start',
  input: schemas.managerStart.body,
  output: TransferData,
  caller: caller.identity(null),
  subject,
  emits: ['organisation.manager.transfer_started'],
  async run(ctx, input) {
    assertManager(ctx);
    const { subject, deputy, user } = ctx.caller;
    await spendTicket(ctx, {
      ticket: input.transfer_ticket,
      purposes: new Set([FROM_TICKET_PURPOSE]),
      target: fromTicketTarget(subject.id, deputy.id),
    });
    await lockSubject(ctx.tx, subject.id);
    const named = await candidate(ctx.tx, subject.id, deputy.id, input.user_identity_id);
    // The named member's account stays open while it is named: its cancellation waits for this.
    await assertStaying(ctx.tx, named.user.id);
    const now = ctx.now();
    if (await openTransfer(ctx.tx, subject.id, now)) throw new PassportError('transferPending');
    await insertTransfer(ctx.tx, {
      subject_id: subject.id,
      id: ctx.newId(),
      from_deputy_id: deputy.id,
      to_deputy_id: named.deputy.id,
      from_user_id: user.id,
      to_user_id: named.user.id,
      channel: named.to.channel,
      created_at: now,
      expires_at: now + TRANSFER_PENDING_MS,
    });
    const row = await openTransfer(ctx.tx, subject.id, now);
    if (!row) throw new PassportError('transferNotFound');
    emitInSubject(
      ctx,
      'organisation.manager.transfer_started',
      { from: deputy.id, to: named.deputy.id, expiresAt: Number(row.expires_at) },
      named.user.id,
    );
    return transferView(row, user.id);
  },
});

export const confirmTransfer = defineOperation({
  name: 'organisation.manager.transfer.confirm',
  input: schemas.managerTransfer.body,
  output: DeputyData,
  caller: caller.identity(null),
  subject,
  emits: ['organisation.manager.transferred'],
  async run(ctx, input) {
    const { subject, deputy, user } = ctx.caller;
    const claim = await spendTicket(ctx, {
      ticket: input.transfer_ticket,
      purposes: new Set([TO_TICKET_PURPOSE]),
    });
    const transfer = parseToTicketTarget(claim.target);
    if (transfer.subject_id !== subject.id || transfer.to_deputy_id !== deputy.id)
      throw new PassportError('transferTicketInvalid');
    await lockSubject(ctx.tx, subject.id);
    const now = ctx.now();
    const row = await openTransfer(ctx.tx, subject.id, now);
    if (!row || !(await deleteTransfer(ctx.tx, transfer, now))) throw new PassportError('transferNotFound');
    await assertStaying(ctx.tx, user.id);
    await handOver(ctx.tx, subject.id, transfer.from_deputy_id, deputy.id, now);
    emitInSubject(
      ctx,
      'organisation.manager.transferred',
      { from: transfer.from_deputy_id, to: deputy.id },
      row.from_user_id,
    );
    return deputyView({ ...deputy, is_manager: 1, updated_at: now });
  },
});

/** The caller's side of the subject's open transfer, or TRANSFER_NOT_FOUND. */
async function sideOf(ctx: IdentityContext, sides: 'to' | 'either') {
  const { subject, deputy, user } = ctx.caller;
  const row = await openTransfer(ctx.tx, subject.id, ctx.now());
  const party =
    row &&
    ((row.to_user_id === user.id && row.to_deputy_id === deputy.id) ||
      (sides === 'either' && row.from_user_id === user.id && row.from_deputy_id === deputy.id));
  if (!row || !party) throw new PassportError('transferNotFound');
  return row;
}

export const abandonTransfer = defineOperation({
  name: 'organisation.manager.transfer.abandon',
  input: schemas.managerAbandon.body,
  output: Flagged,
  caller: caller.identity(null, { frozenSubjectOk: true }),
  subject,
  emits: ['organisation.manager.transfer_abandoned'],
  async run(ctx) {
    await lockSubject(ctx.tx, ctx.caller.subject.id);
    const row = await sideOf(ctx, 'either');
    // Its tickets die with it: the new manager's names this transfer, which is gone.
    if (!(await deleteTransfer(ctx.tx, row))) throw new PassportError('transferNotFound');
    // About the other side: the one who did not abandon it.
    const other = row.from_user_id === ctx.caller.user.id ? row.to_user_id : row.from_user_id;
    emitInSubject(
      ctx,
      'organisation.manager.transfer_abandoned',
      { from: row.from_deputy_id, to: row.to_deputy_id },
      other,
    );
    return { abandoned: true };
  },
});

export const pendingTransfer = defineOperation({
  name: 'organisation.manager.transfer.pending',
  input: schemas.managerPending.querystring,
  output: PendingData,
  caller: caller.identity(null, { frozenSubjectOk: true }),
  subject,
  emits: [],
  async run(ctx) {
    const { subject, user } = ctx.caller;
    const row = await openTransfer(ctx.tx, subject.id, ctx.now());
    const party = row && (row.to_user_id === user.id || row.from_user_id === user.id);
    // Who manages the subject is no secret to its members; the console shows it on both sides.
    const manager = await managerIdentity(ctx.tx, subject.id);
    return {
      transfer: party ? transferView(row, user.id) : null,
      manager: manager ? { user_identity_id: manager.id, deputy_name: manager.deputy_name } : null,
    };
  },
});
