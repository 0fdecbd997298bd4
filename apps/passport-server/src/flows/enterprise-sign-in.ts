import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import { newUserRow } from '../domain/accounts/accounts';
import { connectionOf } from '../domain/enterprise/connections';
import { domainOfEmail, verifiedOwner } from '../domain/enterprise/domains';
import { type SamlFlow, samlAuthorizeUrl, samlSpOf, verifySamlResponse } from '../domain/enterprise/saml';
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
import { SsoSignInRaced, ssoSignIn } from '../operations/sign-in/enterprise-sso';
import { admitSignIn, signInThrough } from './complete-sign-in';

/**
 * The request's side of signing in through an organisation's connection (docs/enterprise-sso.md):
 * home-realm discovery by the work e-mail's verified domain, the redirect with its one-time secrets
 * kept in the store for the browser that started (OIDC: state, nonce and PKCE; SAML: the RelayState
 * and the AuthnRequest's id), and the callback page's call, which takes that flow once, lets
 * openid-client verify the ID token or node-saml the assertion, and hands the person to the
 * `account.sign_in.enterprise_sso` operation: one completion for both protocols.
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
  const next = safeRedirect(input.next, publicOrigin, allowedOrigins);
  if (connection.protocol === 'saml') {
    // The RelayState is the flow's key: the identity provider posts it back with the response.
    const relayState = randomToken();
    const issuedAt = app.runtime.now();
    const sp = samlSpOf(publicOrigin, connection.subject_id);
    const { url, requestId } = await samlAuthorizeUrl(connection, sp, relayState, issuedAt);
    const flow: SamlFlow = {
      subjectId: connection.subject_id,
      issuer: connection.issuer,
      requestId,
      issuedAt,
      next,
    };
    await app.store.set(
      flowKey(browserOf(app, request, reply), relayState),
      JSON.stringify(flow),
      SSO_FLOW_TTL_MS,
    );
    return { authorize_url: url };
  }
  const flow: SsoFlow = {
    subjectId: connection.subject_id,
    issuer: connection.issuer,
    state: randomToken(),
    nonce: randomToken(),
    codeVerifier: randomToken(48),
    redirectUri: ssoCallbackUrl(publicOrigin),
    next,
  };
  const provider = await providerOf(connection, app.secret, publicOrigin);
  const target = await authorizationUrl(provider, flow, email);
  const browser = browserOf(app, request, reply);
  await app.store.set(flowKey(browser, flow.state), JSON.stringify(flow), SSO_FLOW_TTL_MS);
  return { authorize_url: target.href };
}

/** The flow this browser started with `state`, taken once; SSO_STATE_MISMATCH for anything else. */
async function takeFlow(
  app: FastifyInstance,
  request: FastifyRequest,
  state: string | undefined,
): Promise<SsoFlow | SamlFlow> {
  const browser = presentedBrowser(app, request);
  const raw = browser && state ? await app.store.take(flowKey(browser, state)) : null;
  if (!raw) throw new PassportError('ssoStateMismatch');
  return JSON.parse(raw) as SsoFlow | SamlFlow;
}

/** The started sign-in a flow is, for the completion: its organisation, its provider, where to go. */
type Started = Pick<SsoFlow, 'subjectId' | 'issuer' | 'next'>;

/**
 * The account a verified provider identity signs in to: the one its person is linked to in the
 * organisation, else the account of its e-mail (the operation checks that the e-mail is verified and
 * in the organisation's verified domains before it links), else a new account's row (the operation
 * stores it after the account guards, through its transaction).
 */
async function accountFor(
  app: FastifyInstance,
  flow: Started,
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
  const name = identity.name?.trim().slice(0, 40);
  const user = newUserRow(app.runtime.now(), {
    email: identity.email,
    ...(name ? { screen_name: name } : {}),
  });
  return { user, newUser: true };
}

/** How long the assertion consumer service keeps a posted response for the callback page. */
const SAML_POSTED_TTL_MS = 5 * 60_000;
const postedKey = (handle: string) => `sso:saml:posted:${sha256(handle)}`;
const assertionKey = (issuer: string, id: string) => `sso:saml:assertion:${sha256(`${issuer}\n${id}`)}`;

/**
 * enterprise_sso/saml_acs: the identity provider's page posts the response here (HTTP-POST binding),
 * from its own site, so the browser's SameSite cookies do not come along. The response is kept once
 * under a fresh handle, unread, and the browser goes on to the callback page, whose call (with the
 * cookies) takes it: the flow is bound to the browser there, as OpenID Connect's is.
 */
export async function receiveSamlResponse(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { SAMLResponse: string; RelayState?: string | undefined },
) {
  const posts = await app.store.incr(`sso:acs:${rateLimitKey(request.ip)}`, SSO_FLOW_TTL_MS);
  if (posts > SSO_STARTS_PER_IP) throw new PassportError('rateLimited');
  const handle = randomToken();
  const posted = JSON.stringify({ response: input.SAMLResponse, relayState: input.RelayState ?? '' });
  await app.store.set(postedKey(handle), posted, SAML_POSTED_TTL_MS);
  const callback = new URL(ssoCallbackUrl(app.config.publicOrigin));
  callback.searchParams.set('saml', handle);
  await reply.redirect(callback.href, 303);
  return undefined;
}

/**
 * The SAML side of enterprise_sso/login: the posted response taken once, the flow of its RelayState
 * taken once in this browser, the assertion verified for that flow's AuthnRequest, its id kept until
 * it expires so it never signs in twice.
 */
async function verifiedSamlPerson(app: FastifyInstance, request: FastifyRequest, handle: string) {
  const raw = await app.store.take(postedKey(handle));
  if (!raw) throw new PassportError('ssoStateMismatch');
  const posted = JSON.parse(raw) as { response: string; relayState: string };
  const flow = await takeFlow(app, request, posted.relayState);
  if (!('requestId' in flow)) throw new PassportError('ssoStateMismatch');
  const connection = await connectionOf(app.db, flow.subjectId);
  if (connection?.protocol !== 'saml' || connection.issuer !== flow.issuer)
    throw new PassportError('ssoNotAvailable');
  const sp = samlSpOf(app.config.publicOrigin, flow.subjectId);
  let verified: Awaited<ReturnType<typeof verifySamlResponse>>;
  try {
    verified = await verifySamlResponse(connection, sp, flow.requestId, flow.issuedAt, posted.response);
  } catch (error) {
    request.log.info(
      { err: error, subject: flow.subjectId },
      'enterprise sign-in: the SAML response was refused',
    );
    throw error;
  }
  const ttl = Math.max(verified.validUntil - Date.now(), 1000);
  if (!(await app.store.setIfAbsent(assertionKey(connection.issuer, verified.assertionId), '1', ttl)))
    throw new PassportError('samlAssertionReplayed');
  return { flow, identity: verified.identity };
}

/** The OpenID Connect side of enterprise_sso/login: the flow taken once, the code exchanged. */
async function verifiedOidcPerson(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { code?: string | undefined; state?: string | undefined; iss?: string | undefined },
) {
  const flow = await takeFlow(app, request, input.state);
  if ('requestId' in flow || !input.code || !input.state) throw new PassportError('ssoStateMismatch');
  const connection = await connectionOf(app.db, flow.subjectId);
  // The connection was removed or repointed while the person was at the provider.
  if (connection?.protocol !== 'oidc' || connection.issuer !== flow.issuer)
    throw new PassportError('ssoNotAvailable');
  const provider = await providerOf(connection, app.secret, app.config.publicOrigin);
  const callback = new URL(flow.redirectUri);
  callback.searchParams.set('code', input.code);
  callback.searchParams.set('state', input.state);
  if (input.iss) callback.searchParams.set('iss', input.iss);
  try {
    return { flow, identity: await exchangeCode(provider, callback, flow) };
  } catch (error) {
    request.log.info({ err: error, subject: flow.subjectId }, 'enterprise sign-in: the exchange was refused');
    throw new PassportError('ssoProviderFailed');
  }
}

/**
 * enterprise_sso/login, from the callback page: the provider's person verified (the code exchanged, or
 * the kept SAML response), the e-mail rule, then the sign-in operation. A first sign-in that another
 * first sign-in of the same person beat to the account, the link or the membership chooses the account
 * again once, finding what the other made. Answers the account and the `next` the sign-in started with.
 */
export async function finishEnterpriseSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    code?: string | undefined;
    state?: string | undefined;
    iss?: string | undefined;
    saml?: string | undefined;
  },
) {
  const { flow, identity } = input.saml
    ? await verifiedSamlPerson(app, request, input.saml)
    : await verifiedOidcPerson(app, request, input);
  const { email } = identity;
  if (!email || !identity.emailVerified) throw new PassportError('ssoEmailNotVerified');
  for (let attempt = 1; ; attempt += 1) {
    const { user, newUser } = await accountFor(app, flow, { ...identity, email });
    const principal = await admitSignIn(app, request, user, { newUser, proof: 'enterpriseSso' });
    try {
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
    } catch (error) {
      if (!(error instanceof SsoSignInRaced)) throw error;
      if (attempt === 2) throw new PassportError('ssoStateMismatch', {}, { cause: error });
    }
  }
}
