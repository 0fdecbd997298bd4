import { type Static, Type } from 'typebox';
import { hasOtherWayIn, identitiesOf, link, unlink } from '../../domain/oauth/identities';
import { PROVIDERS, type ProviderName } from '../../domain/oauth/providers';
import { PassportError } from '../../errors';
import { mask } from '../../lib/identifiers';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { emitForAccount } from './emit';

/**
 * Linking, switching and unlinking a third-party sign-in (docs/third-party-sign-in.md). The OAuth
 * redirect and the code exchange stay on the request's side (src/flows/third-party.ts: the flow's state
 * is this browser's, the provider is called over the network); these take the identity it proved and
 * change the links and their events in one transaction. Each adds or removes a way in: a step-up.
 */

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

const Provider = Type.Unsafe<ProviderName>(Type.Union(PROVIDERS.map((name) => Type.Literal(name))));

/** The identity a provider sign-in proved (never on the wire: the request's side makes it). */
const Identity = Type.Object({
  provider: Provider,
  subject: Type.String({ minLength: 1 }),
  email: Type.Union([Type.String(), Type.Null()]),
  emailVerified: Type.Boolean(),
  name: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
});

const LinkedView = Type.Object({
  platform: Type.String(),
  name: Type.String(),
  avatar_url: Type.String(),
  email: Type.String(),
  linked_at: Type.Integer(),
});
export const Linked = Type.Object({ linked: Type.Array(LinkedView) });

/** The account's linked identities as the account centre shows them (the e-mail masked). */
async function linkedView(ctx: PersonContext): Promise<Static<typeof Linked>> {
  const rows = await identitiesOf({ db: ctx.tx }, ctx.caller.user.id);
  return {
    linked: rows.map((row) => ({
      platform: row.provider,
      name: row.name ?? '',
      avatar_url: row.avatar_url ?? '',
      email: row.email && Number(row.email_verified) === 1 ? mask(row.email) : '',
      linked_at: Number(row.created_at),
    })),
  };
}

/**
 * auth/bind: links the identity to the signed-in account. One linked to another account is refused
 * (OAUTH_LINKED_ELSEWHERE): moving it would take a way in from an account whose owner has not agreed.
 * Linking the same identity again changes nothing and is no event.
 */
export const linkThirdParty = defineOperation({
  name: 'account.third_party.link',
  input: Type.Object({ identity: Identity }),
  output: Linked,
  caller: caller.person,
  stepUp: 'window',
  emits: ['account.third_party_linked'],
  async run(ctx, { identity }) {
    const userId = ctx.caller.user.id;
    const before = await identitiesOf({ db: ctx.tx }, userId);
    await link({ db: ctx.tx }, userId, identity, ctx.now());
    const already = before.some(
      (row) => row.provider === identity.provider && row.subject === identity.subject,
    );
    if (!already) emitForAccount(ctx, 'account.third_party_linked', { provider: identity.provider });
    return linkedView(ctx);
  },
});

/**
 * auth/switch_bind: replaces the account's identity of a provider with the one just proved; the same
 * refusal as link for an identity linked elsewhere. The same identity again changes nothing.
 */
export const switchThirdParty = defineOperation({
  name: 'account.third_party.switch',
  input: Type.Object({ identity: Identity }),
  output: Linked,
  caller: caller.person,
  stepUp: 'window',
  emits: ['account.third_party_linked', 'account.third_party_unlinked'],
  async run(ctx, { identity }) {
    const userId = ctx.caller.user.id;
    const current = (await identitiesOf({ db: ctx.tx }, userId)).find(
      (row) => row.provider === identity.provider,
    );
    if (!current) throw new PassportError('oauthNotBound');
    if (identity.subject !== current.subject) {
      await unlink({ db: ctx.tx }, userId, identity.provider);
      emitForAccount(ctx, 'account.third_party_unlinked', { provider: identity.provider });
      await link({ db: ctx.tx }, userId, identity, ctx.now());
      emitForAccount(ctx, 'account.third_party_linked', { provider: identity.provider });
    }
    return linkedView(ctx);
  },
});

/** auth/unbind: refused when it is the last way into the account. */
export const unlinkThirdParty = defineOperation({
  name: 'account.third_party.unlink',
  input: Type.Object({ provider: Provider }),
  output: Linked,
  caller: caller.person,
  stepUp: 'window',
  emits: ['account.third_party_unlinked'],
  async run(ctx, input) {
    const { provider } = input;
    const { user } = ctx.caller;
    const linked = (await identitiesOf({ db: ctx.tx }, user.id)).some((row) => row.provider === provider);
    if (!linked) throw new PassportError('oauthNotBound');
    if (!(await hasOtherWayIn({ db: ctx.tx }, user, provider))) throw new PassportError('oauthLastWayIn');
    await unlink({ db: ctx.tx }, user.id, provider);
    emitForAccount(ctx, 'account.third_party_unlinked', { provider });
    return linkedView(ctx);
  },
});
