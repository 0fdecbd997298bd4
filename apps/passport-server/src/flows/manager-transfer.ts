import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DeputyRow, User } from '../db/schema';
import { assertNotLeaving } from '../domain/cancellation/cancellation';
import type { Channel } from '../domain/codes/codes';
import type { Actor } from '../domain/organisations/organisations';
import { deputyView } from '../domain/organisations/views';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { hmac, randomToken } from '../lib/crypto';
import { mask } from '../lib/identifiers';
import { languageOf } from '../lib/language';
import { CodeType } from '../protocol';

/**
 * The manager transfer (spec §4, §6; issue 13), two-sided and atomic:
 * 1. the manager proves it is them by a code (type 22) to their own mobile or e-mail → ticket A;
 * 2. the manager names a member (check_new) and spends ticket A on it (start): the transfer is pending
 *    (one per subject, the table's primary key) and a code of type 101 goes to the new manager;
 * 3. the new manager, in their own session, verifies that code → ticket B;
 * 4. the new manager spends ticket B (transfer): in one transaction the pending row is deleted, the old
 *    manager steps down and the new one up — the partial unique index `deputies_one_manager` admits no
 *    other order, so at every instant exactly one manager exists.
 * Either side may abandon. Tickets are single use (the store's atomic take), live TRANSFER_TICKET_MS,
 * and are bound to the subject, the person who earned them and (B) the transfer and both identities.
 */

/** How long a ticket between steps lives. */
export const TRANSFER_TICKET_MS = 5 * 60_000;
/** How long a named new manager has to verify and accept. */
export const TRANSFER_PENDING_MS = 30 * 60_000;
const LANE = '' as const;
const TICKET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

interface OldTicket {
  kind: 'old';
  /** Expiry by the server's clock (the store's own TTL is the backstop; Redis keeps wall-clock time). */
  exp: number;
  subject: string;
  deputy: string;
  user: string;
}
interface NewTicket {
  kind: 'new';
  exp: number;
  subject: string;
  transfer: string;
  from: string;
  to: string;
  user: string;
}

const keyOf = (app: FastifyInstance, ticket: string) =>
  `mt:${hmac(app.secret, `manager-transfer|${ticket}`)}`;

async function issue(app: FastifyInstance, claim: Omit<OldTicket, 'exp'> | Omit<NewTicket, 'exp'>) {
  const ticket = randomToken(32);
  const exp = app.runtime.now() + TRANSFER_TICKET_MS;
  await app.store.set(keyOf(app, ticket), JSON.stringify({ ...claim, exp }), TRANSFER_TICKET_MS);
  return { transfer_ticket: ticket, expires_in: TRANSFER_TICKET_MS / 1000 };
}

/** Takes a ticket (single use even when the claim does not match: a wrong use burns it). */
async function take<T extends OldTicket | NewTicket>(
  app: FastifyInstance,
  ticket: string,
  kind: T['kind'],
  subject: string,
  user: string,
): Promise<T> {
  if (!TICKET_SHAPE.test(ticket)) throw new PassportError('transferTicketInvalid');
  const raw = await app.store.take(keyOf(app, ticket));
  const claim = raw === null ? null : (JSON.parse(raw) as T);
  if (
    !claim ||
    claim.kind !== kind ||
    claim.subject !== subject ||
    claim.user !== user ||
    !(claim.exp > app.runtime.now())
  )
    throw new PassportError('transferTicketInvalid');
  return claim;
}

/** Where a person's code goes: the chosen channel, or their mobile, else their e-mail. */
function contactOf(user: User, channel?: Channel): { channel: Channel; target: string } {
  const wanted: Channel[] = channel ? [channel] : ['mobile', 'email'];
  for (const c of wanted) {
    const target = c === 'mobile' ? user.mobile : user.email;
    if (target) return { channel: c, target };
  }
  throw new PassportError('contactMissing');
}

async function managerOf(app: FastifyInstance, request: FastifyRequest, subjectUid: string): Promise<Actor> {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, subjectUid);
  if (!actor.isManager) throw new PassportError('permissionDenied', { permission: 'manager' });
  return actor;
}

async function sendCode(
  app: FastifyInstance,
  request: FastifyRequest,
  to: { channel: Channel; target: string },
  purpose: number,
  own = true,
) {
  // A code to the signed-in person's own contact from a device that knows it is the owner's lane of the
  // risk rules; the code the manager sends to the new manager is not.
  const knownDevice = own && (await app.devices.knowsTarget(request, to.channel, to.target));
  await app.risk.require(request, 'sendCode', { target: `${to.channel}:${to.target}`, knownDevice });
  const sent = await app.codes.send({
    channel: to.channel,
    target: to.target,
    purpose,
    ip: request.ip,
    language: languageOf(request),
    lane: LANE,
  });
  return { contact: mask(to.target), retry_time: sent.retryAfter, expires_in: sent.expiresIn };
}

/** Step 1: a code to the manager's own mobile (default) or e-mail. */
export async function sendOldManagerCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; channel?: Channel | undefined },
) {
  const actor = await managerOf(app, request, input.subject_uid);
  return sendCode(app, request, contactOf(actor.user, input.channel), CodeType.oldMobile);
}

/** Step 1b: the manager's code for ticket A. */
export async function verifyOldManager(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; channel?: Channel | undefined; code: string },
) {
  const actor = await managerOf(app, request, input.subject_uid);
  const to = contactOf(actor.user, input.channel);
  await app.codes.verify({ ...to, purpose: CodeType.oldMobile, code: input.code, lane: LANE });
  return issue(app, { kind: 'old', subject: actor.subject.id, deputy: actor.deputy.id, user: actor.user.id });
}

/** A member who may become the manager: another, unfrozen identity of an open account with a contact. */
async function candidate(app: FastifyInstance, actor: Actor, deputyId: string) {
  const deputy = await app.organisations.deputyIn(actor.subject.id, deputyId);
  if (deputy.id === actor.deputy.id || Number(deputy.is_frozen) === 1)
    throw new PassportError('newManagerInvalid');
  const user = await app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', deputy.user_id)
    .executeTakeFirst();
  if (!user || Number(user.is_frozen) === 1 || user.erased_at !== null)
    throw new PassportError('newManagerInvalid');
  if (user.cancel_erase_at !== null) throw new PassportError('cancellationPending');
  return { deputy, user, to: contactOf(user) };
}

/** "Check new manager" (GET): whether a member can take over, and where their code would go. */
export async function checkNewManager(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; user_identity_id: string },
) {
  const actor = await managerOf(app, request, input.subject_uid);
  const { deputy, to } = await candidate(app, actor, input.user_identity_id);
  return {
    user_identity_id: deputy.id,
    deputy_name: deputy.deputy_name,
    contact: mask(to.target),
    channel: to.channel,
  };
}

type TransferRow = NonNullable<Awaited<ReturnType<typeof openTransfer>>>;

/** The subject's open transfer (expired ones are gone: deleted here). */
async function openTransfer(app: FastifyInstance, subjectId: string) {
  const now = app.runtime.now();
  await app.db
    .deleteFrom('manager_transfers')
    .where('subject_id', '=', subjectId)
    .where('expires_at', '<=', now)
    .execute();
  return app.db
    .selectFrom('manager_transfers')
    .innerJoin('deputies as f', 'f.id', 'manager_transfers.from_deputy_id')
    .innerJoin('deputies as t', 't.id', 'manager_transfers.to_deputy_id')
    .innerJoin('users as tu', 'tu.id', 'manager_transfers.to_user_id')
    .selectAll('manager_transfers')
    .select([
      'f.deputy_name as from_name',
      't.deputy_name as to_name',
      'tu.mobile as to_mobile',
      'tu.email as to_email',
    ])
    .where('manager_transfers.subject_id', '=', subjectId)
    .executeTakeFirst();
}

const transferView = (row: TransferRow, userId: string) => ({
  transfer_id: row.id,
  sec_subject_uid: row.subject_id,
  from_identity_id: row.from_deputy_id,
  from_name: row.from_name,
  to_identity_id: row.to_deputy_id,
  to_name: row.to_name,
  contact: mask((row.channel === 'mobile' ? row.to_mobile : row.to_email) ?? ''),
  channel: row.channel,
  role: row.from_user_id === userId ? ('from' as const) : ('to' as const),
  expires_at: Number(row.expires_at),
});

/** Step 2: ticket A spent on a named member; the transfer is pending and the new manager gets a code. */
export async function startManagerTransfer(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; transfer_ticket: string; user_identity_id: string },
) {
  const actor = await managerOf(app, request, input.subject_uid);
  const claim = await take<OldTicket>(app, input.transfer_ticket, 'old', actor.subject.id, actor.user.id);
  if (claim.deputy !== actor.deputy.id) throw new PassportError('transferTicketInvalid');
  const { deputy, user, to } = await candidate(app, actor, input.user_identity_id);
  if (await openTransfer(app, actor.subject.id)) throw new PassportError('transferPending');
  const now = app.runtime.now();
  try {
    await app.db
      .insertInto('manager_transfers')
      .values({
        subject_id: actor.subject.id,
        id: app.organisations.newId(),
        from_deputy_id: actor.deputy.id,
        to_deputy_id: deputy.id,
        from_user_id: actor.user.id,
        to_user_id: user.id,
        channel: to.channel,
        created_at: now,
        expires_at: now + TRANSFER_PENDING_MS,
      })
      .execute();
  } catch (error) {
    const e = error as { code?: string };
    if (
      e.code === '23505' ||
      e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
      e.code === 'SQLITE_CONSTRAINT_UNIQUE'
    )
      throw new PassportError('transferPending');
    throw error;
  }
  try {
    await sendCode(app, request, to, CodeType.newManager, false);
  } catch {
    // The transfer stays pending: the new manager asks for the code again (sendNewManagerCode).
  }
  const row = await openTransfer(app, actor.subject.id);
  if (!row) throw new PassportError('transferNotFound');
  return transferView(row, actor.user.id);
}

/** The caller's side of the subject's open transfer, or TRANSFER_NOT_FOUND. */
async function mine(
  app: FastifyInstance,
  request: FastifyRequest,
  subjectUid: string,
  side: 'to' | 'either',
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, subjectUid, { frozenSubjectOk: true });
  const row = await openTransfer(app, actor.subject.id);
  const party =
    row &&
    ((row.to_user_id === user.id && row.to_deputy_id === actor.deputy.id) ||
      (side === 'either' && row.from_user_id === user.id && row.from_deputy_id === actor.deputy.id));
  if (!row || !party) throw new PassportError('transferNotFound');
  return { actor, row };
}

/** The new manager: the code (type 101) again. */
export async function sendNewManagerCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string },
) {
  const { actor, row } = await mine(app, request, input.subject_uid, 'to');
  return sendCode(app, request, contactOf(actor.user, row.channel), CodeType.newManager);
}

/** Step 3: the new manager's code for ticket B. */
export async function verifyNewManager(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; code: string },
) {
  const { actor, row } = await mine(app, request, input.subject_uid, 'to');
  const to = contactOf(actor.user, row.channel);
  await app.codes.verify({ ...to, purpose: CodeType.newManager, code: input.code, lane: LANE });
  return issue(app, {
    kind: 'new',
    subject: actor.subject.id,
    transfer: row.id,
    from: row.from_deputy_id,
    to: row.to_deputy_id,
    user: actor.user.id,
  });
}

/** Step 4: ticket B commits the transfer in one transaction. */
export async function transferManager(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; transfer_ticket: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  const claim = await take<NewTicket>(app, input.transfer_ticket, 'new', actor.subject.id, user.id);
  if (claim.to !== actor.deputy.id) throw new PassportError('transferTicketInvalid');
  const now = app.runtime.now();
  await app.db.transaction().execute(async (trx) => {
    const closed = await trx
      .deleteFrom('manager_transfers')
      .where('subject_id', '=', actor.subject.id)
      .where('id', '=', claim.transfer)
      .where('from_deputy_id', '=', claim.from)
      .where('to_deputy_id', '=', claim.to)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(closed.numDeletedRows) !== 1) throw new PassportError('transferNotFound');
    await assertNotLeaving(app, trx, user.id);
    const down = await trx
      .updateTable('deputies')
      .set({ is_manager: 0, updated_at: now })
      .where('id', '=', claim.from)
      .where('subject_id', '=', actor.subject.id)
      .where('is_manager', '=', 1)
      .executeTakeFirst();
    if (Number(down.numUpdatedRows) !== 1) throw new PassportError('managerConflict');
    const up = await trx
      .updateTable('deputies')
      .set({ is_manager: 1, updated_at: now })
      .where('id', '=', claim.to)
      .where('subject_id', '=', actor.subject.id)
      .where('is_frozen', '=', 0)
      .executeTakeFirst();
    if (Number(up.numUpdatedRows) !== 1) throw new PassportError('newManagerInvalid');
  });
  const deputy: DeputyRow = { ...actor.deputy, is_manager: 1, updated_at: now };
  return deputyView(deputy);
}

/** Either side abandons the open transfer (its tickets die with it). */
export async function abandonManagerTransfer(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string },
) {
  const { row } = await mine(app, request, input.subject_uid, 'either');
  const done = await app.db.deleteFrom('manager_transfers').where('id', '=', row.id).executeTakeFirst();
  return { abandoned: Number(done.numDeletedRows) === 1 };
}

/** The open transfer the caller is a side of, or null. */
export async function pendingManagerTransfer(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid, { frozenSubjectOk: true });
  const row = await openTransfer(app, actor.subject.id);
  const party = row && (row.to_user_id === user.id || row.from_user_id === user.id);
  // Who manages the subject is no secret to its members; the console shows it on both sides.
  const manager = await app.db
    .selectFrom('deputies')
    .select(['id', 'deputy_name'])
    .where('subject_id', '=', actor.subject.id)
    .where('is_manager', '=', 1)
    .executeTakeFirst();
  return {
    transfer: party ? transferView(row, user.id) : null,
    manager: manager ? { user_identity_id: manager.id, deputy_name: manager.deputy_name } : null,
  };
}
