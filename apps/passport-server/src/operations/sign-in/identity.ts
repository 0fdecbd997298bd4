import { type Static, Type } from 'typebox';
import {
  assertMayActAs,
  identityView,
  ownIdentities,
  ownIdentity,
  personalView,
} from '../../domain/organisations/own-identities';
import { PassportError } from '../../errors';
import { PERSONAL_IDENTITY } from '../../protocol';
import { IdentityData, LoginListData, schemas } from '../../schemas/organisations';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { SignedIn, signInWithin } from './sign-in';

/**
 * Signing in as an identity (spec §6, member switch): making an identity active is a sign-in like any
 * other, by the session itself (proof `session`, which keeps the step-up's clock). The old session
 * ends and a new one carries the identity (sessions.deputy_id), with its device and
 * `account.signed_in`, in one transaction; the session check reads the identity with the session.
 * The adapter admits the sign-in before (src/flows/complete-sign-in.ts) and sets the cookies after.
 */

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

/** The identities the signed-in person may act as: the personal one first, then each membership. */
export const listOwnIdentities = defineOperation({
  name: 'account.identity.list',
  input: schemas.subjectLoginList.querystring,
  output: LoginListData,
  caller: caller.person,
  emits: [],
  async run(ctx) {
    const { user } = ctx.caller;
    // The identity the browser's session acts as (the adapter hands over what the browser presented).
    const active = ctx.sessions.current?.deputyId ?? null;
    const rows = await ownIdentities(ctx.tx, user.id);
    return {
      items: [
        personalView(user, active === null),
        ...rows.map((row) => identityView(row, row.id === active)),
      ],
    };
  },
});

/** A sign-in as an identity, or the frozen identity asked for with need_frozen_user=1 (no sign-in). */
const SignedInAsIdentity = Type.Union([
  Type.Object({ signedIn: SignedIn }),
  Type.Object({ frozen: IdentityData }),
]);
type SignedInAsIdentity = Static<typeof SignedInAsIdentity>;

/**
 * Makes an identity of the caller active. '0' is the personal identity. Another person's identity, or
 * one of another subject, is SUBJECT_NOT_FOUND (the same answer as a subject that does not exist). A
 * frozen identity or subject is refused (MEMBER_FROZEN, SUBJECT_FROZEN), or with need_frozen_user=1
 * answered with its frozen state, the session unchanged.
 */
async function signInAs(
  ctx: PersonContext,
  deputyId: string,
  subjectId: string | undefined,
  needFrozenUser: number | undefined,
): Promise<SignedInAsIdentity> {
  if (deputyId === PERSONAL_IDENTITY) return { signedIn: await signInWithin(ctx, null) };
  const row = await ownIdentity(ctx.tx, ctx.caller.user.id, deputyId, subjectId);
  if (!row) throw new PassportError('subjectNotFound');
  const frozen = Number(row.subject_is_frozen) === 1 || Number(row.is_frozen) === 1;
  if (frozen && needFrozenUser === 1) return { frozen: identityView(row, false) };
  await assertMayActAs(ctx.tx, row, ctx.caller.factorClock);
  return { signedIn: await signInWithin(ctx, row.id) };
}

/** subject/login: the identity in the subject named. */
export const signInAsIdentity = defineOperation({
  name: 'account.identity.sign_in',
  input: schemas.subjectLogin.body,
  output: SignedInAsIdentity,
  caller: caller.person,
  emits: ['account.signed_in'],
  run: (ctx, input) =>
    signInAs(
      ctx,
      input.user_identity_id,
      input.user_identity_id === PERSONAL_IDENTITY ? undefined : input.login_subject_uid,
      input.need_frozen_user,
    ),
});

/** member/switch: another identity of the caller, in whatever subject. */
export const switchIdentity = defineOperation({
  name: 'account.identity.switch',
  input: schemas.memberSwitch.body,
  output: SignedInAsIdentity,
  caller: caller.person,
  emits: ['account.signed_in'],
  run: (ctx, input) => signInAs(ctx, input.to_sec_member_id, undefined, input.need_frozen_user),
});

/**
 * Logout in organisation mode (`subject_aid`, docs/organisations.md): a session acting as the person's
 * identity in that organisation goes back to the personal identity, a sign-in by the session itself as
 * a switch to '0' is. A session acting for anything else (the personal identity, another organisation,
 * an id that names none) is left as it is (`signedIn: null`). The identity is read in the transaction
 * that switches, so what is judged is what is left.
 */
export const leaveOrganisationIdentity = defineOperation({
  name: 'account.identity.leave',
  input: Type.Object({ subject_uid: Type.String({ minLength: 1, maxLength: 64 }) }),
  output: Type.Object({ signedIn: Type.Union([SignedIn, Type.Null()]) }),
  caller: caller.person,
  emits: ['account.signed_in'],
  async run(ctx, input) {
    const deputyId = ctx.sessions.current?.deputyId;
    const acting = deputyId && (await ownIdentity(ctx.tx, ctx.caller.user.id, deputyId, input.subject_uid));
    return { signedIn: acting ? await signInWithin(ctx, null) : null };
  },
});
