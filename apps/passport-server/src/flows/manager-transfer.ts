import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Channel } from '../domain/codes/codes';
import type { Actor } from '../domain/organisations/actors';
import { factorClockOf } from '../domain/organisations/second-factor';
import {
  contactOf,
  FROM_TICKET_PURPOSE,
  fromTicketTarget,
  openTransfer,
  TICKET_CHANNEL,
  TO_TICKET_PURPOSE,
  TRANSFER_TICKET_MS,
  toTicketTarget,
} from '../domain/organisations/transfer';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { mask } from '../lib/identifiers';
import { languageOf } from '../lib/language';
import { CodeType } from '../protocol';

/**
 * The manager transfer's code steps: each side proves it is them by a code to their own mobile or
 * e-mail and gets a single-use ticket, which the transfer's operations spend
 * (src/operations/organisation/transfer.ts). They stay flows: a code goes out through the risk rules,
 * which read the request (its address, its device), and the codes service keeps its codes and guess
 * budgets in the store, beside the database.
 */

const LANE = '' as const;

async function managerOf(app: FastifyInstance, request: FastifyRequest, subjectUid: string): Promise<Actor> {
  const { user, factorVerifiedAt } = requireSession(request);
  const actor = await app.organisations.actorIn(user, subjectUid, {
    factor: factorClockOf(app, factorVerifiedAt),
  });
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
  // risk rules; the code the manager's start sends to the new manager is not.
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

const issued = ({ ticket, expiresIn }: { ticket: string; expiresIn: number }) => ({
  transfer_ticket: ticket,
  expires_in: expiresIn,
});

/** Step 1: a code to the manager's own mobile (default) or e-mail. */
export async function sendOldManagerCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; channel?: Channel | undefined },
) {
  const actor = await managerOf(app, request, input.subject_uid);
  return sendCode(app, request, contactOf(actor.user, input.channel), CodeType.oldMobile);
}

/** Step 1b: the manager's code for their ticket, bound to the subject and their identity. */
export async function verifyOldManager(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; channel?: Channel | undefined; code: string },
) {
  const actor = await managerOf(app, request, input.subject_uid);
  const to = contactOf(actor.user, input.channel);
  await app.codes.verify({ ...to, purpose: CodeType.oldMobile, code: input.code, lane: LANE });
  const ticket = await app.tickets.issue(
    {
      purpose: FROM_TICKET_PURPOSE,
      channel: TICKET_CHANNEL,
      target: fromTicketTarget(actor.subject.id, actor.deputy.id),
      userId: actor.user.id,
    },
    TRANSFER_TICKET_MS,
  );
  return issued(ticket);
}

/** The subject's open transfer naming the signed-in person as its new manager, or TRANSFER_NOT_FOUND. */
async function namingMe(app: FastifyInstance, request: FastifyRequest, subjectUid: string) {
  const { user, factorVerifiedAt } = requireSession(request);
  const actor = await app.organisations.actorIn(user, subjectUid, {
    frozenSubjectOk: true,
    factor: factorClockOf(app, factorVerifiedAt),
  });
  const row = await openTransfer(app.db, actor.subject.id, app.runtime.now());
  if (!row || row.to_user_id !== user.id || row.to_deputy_id !== actor.deputy.id)
    throw new PassportError('transferNotFound');
  return { actor, row };
}

/**
 * The code to the new manager once the manager's start committed (routes/aff/transfer.ts). A code
 * that cannot go now (a cooldown, a provider down) leaves the transfer pending: the new manager asks
 * for it again (sendNewManagerCode).
 */
export async function codeToNewManager(app: FastifyInstance, request: FastifyRequest, subjectId: string) {
  try {
    const row = await openTransfer(app.db, subjectId, app.runtime.now());
    const target = row && (row.channel === 'mobile' ? row.to_mobile : row.to_email);
    if (row && target)
      await sendCode(app, request, { channel: row.channel, target }, CodeType.newManager, false);
  } catch {
    // The transfer stays pending (above).
  }
}

/** The new manager: the code (type 101) again. */
export async function sendNewManagerCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string },
) {
  const { actor, row } = await namingMe(app, request, input.subject_uid);
  return sendCode(app, request, contactOf(actor.user, row.channel), CodeType.newManager);
}

/** Step 3: the new manager's code for their ticket, bound to the transfer and both identities. */
export async function verifyNewManager(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; code: string },
) {
  const { actor, row } = await namingMe(app, request, input.subject_uid);
  const to = contactOf(actor.user, row.channel);
  await app.codes.verify({ ...to, purpose: CodeType.newManager, code: input.code, lane: LANE });
  const ticket = await app.tickets.issue(
    {
      purpose: TO_TICKET_PURPOSE,
      channel: TICKET_CHANNEL,
      target: toTicketTarget(row),
      userId: actor.user.id,
    },
    TRANSFER_TICKET_MS,
  );
  return issued(ticket);
}
