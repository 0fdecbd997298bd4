import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import { newUserRow } from '../domain/accounts/accounts';
import { connectionOf } from '../domain/enterprise/connections';
import { domainOfEmail, verifiedOwner } from '../domain/enterprise/domains';
import {
  authorizationUrl,
  exchangeCode,
  type IdpIdentity,
  linkOf,
  providerOf,
  type SsoFlow,
} from '../domain/enterprise/sso-sign-in';
import { browserOf, presentedBrowser } from '../domain/oauth/pending';
import { PassportError } from '../errors';
import { randomToken, sha256 } from '../lib/crypto';
import { rateLimitKey } from '../lib/ip';
import { safeRedirect } from '../lib/redirect';
import { ssoSignIn } from '../operations/sign-in/enterprise-sso';
import { admitSignIn, signInThrough } from './complete-sign-in';

/**
 * The request's side of signing in through an organisation's OpenID Connect connection
 * (docs/enterprise-sso.md): home-realm discovery by the work e-mail's verified domain, the redirect
 * with state, nonce and PKCE kept in the store for the browser that started, and the callback page's
 * exchange, which takes that flow once, lets openid-client verify the ID token, and hands the person to
 * the `account.sign_in.enterprise_sso` operation.
 */

/** How long a started sign-in waits for its callback. */
export const SSO_FLOW_TTL_MS = 10 * 60_000;
/** Sign-ins one address may start in that time (each keeps its flow in the store that long). */
export const SSO_STARTS_PER_IP = 60;

/** The store key of a flow: its state and the browser's binding, so a state in another browser is nothing. */
const flowKey = (browser: string, state: string) => `sso:flow:${sha256(`${browser}:${state}`)}`;

/** The page the provider sends the browser back to (register it at the provider). */
export const ssoCallbackUrl = (publicOrigin: string) => `${publicOrigin}/enterprise-sso-callback`;

/**
 * enterprise_sso/start: the organisation that verified the work e-mail's domain and has a connection
 * sends the browser to its provider; any other address is SSO_NOT_AVAILABLE (the same answer whether
 * nobody verified the domain or its organisation has no connection).
 */
export async function startEnterpriseSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { email: string; next?: string | undefined },
) {
  const email = input.email.trim().toLowerCase();
  const domain = domainOfEmail(email);
  if (!domain) throw new PassportError('invalidParam', { field: 'email' });
  const starts = await app.store.incr(`sso:start:${rateLimitKey(request.ip)}`, SSO_FLOW_TTL_MS);
  if (starts > SSO_STARTS_PER_IP) throw new PassportError('rateLimited');
  const owner = await verifiedOwner(app.db, domain);
  const connection = owner && (await connectionOf(app.db, owner.subject_id));
  if (!connection) throw new PassportError('ssoNotAvailable');
  const { publicOrigin, allowedOrigins } = app.config;
  const flow: SsoFlow = {
    subjectId: connection.subject_id,
    issuer: connection.issuer,
    state: randomToken(),
    nonce: randomToken(),
    codeVerifier: randomToken(48),
    redirectUri: ssoCallbackUrl(publicOrigin),
    next: safeRedirect(input.next, publicOrigin, allowedOrigins),
  };
  const provider = await providerOf(connection, app.secret, publicOrigin);
  const target = await authorizationUrl(provider, flow, email);
  const browser = browserOf(app, request, reply);
  await app.store.set(flowKey(browser, flow.state), JSON.stringify(flow), SSO_FLOW_TTL_MS);
  return { authorize_url: target.href };
}

/** The flow this browser started with `state`, taken once; SSO_STATE_MISMATCH for anything else. */
async function takeFlow(app: FastifyInstance, request: FastifyRequest, state: string): Promise<SsoFlow> {
  const browser = presentedBrowser(app, request);
  const raw = browser && state ? await app.store.take(flowKey(browser, state)) : null;
  if (!raw) throw new PassportError('ssoStateMismatch');
  return JSON.parse(raw) as SsoFlow;
}

/**
 * The account a verified provider identity signs in to: the one its person is linked to in the
 * organisation, else the account of its e-mail (the operation checks that the e-mail is verified and
 * in the organisation's verified domains before it links), else a new account's row.
 */
async function accountFor(
  app: FastifyInstance,
  flow: SsoFlow,
  identity: IdpIdentity & { email: string },
): Promise<{ user: User; newUser: boolean }> {
  const link = await linkOf(app.db, flow.subjectId, flow.issuer, identity.subject);
  const linked =
    link && (await app.db.selectFrom('users').selectAll().where('id', '=', link.user_id).executeTakeFirst());
  if (linked) return { user: linked, newUser: false };
  const existing = await app.accounts.find({ kind: 'email', value: identity.email });
  if (existing) return { user: existing, newUser: false };
  // Only an address of the organisation's verified domains gets an account (the operation checks again).
  const domain = domainOfEmail(identity.email);
  const owner = domain ? await verifiedOwner(app.db, domain) : undefined;
  if (owner?.subject_id !== flow.subjectId) throw new PassportError('ssoEmailOutsideDomain');
  for (const check of app.accounts.guards) await check({ kind: 'email', value: identity.email }, app.db);
  const name = identity.name?.trim().slice(0, 40);
  const user = newUserRow(app.runtime.now(), {
    email: identity.email,
    ...(name ? { screen_name: name } : {}),
  });
  return { user, newUser: true };
}

/**
 * enterprise_sso/login, from the callback page: the flow taken once, the code exchanged and the ID
 * token verified by openid-client, the e-mail rule, then the sign-in operation. Answers the account
 * and the `next` the sign-in started with.
 */
export async function finishEnterpriseSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { code: string; state: string; iss?: string | undefined },
) {
  const flow = await takeFlow(app, request, input.state);
  const connection = await connectionOf(app.db, flow.subjectId);
  // The connection was removed or repointed while the person was at the provider.
  if (!connection || connection.issuer !== flow.issuer) throw new PassportError('ssoNotAvailable');
  const provider = await providerOf(connection, app.secret, app.config.publicOrigin);
  const callback = new URL(flow.redirectUri);
  callback.searchParams.set('code', input.code);
  callback.searchParams.set('state', input.state);
  if (input.iss) callback.searchParams.set('iss', input.iss);
  let identity: IdpIdentity;
  try {
    identity = await exchangeCode(provider, callback, flow);
  } catch (error) {
    request.log.info({ err: error, subject: flow.subjectId }, 'enterprise sign-in: the exchange was refused');
    throw new PassportError('ssoProviderFailed');
  }
  const { email } = identity;
  if (!email || !identity.emailVerified) throw new PassportError('ssoEmailNotVerified');
  const { user, newUser } = await accountFor(app, flow, { ...identity, email });
  const principal = await admitSignIn(app, request, user, { newUser, proof: 'enterpriseSso' });
  const account = await signInThrough(
    app,
    request,
    reply,
    ssoSignIn,
    {
      subjectId: flow.subjectId,
      issuer: flow.issuer,
      idpSubject: identity.subject,
      email,
      emailVerified: identity.emailVerified,
      name: identity.name,
      claims: identity.claims,
    },
    principal,
  );
  return { ...account, next: flow.next };
}
