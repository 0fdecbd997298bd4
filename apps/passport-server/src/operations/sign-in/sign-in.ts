import { Type } from 'typebox';
import { ssoRequiredDomain } from '../../domain/enterprise/sso-sign-in';
import { assertMayActAs, identityIn } from '../../domain/organisations/own-identities';
import type { OpenedSignIn, SignInProof } from '../../domain/sessions/browser';
import { PassportError } from '../../errors';
import { emitForAccount } from '../account/emit';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';

/**
 * The end of every sign-in (docs/operations.md "Sign-in"). The adapter proves the credential and
 * admits the sign-in before the operation, outside its transaction (src/flows/complete-sign-in.ts):
 * the password's slow hash, the codes and the risk rules, and second verification, which reads the
 * device cookie. The operation writes the sign-in in one transaction, one commit: the browser's old
 * session ends, the new one is stored, the browser is remembered for the account and
 * `account.signed_in` is recorded. The adapter sets the cookies once it has committed.
 */

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

/** The sign-ins that proved a second factor (what an organisation's requirement asks a session for). */
const SECOND_FACTOR_PROOFS: ReadonlySet<SignInProof> = new Set(['passkey', 'totp', 'recoveryCode', 'factor']);

/** The written sign-in, for the adapter to hand its cookies to the browser; never on the wire. */
export const SignedIn = Type.Unsafe<OpenedSignIn & { newUser: boolean }>({
  description: 'the session and device token the adapter sets after the commit (never on the wire)',
});

/**
 * An organisation that requires single sign-on lets its members whose e-mail is in its verified
 * domains into its identity only through its connection: any other sign-in to that identity (a
 * password, a code, a switch by the session, an accepted invitation) is SSO_REQUIRED.
 */
async function assertSsoNotRequired(ctx: PersonContext, identity: string): Promise<void> {
  const member = await ctx.tx
    .selectFrom('deputies')
    .select('subject_id')
    .where('id', '=', identity)
    .executeTakeFirst();
  if (!member) return;
  const domain = await ssoRequiredDomain(ctx.tx, member.subject_id, ctx.caller.user.email);
  if (domain) throw new PassportError('ssoRequired', { domain });
}

/**
 * The person's identity in the organisation a sign-in was asked to land in (`subject_aid` of the
 * third-party redirect, docs/organisations.md): none there is SUBJECT_NOT_FOUND, and it must be one
 * they may act as now. A sign-in that proved a second factor itself meets an organisation's
 * requirement; any other is judged by the session it continues, if any.
 */
async function identityInSubject(ctx: PersonContext, subject: string, proof: SignInProof): Promise<string> {
  const row = await identityIn(ctx.tx, ctx.caller.user.id, subject);
  if (!row) throw new PassportError('subjectNotFound');
  const now = ctx.now();
  const proved = SECOND_FACTOR_PROOFS.has(proof) ? { factorVerifiedAt: now, now, maxAgeMs: 0 } : undefined;
  await assertMayActAs(ctx.tx, row, proved ?? ctx.caller.factorClock);
  return row.id;
}

/**
 * Signs the caller in within the operation's transaction, to `identity` (a deputy id; by default the
 * identity in the organisation the sign-in named, else the personal one). The caller comes with what
 * the adapter proved (`ctx.caller.signIn`).
 */
export async function signInWithin(
  ctx: PersonContext,
  identity: string | null = null,
): Promise<OpenedSignIn & { newUser: boolean }> {
  const { user, signIn } = ctx.caller;
  if (!signIn) throw new Error('a sign-in operation needs the sign-in its adapter proved');
  if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
  if (identity === null && signIn.subject !== undefined)
    identity = await identityInSubject(ctx, signIn.subject, signIn.proof);
  if (identity !== null && signIn.proof !== 'enterpriseSso') await assertSsoNotRequired(ctx, identity);
  // A sign-in by the session itself (accepting an invitation, a switch of identity) proves nothing new:
  // the step-up's clock keeps the session's verification time.
  const opened = await ctx.sessions.open(user.id, {
    deputyId: identity,
    keepVerification: signIn.proof === 'session',
    verifiedAt: signIn.verifiedAt,
    factor: SECOND_FACTOR_PROOFS.has(signIn.proof),
  });
  emitForAccount(ctx, 'account.signed_in', {
    method: signIn.proof,
    newDevice: !(signIn.remembered ?? opened.device.known),
  });
  return { ...opened, newUser: signIn.newUser };
}

/**
 * Signs in the person whose credential the adapter proved (a password, a code, a second verification,
 * a QR confirmation, a third-party account, an accepted invitation), to `identity` when given.
 */
export const signIn = defineOperation({
  name: 'account.sign_in',
  input: Type.Object({ identity: Type.Optional(Type.String()) }),
  output: SignedIn,
  caller: caller.person,
  emits: ['account.signed_in'],
  run: (ctx, input) => signInWithin(ctx, input.identity ?? null),
});
