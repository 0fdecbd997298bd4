import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { assertStepUp, invoke } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import type { Database, User } from '../db/schema';
import { newUserRow } from '../domain/accounts/accounts';
import { hasOtherWayIn, identitiesOf, link, linkedUser, touch } from '../domain/oauth/identities';
import {
  dropPendingProfile,
  OAUTH_FLOW_TTL_MS,
  readPendingProfile,
  saveFlow,
  savePendingProfile,
  takeFlow,
} from '../domain/oauth/pending';
import {
  PROVIDERS,
  type Provider,
  type ProviderIdentity,
  type ProviderName,
  providerNameOf,
} from '../domain/oauth/providers';
import { PassportError } from '../errors';
import { recordAccountEvent } from '../events/record';
import { mask } from '../lib/identifiers';
import { rateLimitKey } from '../lib/ip';
import { safeRedirect } from '../lib/redirect';
import {
  linkThirdParty,
  switchThirdParty as switchThirdPartyOperation,
  unlinkThirdParty,
} from '../operations/account/third-party';
import { codeSignIn } from './code-sign-in';
import { completeSignIn } from './complete-sign-in';

/**
 * Third-party sign-in with GitHub and Google (issue 14 part 1, docs/third-party-sign-in.md): the
 * redirect, the code exchange on the callback page, sign-in by a linked identity, the pending profile
 * of an unlinked one (link by signing in with a code, or create an account), and linking, unlinking
 * and switching while signed in.
 */

/** The configured provider named by platform_app_id, or OAUTH_PROVIDER_NOT_CONFIGURED. */
function providerOf(app: FastifyInstance, platformAppId: unknown): Provider {
  const name = providerNameOf(platformAppId as string);
  const provider = name ? app.oauthProviders[name] : undefined;
  if (!provider) throw new PassportError('oauthNotConfigured');
  return provider;
}

export const configuredProviders = (app: FastifyInstance): ProviderName[] =>
  PROVIDERS.filter((name) => app.oauthProviders[name] !== undefined);

/** Third-party sign-ins one address may start in 10 minutes (each keeps its flow that long). */
export const OAUTH_STARTS_PER_IP = 60;

const randomSecret = () => randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');

/**
 * The third-party login redirect (spec §2): keeps state, a PKCE verifier and (Google) a nonce for this
 * browser and answers the provider's address to send it to. The callback is the web app's
 * `<provider>-oauth-callback`; with `use_local_host` (GitHub only, one callback URL per app) it is
 * `github-oauth-twice-redirect`, which relays to the allow-listed loopback origin of `next`.
 */
export async function startThirdParty(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  query: {
    platform_app_id: string | number;
    next?: string | undefined;
    action?: string | undefined;
    use_local_host?: number | boolean | undefined;
    subject_aid?: string | number | undefined;
  },
) {
  const provider = providerOf(app, query.platform_app_id);
  // Each start keeps a flow in the store for 10 minutes: a cap per address keeps a flood from filling it.
  const starts = await app.store.incr(`oauth:start:${rateLimitKey(request.ip)}`, OAUTH_FLOW_TTL_MS);
  if (starts > OAUTH_STARTS_PER_IP) throw new PassportError('rateLimited');
  const { publicOrigin, allowedOrigins, oauth } = app.config;
  const next = safeRedirect(query.next, publicOrigin, [...allowedOrigins, ...oauth.devOrigins]);
  let redirectUri = `${publicOrigin}/${provider.name}-oauth-callback`;
  if (query.use_local_host === 1 || query.use_local_host === true) {
    const relay = /^https?:\/\//.test(next) ? new URL(next).origin : '';
    if (provider.name !== 'github' || !oauth.devOrigins.includes(relay)) {
      throw new PassportError('redirectNotAllowed');
    }
    redirectUri = `${publicOrigin}/github-oauth-twice-redirect?relay=${encodeURIComponent(relay)}`;
  }
  const checks = {
    state: randomSecret(),
    codeVerifier: randomSecret() + randomSecret(),
    ...(provider.name === 'google' ? { nonce: randomSecret() } : {}),
  };
  const action = query.action === 'bind' || query.action === 'switch_bind' ? query.action : 'login';
  const target = await provider.authorizationUrl(checks, redirectUri);
  // Organisation mode: the sign-in at the callback lands in the person's identity in that organisation.
  const subject =
    query.subject_aid === undefined || query.subject_aid === '' ? {} : { subject: String(query.subject_aid) };
  await saveFlow(app, request, reply, {
    ...checks,
    provider: provider.name,
    redirectUri,
    next,
    action,
    ...subject,
  });
  return target.href;
}

interface CodeInput {
  platform_app_id: string | number;
  code?: string | undefined;
  state?: string | undefined;
  iss?: string | undefined;
}

/**
 * The code exchange: the state must be one this browser started (once), then the library checks the
 * callback, sends the PKCE verifier, verifies the ID token and its nonce (Google) and the profile is read.
 */
async function exchange(app: FastifyInstance, request: FastifyRequest, input: CodeInput) {
  const provider = providerOf(app, input.platform_app_id);
  if (!input.code) throw new PassportError('invalidParam', { field: 'code' });
  const flow = await takeFlow(app, request, input.state ?? '', provider.name);
  const callback = new URL(flow.redirectUri);
  callback.searchParams.set('code', input.code);
  callback.searchParams.set('state', input.state ?? '');
  if (input.iss) callback.searchParams.set('iss', input.iss);
  try {
    return { identity: await provider.exchange(callback, flow), flow };
  } catch (error) {
    if (error instanceof PassportError) throw error;
    request.log.info({ err: error, provider: provider.name }, 'third-party code exchange refused');
    throw new PassportError('oauthExchangeFailed');
  }
}

/** Records, through the transaction of the change, that the account linked its identity of a provider. */
const recordLinked = (
  app: FastifyInstance,
  request: FastifyRequest,
  tx: Kysely<Database>,
  userId: string,
  provider: string,
) =>
  recordAccountEvent(app, request, tx, {
    type: 'account.third_party_linked',
    userId,
    data: { provider },
  });

/** The pending profile as the client sees it. */
const profileView = (identity: ProviderIdentity) => ({
  platform: identity.provider,
  name: identity.name ?? '',
  avatar_url: identity.avatarUrl ?? '',
  email: identity.email && identity.emailVerified ? mask(identity.email) : '',
  email_verified: identity.emailVerified,
});

/** The account a verified provider e-mail names, if any (an unverified one names nothing). */
const accountOfEmail = (app: FastifyInstance, identity: ProviderIdentity) =>
  identity.email && identity.emailVerified
    ? app.accounts.find({ kind: 'email', value: identity.email })
    : Promise.resolve(undefined);

/**
 * Signs in the account of a linked identity, like any other sign-in (frozen, second verification);
 * into its identity in `subject` when the redirect named an organisation.
 */
async function signInLinked(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  identity: ProviderIdentity,
  subject: string | undefined,
) {
  await touch(app, identity.provider, identity.subject);
  return completeSignIn(app, request, reply, user, { newUser: false, proof: 'thirdParty', subject });
}

/**
 * Creates an account for an identity and links it. A verified provider e-mail that belongs to an
 * account is refused (OAUTH_ACCOUNT_EXISTS: sign in to link it), never linked silently; a free one
 * becomes the new account's e-mail. An unverified e-mail is neither used nor stored on the account.
 */
async function createFor(
  app: FastifyInstance,
  request: FastifyRequest,
  identity: ProviderIdentity,
  profileKey?: string,
) {
  if (await accountOfEmail(app, identity)) {
    throw new PassportError('oauthAccountExists', profileKey ? { profile_key: profileKey } : {});
  }
  const name = identity.name?.trim().slice(0, 40);
  const verifiedEmail = identity.email && identity.emailVerified ? identity.email : null;
  for (const check of app.accounts.guards)
    await check(verifiedEmail ? { kind: 'email', value: verifiedEmail } : null, app.db);
  const user = newUserRow(app.runtime.now(), {
    email: identity.email && identity.emailVerified ? identity.email : null,
    ...(name ? { screen_name: name } : {}),
  });
  await app.db
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('users').values(user).execute();
      await trx
        .insertInto('linked_identities')
        .values({
          id: randomUUID(),
          user_id: user.id,
          provider: identity.provider,
          subject: identity.subject,
          email: identity.email,
          email_verified: identity.emailVerified ? 1 : 0,
          name: identity.name,
          avatar_url: identity.avatarUrl,
          created_at: user.created_at,
          last_used_at: user.created_at,
        })
        .execute();
      // The account, its link and the link's event commit together.
      await recordLinked(app, request, trx, user.id, identity.provider);
    })
    .catch((error: unknown) => {
      const code = (error as { code?: string }).code;
      if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE')
        throw new PassportError('oauthLinkedElsewhere');
      throw error;
    });
  return user;
}

/**
 * auth/login_only and auth/login with a code: a linked identity signs in; an unlinked one answers
 * OAUTH_NOT_LINKED with a profile_key (login_only, the default) or gets an account (auth/login).
 */
export async function thirdPartySignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: CodeInput & { profile_key?: string | undefined },
  create: boolean,
) {
  if (create && input.profile_key && !input.code) {
    const pending = await readPendingProfile(app, request, input.profile_key);
    const user = await createFor(app, request, pending, input.profile_key);
    await dropPendingProfile(app, input.profile_key);
    return completeSignIn(app, request, reply, user, { newUser: true, proof: 'thirdParty' });
  }
  const { identity, flow } = await exchange(app, request, input);
  const user = await linkedUser(app, identity.provider, identity.subject);
  if (user) return signInLinked(app, request, reply, user, identity, flow.subject);
  // An organisation's sign-in needs a member: an identity no account links is nobody's membership, so
  // neither an account nor a pending link is made for it.
  if (flow.subject !== undefined) throw new PassportError('subjectNotFound');
  if (!create) {
    const profileKey = await savePendingProfile(app, request, reply, identity);
    throw new PassportError('oauthNotLinked', {
      profile_key: profileKey,
      ...profileView(identity),
      email_registered: (await accountOfEmail(app, identity)) !== undefined,
    });
  }
  const created = await createFor(app, request, identity);
  return completeSignIn(app, request, reply, created, { newUser: true, proof: 'thirdParty' });
}

/**
 * mobile/bind_login and auth/bind_login: signs in with a code (mobile/bind_login may create the account,
 * like sms_login; auth/bind_login by e-mail only signs in to an existing account) and links the pending
 * profile once the code is proven.
 */
export async function bindLogin(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    profile_key: string;
    mobile?: string | undefined;
    email?: string | undefined;
    code: string;
    type?: number | undefined;
  },
  via: 'mobile' | 'any',
) {
  const pending = await readPendingProfile(app, request, input.profile_key);
  const linkPending = async (user: User) => {
    // The link and its event commit together.
    await app.db.transaction().execute(async (tx) => {
      await link({ db: tx }, user.id, pending, app.runtime.now());
      await recordLinked(app, request, tx, user.id, pending.provider);
    });
    await dropPendingProfile(app, input.profile_key);
  };
  if (input.mobile) {
    return codeSignIn(
      app,
      request,
      reply,
      'sms',
      { to: input.mobile, code: input.code, type: input.type },
      linkPending,
    );
  }
  if (via === 'any' && input.email) {
    return codeSignIn(
      app,
      request,
      reply,
      'email',
      { to: input.email, code: input.code, type: input.type },
      linkPending,
    );
  }
  throw new PassportError('invalidParam', { field: via === 'mobile' ? 'mobile' : 'mobile or email' });
}

/** The provider's identities of the signed-in account, for the account centre. */
async function linkedView(app: FastifyInstance, userId: string) {
  const rows = await identitiesOf(app, userId);
  return rows.map((row) => ({
    platform: row.provider,
    name: row.name ?? '',
    avatar_url: row.avatar_url ?? '',
    email: row.email && Number(row.email_verified) === 1 ? mask(row.email) : '',
    linked_at: Number(row.created_at),
  }));
}

/**
 * Linking, switching and unlinking add or remove a way in: the operations account.third_party.link,
 * .switch and .unlink (src/operations/account/third-party.ts) declare the step-up. It is checked here
 * first, before the provider's code is exchanged, so that the same callback can be sent again once the
 * person has proven it is them (the flow's state is spent only by the exchange); the exchange is this
 * side's, the links and their events the operation's.
 *
 * auth/bind: links the identity of a fresh provider sign-in to the signed-in account. An identity
 * linked to another account is refused (OAUTH_LINKED_ELSEWHERE) whatever unbind_exist says: moving it
 * would take a way in from an account whose owner has not agreed (docs/third-party-sign-in.md).
 */
export async function bindThirdParty(app: FastifyInstance, request: FastifyRequest, input: CodeInput) {
  const principal = principalOf(request);
  if (principal.kind !== 'person') throw new PassportError('notLoggedIn');
  providerOf(app, input.platform_app_id);
  await assertStepUp(app, app.db, linkThirdParty, principal);
  const { identity } = await exchange(app, request, input);
  return invoke(app, linkThirdParty, { identity }, principal, requestOf(app, request), {
    gate: gateFor(app, request),
  });
}

/**
 * auth/switch_bind: replaces the signed-in account's identity of a provider with the one just signed
 * in at the provider; the same refusal as auth/bind for an identity linked elsewhere.
 */
export async function switchThirdParty(app: FastifyInstance, request: FastifyRequest, input: CodeInput) {
  const principal = principalOf(request);
  if (principal.kind !== 'person') throw new PassportError('notLoggedIn');
  const provider = providerOf(app, input.platform_app_id);
  const current = (await identitiesOf(app, principal.user.id)).find((row) => row.provider === provider.name);
  if (!current) throw new PassportError('oauthNotBound');
  await assertStepUp(app, app.db, switchThirdPartyOperation, principal);
  const { identity } = await exchange(app, request, input);
  return invoke(app, switchThirdPartyOperation, { identity }, principal, requestOf(app, request), {
    gate: gateFor(app, request),
  });
}

/** auth/unbind: refused when it is the last way into the account. */
export async function unbindThirdParty(
  app: FastifyInstance,
  request: FastifyRequest,
  platformAppId: unknown,
) {
  const principal = principalOf(request);
  if (principal.kind !== 'person') throw new PassportError('notLoggedIn');
  const name = providerNameOf(platformAppId as string);
  if (!name) throw new PassportError('oauthNotBound');
  // The refusals a stale session hears before the step-up (the operation checks them again, in its
  // transaction).
  const linked = (await identitiesOf(app, principal.user.id)).some((row) => row.provider === name);
  if (!linked) throw new PassportError('oauthNotBound');
  if (!(await hasOtherWayIn(app, principal.user, name))) throw new PassportError('oauthLastWayIn');
  return invoke(app, unlinkThirdParty, { provider: name }, principal, requestOf(app, request), {
    gate: gateFor(app, request),
  });
}

/** The configured providers, and the signed-in account's linked identities. */
export async function thirdPartyAccounts(app: FastifyInstance, request: FastifyRequest) {
  const providers = configuredProviders(app);
  if (!request.session) return { providers, linked: [], can_unbind: {} };
  const { user } = request.session;
  const linked = await linkedView(app, user.id);
  const can_unbind: Record<string, boolean> = {};
  for (const row of linked)
    can_unbind[row.platform] = await hasOtherWayIn(app, user, row.platform as ProviderName);
  return { providers, linked, can_unbind };
}

/** get/oauth_profile: the pending profile of a profile_key, in the browser that signed in. */
export async function oauthProfile(app: FastifyInstance, request: FastifyRequest, profileKey: string) {
  return profileView(await readPendingProfile(app, request, profileKey));
}

/**
 * show_oauth_mobile: whether the pending profile's verified e-mail belongs to an account and that
 * account's masked mobile, so the "link or create" screen can say where a sign-in code would go. Only
 * the browser that signed in at the provider (which proved the e-mail there) can ask.
 */
export async function showOauthMobile(app: FastifyInstance, request: FastifyRequest, profileKey: string) {
  const pending = await readPendingProfile(app, request, profileKey);
  const user = await accountOfEmail(app, pending);
  return { email_registered: user !== undefined, mobile: user?.mobile ? mask(user.mobile) : '' };
}
