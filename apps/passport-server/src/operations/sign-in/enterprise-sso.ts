import { type Static, Type } from 'typebox';
import { connectionOf } from '../../domain/enterprise/connections';
import { domainOfEmail, isUniqueViolation, verifiedOwner } from '../../domain/enterprise/domains';
import { linkOf, policyOf, rolesFor } from '../../domain/enterprise/sso-sign-in';
import { rolesOfKeys } from '../../domain/organisations/invitations';
import { acceptMembership, awaitingMembership } from '../../domain/scim/acceptance';
import { PassportError } from '../../errors';
import type { EventData, EventType } from '../../events/catalogue';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { SignedIn, signInWithin } from './sign-in';

/**
 * A sign-in through an organisation's connection, OpenID Connect or SAML 2.0 (docs/enterprise-sso.md).
 * The adapter (src/flows/enterprise-sign-in.ts) took the flow's one-time state, had openid-client
 * verify the ID token or node-saml the assertion, and chose the account: the one the provider's person
 * is linked to, else the account of the verified e-mail, else a new one (its row, not stored yet). In
 * one transaction the operation checks the e-mail rule again, stores the new account and the link,
 * makes the membership of a first sign-in with the roles of the organisation's rules, and signs in to
 * that identity.
 */

/**
 * Another first sign-in of the same person or e-mail committed the account, the link or the
 * membership first (a unique key refused ours): the adapter chooses the account again and retries.
 */
export class SsoSignInRaced extends Error {
  constructor(cause: unknown) {
    super('a concurrent first sign-in committed first', { cause });
  }
}

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

export const SsoSignInInput = Type.Object({
  subjectId: Type.String(),
  issuer: Type.String(),
  idpSubject: Type.String(),
  email: Type.String(),
  emailVerified: Type.Boolean(),
  name: Type.Union([Type.String(), Type.Null()]),
  claims: Type.Record(Type.String(), Type.Unknown()),
});

/** An event of the organisation about the person signing in, caused by them. */
function emitForMember<T extends EventType>(
  ctx: PersonContext,
  subjectId: string,
  type: T,
  data: EventData<T>,
) {
  const userId = ctx.caller.user.id;
  ctx.emit({
    type,
    stream: `subject:${subjectId}`,
    actor: { kind: 'person', userId },
    subjectId,
    targetUserId: userId,
    data,
  });
}

/** A new member's name: the provider's name for them, else the e-mail's local part. */
const memberName = (name: string | null, email: string) =>
  (name?.trim() || email.split('@')[0]!).slice(0, 32);

export const ssoSignIn = defineOperation({
  name: 'account.sign_in.enterprise_sso',
  input: SsoSignInInput,
  output: SignedIn,
  caller: caller.person,
  emits: [
    'account.signed_in',
    'organisation.sso_identity.linked',
    'organisation.member.provisioned',
    'organisation.scim_user.accepted',
  ],
  async run(ctx, input) {
    // Never by an unverified e-mail, and only within a domain this organisation has verified.
    if (!input.emailVerified) throw new PassportError('ssoEmailNotVerified');
    const connection = await connectionOf(ctx.tx, input.subjectId);
    if (!connection || connection.issuer !== input.issuer) throw new PassportError('ssoNotAvailable');
    const domain = domainOfEmail(input.email);
    const owner = domain ? await verifiedOwner(ctx.tx, domain) : undefined;
    if (owner?.subject_id !== input.subjectId) throw new PassportError('ssoEmailOutsideDomain');
    const subject = await ctx.tx
      .selectFrom('subjects')
      .select('is_frozen')
      .where('id', '=', input.subjectId)
      .executeTakeFirstOrThrow();
    if (Number(subject.is_frozen) === 1) throw new PassportError('subjectFrozen');

    try {
      return await linkAndSignIn(ctx, input);
    } catch (error) {
      if (isUniqueViolation(error)) throw new SsoSignInRaced(error);
      throw error;
    }
  },
});

/** Stores the new account and the link, makes a first sign-in's membership, signs in to it. */
async function linkAndSignIn(ctx: PersonContext, input: Static<typeof SsoSignInInput>) {
  const { user, signIn } = ctx.caller;
  const now = ctx.now();
  // The account guards run through this transaction: the waitlist's admission is spent with the
  // account, or not at all. An account of the e-mail made meanwhile: choose again.
  if (signIn?.newUser && !(await ctx.accounts.insert(user))) throw new SsoSignInRaced(null);
  const link = await linkOf(ctx.tx, input.subjectId, input.issuer, input.idpSubject);
  // Linked meanwhile to another account (a first sign-in racing this one): choose again.
  if (link && link.user_id !== user.id) throw new SsoSignInRaced(null);
  if (link)
    await ctx.tx
      .updateTable('organisation_sso_identities')
      .set({ last_used_at: now })
      .where('id', '=', link.id)
      .execute();
  else {
    await ctx.tx
      .insertInto('organisation_sso_identities')
      .values({
        id: ctx.newId(),
        subject_id: input.subjectId,
        issuer: input.issuer,
        idp_subject: input.idpSubject,
        user_id: user.id,
        created_at: now,
        last_used_at: now,
      })
      .execute();
    emitForMember(ctx, input.subjectId, 'organisation.sso_identity.linked', {
      issuer: input.issuer,
      newAccount: signIn?.newUser === true,
    });
  }

  // A membership SCIM provisioned for this account waits for the person: this sign-in through the
  // organisation's own connection proves them, and accepts it.
  const awaiting = await awaitingMembership(ctx.tx, input.subjectId, user.id);
  if (awaiting && (await acceptMembership(ctx.tx, awaiting, now)))
    emitForMember(ctx, input.subjectId, 'organisation.scim_user.accepted', {
      scimId: awaiting.scimId,
      memberId: awaiting.memberId,
      proof: 'enterpriseSso',
    });
  let member = await ctx.tx
    .selectFrom('deputies')
    .select(['id', 'is_frozen'])
    .where('subject_id', '=', input.subjectId)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (member && Number(member.is_frozen) === 1) throw new PassportError('memberFrozen');
  if (!member) {
    const policy = await policyOf(ctx.tx, input.subjectId);
    // Turned off, only the organisation's members (its console's, or its provider's over SCIM) come in.
    if (!policy.jit) throw new PassportError('ssoJitDisabled');
    // Just-in-time membership: the roles of the organisation's rules, as they are now (a rule naming
    // a role since removed gives nothing).
    const roles = await rolesOfKeys(ctx.tx, input.subjectId, rolesFor(policy, input.claims));
    member = { id: ctx.newId(), is_frozen: 0 };
    await ctx.tx
      .insertInto('deputies')
      .values({
        id: member.id,
        subject_id: input.subjectId,
        user_id: user.id,
        deputy_name: memberName(input.name, input.email),
        is_manager: 0,
        is_frozen: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const role of roles)
      await ctx.tx
        .insertInto('deputy_roles')
        .values({ deputy_id: member.id, role_id: role.id, subject_id: input.subjectId, created_at: now })
        .execute();
    emitForMember(ctx, input.subjectId, 'organisation.member.provisioned', {
      memberId: member.id,
      roleKeys: roles.map((role) => role.role_key),
      issuer: input.issuer,
    });
  }
  return signInWithin(ctx, member.id);
}
