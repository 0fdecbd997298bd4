import { OrganisationIdParams, UserIdParams } from '@portico/management/protocol';
import type { Static, TSchema } from 'typebox';
import { Type } from 'typebox';
import { PassportError } from '../../errors';
import { type CallerSpec, caller, defineOperation, type Operation } from '../define';
import {
  getOrganisation,
  listAuditEvents,
  listMembers,
  listOrganisations,
} from '../management/organisations';
import {
  freezeUser,
  getUser,
  listLinkedAccounts,
  listUserSessions,
  listUsers,
  resetFactors,
  revokeUserSessions,
  unfreezeUser,
} from '../management/users';
import { KEY_STEP_UP_SECONDS } from './api-keys';

/**
 * The admin console (docs/admin-console.md): an operator (a user id in OPERATOR_USER_IDS) signed in to
 * the web app runs the management API's own operations, with their person as the caller and actor, so
 * a ban from the console and one from a back end are one rule and one event. Every console operation,
 * reads included, needs a fresh step-up: the console shows and changes anyone's account.
 */

/** Seconds since the operator last verified, past which the console asks again (as for a new key). */
export const CONSOLE_STEP_UP_SECONDS = KEY_STEP_UP_SECONDS;

/**
 * A management operation declared for an operator: the same input (or a narrower one a form can
 * send), output, events and run; the management operations read their actor through
 * `management/caller.ts`, which knows both callers.
 */
function forOperator<S extends CallerSpec, I extends TSchema, O extends TSchema, N extends TSchema = I>(
  operation: Operation<S, I, O>,
  input?: N,
): Operation<typeof caller.operator, N, O> {
  return defineOperation({
    name: operation.name.replace(/^management\./, 'operator.console.'),
    input: (input ?? operation.input) as N,
    output: operation.output,
    caller: caller.operator,
    stepUp: CONSOLE_STEP_UP_SECONDS,
    emits: operation.emits,
    run: (ctx, given) => (operation.run as (ctx: unknown, input: unknown) => Promise<Static<O>>)(ctx, given),
  });
}

/** An account's factors and memberships, which the management API does not list: the console's detail. */
const UserOverview = Type.Object({
  factors: Type.Object({
    totp: Type.Boolean(),
    recovery_codes: Type.Integer({ minimum: 0 }),
    passkeys: Type.Integer({ minimum: 0 }),
  }),
  devices: Type.Array(
    Type.Object({
      id: Type.String(),
      first_seen_at: Type.Number(),
      last_seen_at: Type.Number(),
      user_agent: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  organisations: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      member_name: Type.String(),
      manager: Type.Boolean(),
      frozen: Type.Boolean(),
    }),
  ),
});

const userOverview = defineOperation({
  name: 'operator.console.users.overview',
  input: UserIdParams,
  output: UserOverview,
  caller: caller.operator,
  stepUp: CONSOLE_STEP_UP_SECONDS,
  emits: ['account.viewed'],
  async run(ctx, input) {
    const user = await ctx.tx
      .selectFrom('users')
      .select(['id', 'erased_at'])
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!user || user.erased_at !== null) throw new PassportError('accountNotFound');
    const [totp, codes, passkeys, devices, organisations] = await Promise.all([
      ctx.tx
        .selectFrom('totp_factors')
        .select('user_id')
        .where('user_id', '=', user.id)
        .where('confirmed_at', 'is not', null)
        .executeTakeFirst(),
      ctx.tx
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow(),
      ctx.tx
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow(),
      ctx.tx
        .selectFrom('devices')
        .select(['id', 'first_seen_at', 'last_seen_at', 'user_agent'])
        .where('user_id', '=', user.id)
        .orderBy('last_seen_at', 'desc')
        .limit(50)
        .execute(),
      ctx.tx
        .selectFrom('deputies')
        .innerJoin('subjects', 'subjects.id', 'deputies.subject_id')
        .select([
          'subjects.id as id',
          'subjects.name as name',
          'subjects.is_frozen as frozen',
          'deputies.deputy_name as member_name',
          'deputies.is_manager as manager',
        ])
        .where('deputies.user_id', '=', user.id)
        .orderBy('subjects.name')
        .execute(),
    ]);
    ctx.emit({
      type: 'account.viewed',
      stream: `user:${user.id}`,
      actor: { kind: 'person', userId: ctx.caller.user.id },
      targetUserId: user.id,
      data: { call: 'userOverview' },
    });
    return {
      factors: {
        totp: totp !== undefined,
        recovery_codes: Number(codes.count),
        passkeys: Number(passkeys.count),
      },
      devices: devices.map((d) => ({
        id: d.id,
        first_seen_at: Number(d.first_seen_at),
        last_seen_at: Number(d.last_seen_at),
        user_agent: d.user_agent,
      })),
      organisations: organisations.map((o) => ({
        id: o.id,
        name: o.name,
        member_name: o.member_name,
        manager: Number(o.manager) === 1,
        frozen: Number(o.frozen) === 1,
      })),
    };
  },
});

const OrganisationFreeze = Type.Object({
  id: OrganisationIdParams.properties.id,
  /** 1 freezes, 0 thaws (a form's value). */
  is_frozen: Type.Union([Type.Literal(0), Type.Literal(1)]),
});

/**
 * Freezes or thaws an organisation for the deployment: while frozen only its manager can act in it
 * (docs/organisations.md), the same state and events its manager's own freeze sets.
 */
const freezeOrganisation = defineOperation({
  name: 'operator.console.organisations.freeze',
  input: OrganisationFreeze,
  output: Type.Object({ id: Type.String(), frozen: Type.Boolean() }),
  caller: caller.operator,
  stepUp: CONSOLE_STEP_UP_SECONDS,
  emits: ['organisation.frozen', 'organisation.thawed'],
  async run(ctx, input) {
    const subject = await ctx.tx
      .selectFrom('subjects')
      .select(['id', 'name', 'is_frozen'])
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!subject) throw new PassportError('subjectNotFound');
    if (Number(subject.is_frozen) !== input.is_frozen) {
      await ctx.tx
        .updateTable('subjects')
        .set({ is_frozen: input.is_frozen, updated_at: ctx.now() })
        .where('id', '=', subject.id)
        .execute();
      ctx.emit({
        type: input.is_frozen === 1 ? 'organisation.frozen' : 'organisation.thawed',
        stream: `subject:${subject.id}`,
        actor: { kind: 'person', userId: ctx.caller.user.id },
        subjectId: subject.id,
        targetUserId: null,
        data: { name: subject.name },
      });
    }
    return { id: subject.id, frozen: input.is_frozen === 1 };
  },
});

/** The console's operations by capability: the route table (src/routes/web/operator-console.ts) mounts each. */
export const consoleOperations = {
  'users/list': forOperator(listUsers),
  'users/get': forOperator(getUser),
  'users/overview': userOverview,
  'users/sessions': forOperator(listUserSessions),
  'users/linked_accounts': forOperator(listLinkedAccounts),
  'users/freeze': forOperator(freezeUser),
  'users/unfreeze': forOperator(unfreezeUser),
  'users/revoke_sessions': forOperator(revokeUserSessions),
  // A form cannot send the management API's list of factors: the console resets all three.
  'users/reset_factors': forOperator(resetFactors, UserIdParams),
  'organisations/list': forOperator(listOrganisations),
  'organisations/get': forOperator(getOrganisation),
  'organisations/members': forOperator(listMembers),
  'organisations/freeze': freezeOrganisation,
  'audit/list': forOperator(listAuditEvents),
} as const;

export type ConsoleCapability = keyof typeof consoleOperations;
