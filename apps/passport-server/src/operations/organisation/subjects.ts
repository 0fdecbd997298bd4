import type { TSchema } from 'typebox';
import type { DeputyRow, SubjectRow } from '../../db/schema';
import { infosOf } from '../../domain/organisations/infos';
import { pageOf } from '../../domain/organisations/organisations';
import { assertSecondFactor } from '../../domain/organisations/second-factor';
import {
  holdAccountNotLeaving,
  insertSubject,
  subjectPage,
  updateSubjectRow,
} from '../../domain/organisations/subjects';
import { subjectView } from '../../domain/organisations/views';
import { PassportError } from '../../errors';
import type { EventData } from '../../events/catalogue';
import { MANAGER_ROLE_KEY } from '../../protocol';
import { SubjectData, SubjectPage, schemas } from '../../schemas/organisations';
import { caller, defineOperation } from '../define';
import { emitInSubject } from './emit';

/**
 * Subjects (organisations): created by a person, who becomes their one manager; listed and read by
 * their members; updated with subject:update; frozen and thawed by the manager alone (the one identity
 * that can still act in a frozen subject).
 */

/** The identifier a create body may name the caller by; the route checks it is the caller's own. */
export type CreateIdentifier = 'username' | 'mobile' | 'email';

const createBodies = {
  username: schemas.createByUsername.body,
  mobile: schemas.createByMobile.body,
  email: schemas.createByEmail.body,
} as const satisfies Record<CreateIdentifier, TSchema>;

/**
 * Creates a subject and its manager (the caller). One capability, declared once per body it is
 * reached by (`subject/create_by_username|mobile|email`): they differ only in the identifier field,
 * which the route checks against the session (with the optional password) before the operation runs.
 */
function createSubjectBy<K extends CreateIdentifier>(kind: K) {
  return defineOperation({
    name: `organisation.create.by_${kind}`,
    input: createBodies[kind],
    output: SubjectData,
    caller: caller.person,
    emits: ['organisation.created'],
    async run(ctx, input) {
      const { user } = ctx.caller;
      if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
      // A manager cannot leave (the cancellation's sole_manager blocker): one who is leaving cannot
      // become one. Checked again, the account row held, inside the transaction.
      if (user.cancel_erase_at !== null) throw new PassportError('cancellationPending');
      const base = infosOf('base_infos', input.base_infos) ?? '{}';
      const detail = infosOf('detail_infos', input.detail_infos) ?? '{}';
      const now = ctx.now();
      const id = ctx.newId();
      const subject: SubjectRow = {
        id,
        name: input.subject_name,
        base_infos: base,
        detail_infos: detail,
        identity_card_sealed: input.identity_card
          ? ctx.realName.seal(id, 'identity_card', input.identity_card)
          : null,
        real_name_sealed: input.real_name ? ctx.realName.seal(id, 'real_name', input.real_name) : null,
        is_frozen: 0,
        require_second_factor: 0,
        created_by: user.id,
        created_at: now,
        updated_at: now,
      };
      const manager: DeputyRow = {
        id: ctx.newId(),
        subject_id: id,
        user_id: user.id,
        deputy_name: input.deputy_name,
        is_manager: 1,
        is_frozen: 0,
        created_at: now,
        updated_at: now,
      };
      await holdAccountNotLeaving(ctx.tx, user.id);
      await insertSubject(ctx.tx, subject, manager);
      ctx.emit({
        type: 'organisation.created',
        stream: `subject:${id}`,
        actor: { kind: 'identity', userId: user.id, subjectId: id, deputyId: manager.id },
        subjectId: id,
        targetUserId: null,
        data: { name: subject.name },
      });
      return subjectView(subject);
    },
  });
}

export const createSubjectByUsername = createSubjectBy('username');
export const createSubjectByMobile = createSubjectBy('mobile');
export const createSubjectByEmail = createSubjectBy('email');

export const listSubjects = defineOperation({
  name: 'organisation.list',
  input: schemas.subjectList.querystring,
  output: SubjectPage,
  caller: caller.person,
  emits: [],
  async run(ctx, input) {
    const { rows, total, limit } = await subjectPage(
      ctx.tx,
      ctx.caller.user.id,
      input.deputy_identity_id,
      input,
    );
    return pageOf(rows.map(subjectView), total, { page: input.page, page_size: limit });
  },
});

export const subjectInfo = defineOperation({
  name: 'organisation.info',
  input: schemas.subjectInfo.querystring,
  output: SubjectData,
  // Any member; a frozen subject is shown to its manager.
  caller: caller.identity(null, { frozenSubjectOk: true }),
  subject: (input) => input.sec_subject_uid,
  emits: [],
  run: async (ctx) => subjectView(ctx.caller.subject),
});

type SubjectField = EventData<'organisation.updated'>['changed'][number];

export const updateSubject = defineOperation({
  name: 'organisation.update',
  input: schemas.subjectUpdate.body,
  output: SubjectData,
  caller: caller.identity('subject:update'),
  subject: (input) => input.sec_subject_uid,
  emits: ['organisation.updated'],
  async run(ctx, input) {
    const id = ctx.caller.subject.id;
    const set = {
      ...(input.subject_name !== undefined && { name: input.subject_name }),
      ...(input.base_infos !== undefined && { base_infos: infosOf('base_infos', input.base_infos) }),
      ...(input.detail_infos !== undefined && { detail_infos: infosOf('detail_infos', input.detail_infos) }),
      ...(input.identity_card !== undefined && {
        identity_card_sealed: ctx.realName.seal(id, 'identity_card', input.identity_card),
      }),
      ...(input.real_name !== undefined && {
        real_name_sealed: ctx.realName.seal(id, 'real_name', input.real_name),
      }),
      updated_at: ctx.now(),
    };
    const subject = await updateSubjectRow(ctx.tx, id, set);
    // The fields sent, by their wire names; real names and details stay out of the event.
    const fields: SubjectField[] = [
      'subject_name',
      'base_infos',
      'detail_infos',
      'identity_card',
      'real_name',
    ];
    const changed = fields.filter((field) => input[field] !== undefined);
    if (changed.length > 0) emitInSubject(ctx, 'organisation.updated', { name: subject.name, changed });
    return subjectView(subject);
  },
});

/**
 * Requires members to use a second factor to act as the organisation's identities, or stops requiring
 * it (subject:update; docs/organisations.md). Turning it on needs the caller's own session to meet it,
 * so nobody locks themselves out of the setting they just changed. Members' sessions are left as they
 * are: the next thing one does as the identity is judged by the rule.
 */
export const setSecondFactorRequired = defineOperation({
  name: 'organisation.second_factor.set',
  input: schemas.subjectSecondFactor.body,
  output: SubjectData,
  caller: caller.identity('subject:update'),
  subject: (input) => input.sec_subject_uid,
  emits: ['organisation.second_factor_changed'],
  async run(ctx, input) {
    const { subject, user } = ctx.caller;
    const required = input.require_second_factor;
    if (Number(subject.require_second_factor) === required) return subjectView(subject);
    const next = await updateSubjectRow(ctx.tx, subject.id, {
      require_second_factor: required,
      updated_at: ctx.now(),
    });
    await assertSecondFactor(ctx.tx, next, user.id, ctx.caller.factorClock);
    emitInSubject(ctx, 'organisation.second_factor_changed', {
      name: subject.name,
      required: required === 1,
    });
    return subjectView(next);
  },
});

export const freezeSubject = defineOperation({
  name: 'organisation.freeze',
  input: schemas.subjectFreeze.body,
  output: SubjectData,
  // The manager alone: the one identity that can still act in it frozen, to thaw it.
  caller: caller.identity(null, { frozenSubjectOk: true }),
  subject: (input) => input.sec_subject_uid,
  emits: ['organisation.frozen', 'organisation.thawed'],
  async run(ctx, input) {
    const { subject, isManager } = ctx.caller;
    if (!isManager) throw new PassportError('permissionDenied', { permission: MANAGER_ROLE_KEY });
    const next = await updateSubjectRow(ctx.tx, subject.id, {
      is_frozen: input.is_frozen,
      updated_at: ctx.now(),
    });
    if (Number(next.is_frozen) !== Number(subject.is_frozen))
      emitInSubject(ctx, input.is_frozen === 1 ? 'organisation.frozen' : 'organisation.thawed', {
        name: subject.name,
      });
    return subjectView(next);
  },
});
