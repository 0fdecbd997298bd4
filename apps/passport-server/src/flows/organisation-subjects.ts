import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import { assertNotLeaving } from '../domain/cancellation/cancellation';
import { infosOf } from '../domain/organisations/infos';
import { type PageArgs, pageOf, window } from '../domain/organisations/organisations';
import { subjectView } from '../domain/organisations/views';
import { currentPasswordIsRight } from '../domain/passwords/failures';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { normaliseUsername } from '../lib/identifiers';
import { MANAGER_ROLE_KEY } from '../protocol';

/** Subjects: create (the caller becomes the one manager), list, read, update, freeze. */

export interface CreateSubjectInput {
  /** Names the signed-in account when given (IDENTIFIER_MISMATCH otherwise); never who acts. */
  identifier: { kind: 'username' | 'mobile' | 'email'; value: string | undefined };
  subject_name: string;
  deputy_name: string;
  password?: string | undefined;
  base_infos?: string | undefined;
  detail_infos?: string | undefined;
  identity_card?: string | undefined;
  real_name?: string | undefined;
}

/** The identifier must name the signed-in account itself: a body never says who the caller is. */
function assertSelf(app: FastifyInstance, user: User, identifier: CreateSubjectInput['identifier']) {
  const { kind, value } = identifier;
  if (value === undefined) return;
  const normalised =
    kind === 'username'
      ? normaliseUsername(value)
      : kind === 'mobile'
        ? mobileOf(app, value)
        : emailOf(value);
  if (!normalised || normalised !== user[kind]) throw new PassportError('identifierMismatch');
}

/**
 * The current password, when given, re-checked like password/update's: a wrong one counts against the
 * client address and the account, so a stolen session buys no free guesses.
 */
async function recheckPassword(app: FastifyInstance, request: FastifyRequest, user: User, password: string) {
  if (!(await currentPasswordIsRight(app, request.ip, user.id, user.password_hash, password)))
    throw new PassportError('wrongCredentials');
}

/** Creates a subject and its manager (the caller) in one transaction. */
export async function createSubject(
  app: FastifyInstance,
  request: FastifyRequest,
  input: CreateSubjectInput,
) {
  const { user } = requireSession(request);
  if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
  // A manager cannot leave (the cancellation's sole_manager blocker): one who is leaving cannot become one.
  if (user.cancel_erase_at !== null) throw new PassportError('cancellationPending');
  assertSelf(app, user, input.identifier);
  if (input.password !== undefined) await recheckPassword(app, request, user, input.password);
  const base = infosOf('base_infos', input.base_infos) ?? '{}';
  const detail = infosOf('detail_infos', input.detail_infos) ?? '{}';
  const { organisations: orgs, runtime } = app;
  const now = runtime.now();
  const id = orgs.newId();
  const subject = {
    id,
    name: input.subject_name,
    base_infos: base,
    detail_infos: detail,
    identity_card_sealed: input.identity_card
      ? orgs.realName.seal(id, 'identity_card', input.identity_card)
      : null,
    real_name_sealed: input.real_name ? orgs.realName.seal(id, 'real_name', input.real_name) : null,
    is_frozen: 0,
    created_by: user.id,
    created_at: now,
    updated_at: now,
  };
  await app.db.transaction().execute(async (trx) => {
    await assertNotLeaving(app, trx, user.id);
    await trx.insertInto('subjects').values(subject).execute();
    await trx
      .insertInto('deputies')
      .values({
        id: orgs.newId(),
        subject_id: id,
        user_id: user.id,
        deputy_name: input.deputy_name,
        is_manager: 1,
        is_frozen: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  return subjectView(subject);
}

/** The subjects the caller has an identity in, paged; `deputy_identity_id` narrows to that identity's. */
export async function listSubjects(
  app: FastifyInstance,
  request: FastifyRequest,
  input: PageArgs & { deputy_identity_id?: string | undefined },
) {
  const { user } = requireSession(request);
  let base = app.db
    .selectFrom('subjects')
    .innerJoin('deputies', 'deputies.subject_id', 'subjects.id')
    .where('deputies.user_id', '=', user.id);
  if (input.deputy_identity_id) base = base.where('deputies.id', '=', input.deputy_identity_id);
  const { limit, offset } = window(input);
  const [rows, count] = await Promise.all([
    base
      .selectAll('subjects')
      .orderBy('subjects.created_at')
      .orderBy('subjects.id')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(subjectView), Number(count.n), { page: input.page, page_size: limit });
}

/** One subject the caller is a member of (any member; a frozen one is shown to its manager). */
export async function subjectInfo(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { sec_subject_uid: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.sec_subject_uid, { frozenSubjectOk: true });
  return subjectView(actor.subject);
}

export async function updateSubject(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    sec_subject_uid: string;
    subject_name?: string | undefined;
    base_infos?: string | undefined;
    detail_infos?: string | undefined;
    identity_card?: string | undefined;
    real_name?: string | undefined;
  },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.sec_subject_uid);
  orgs.require(actor, 'subject:update');
  const id = actor.subject.id;
  const set = {
    ...(input.subject_name !== undefined && { name: input.subject_name }),
    ...(input.base_infos !== undefined && { base_infos: infosOf('base_infos', input.base_infos) }),
    ...(input.detail_infos !== undefined && { detail_infos: infosOf('detail_infos', input.detail_infos) }),
    ...(input.identity_card !== undefined && {
      identity_card_sealed: orgs.realName.seal(id, 'identity_card', input.identity_card),
    }),
    ...(input.real_name !== undefined && {
      real_name_sealed: orgs.realName.seal(id, 'real_name', input.real_name),
    }),
    updated_at: app.runtime.now(),
  };
  await app.db.updateTable('subjects').set(set).where('id', '=', id).execute();
  const subject = await app.db
    .selectFrom('subjects')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return subjectView(subject);
}

/** Freezes or thaws a subject: its manager only (the one identity that can still act in it frozen). */
export async function freezeSubject(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { sec_subject_uid: string; is_frozen: number },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.sec_subject_uid, { frozenSubjectOk: true });
  if (!actor.isManager) throw new PassportError('permissionDenied', { permission: MANAGER_ROLE_KEY });
  await app.db
    .updateTable('subjects')
    .set({ is_frozen: input.is_frozen, updated_at: app.runtime.now() })
    .where('id', '=', actor.subject.id)
    .execute();
  return subjectView({ ...actor.subject, is_frozen: input.is_frozen });
}
