import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { type ConnectionRow, checkIssuerAddress, connectionSealer } from './connections';
import { domainOfEmail } from './domains';

/**
 * Signing in through an organisation's OpenID Connect connection (docs/enterprise-sso.md): the
 * organisation's policy (require single sign-on, the role rules of a first sign-in), the provider's
 * people linked to accounts, and the protocol through openid-client (state, nonce and PKCE; the ID
 * token's signature, issuer, audience and nonce are the library's checks).
 */

type Tx = Kysely<Database>;

/** A rule of the organisation's mapping: a claim holding `value` (or a list holding it) gives the role. */
export const SsoRoleRule = Type.Object({
  claim: Type.String({ minLength: 1, maxLength: 64, description: 'an ID token or userinfo claim: groups' }),
  value: Type.String({ minLength: 1, maxLength: 256 }),
  role_key: Type.String({ minLength: 1, maxLength: 64 }),
});
export interface SsoRoleRule {
  claim: string;
  value: string;
  role_key: string;
}
const ruleCheck = Compile(SsoRoleRule);
/** At most this many rules per organisation. */
export const ROLE_RULES_MAX = 20;

export interface SsoPolicy {
  requireSso: boolean;
  /** The role of a first sign-in's membership when no rule matches; null: none. */
  defaultRoleKey: string | null;
  roleRules: SsoRoleRule[];
  /** A first sign-in makes the membership (just in time); off, only members sign in through it. */
  jit: boolean;
}

const NO_POLICY: SsoPolicy = { requireSso: false, defaultRoleKey: null, roleRules: [], jit: true };

export async function policyOf(tx: Tx, subjectId: string): Promise<SsoPolicy> {
  const row = await tx
    .selectFrom('organisation_sso_policies')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  if (!row) return NO_POLICY;
  return {
    requireSso: Number(row.require_sso) === 1,
    defaultRoleKey: row.default_role_key,
    roleRules: JSON.parse(row.role_rules) as SsoRoleRule[],
    jit: Number(row.jit_provisioning) === 1,
  };
}

export async function savePolicy(tx: Tx, subjectId: string, policy: SsoPolicy, now: number): Promise<void> {
  const values = {
    require_sso: policy.requireSso ? 1 : 0,
    default_role_key: policy.defaultRoleKey,
    role_rules: JSON.stringify(policy.roleRules),
    jit_provisioning: policy.jit ? 1 : 0,
    updated_at: now,
  };
  await tx
    .insertInto('organisation_sso_policies')
    .values({ subject_id: subjectId, ...values })
    .onConflict((oc) => oc.column('subject_id').doUpdateSet(values))
    .execute();
}

/**
 * The rules as sent: a JSON array (a form body carries it as text) or an array; else INVALID_PARAM.
 */
export function parseRoleRules(raw: string | readonly unknown[] | undefined): SsoRoleRule[] {
  if (raw === undefined || raw === '') return [];
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new PassportError('invalidParam', { field: 'role_rules' });
    }
  }
  const valid =
    Array.isArray(value) && value.length <= ROLE_RULES_MAX && value.every((rule) => ruleCheck.Check(rule));
  if (!valid) throw new PassportError('invalidParam', { field: 'role_rules' });
  return (value as SsoRoleRule[]).map(({ claim, value, role_key }) => ({ claim, value, role_key }));
}

/** Whether a claim holds `value`: equal to it, or a list with it (a `groups` claim). */
function holds(claim: unknown, value: string): boolean {
  if (Array.isArray(claim)) return claim.some((item) => holds(item, value));
  return (
    (typeof claim === 'string' || typeof claim === 'number' || typeof claim === 'boolean') &&
    String(claim) === value
  );
}

/** The role keys of a first sign-in: every rule the claims match, in order; else the default role. */
export function rolesFor(policy: SsoPolicy, claims: Record<string, unknown>): string[] {
  const matched = policy.roleRules.filter((rule) => holds(claims[rule.claim], rule.value));
  const keys = matched.map((rule) => rule.role_key);
  if (keys.length === 0 && policy.defaultRoleKey) keys.push(policy.defaultRoleKey);
  return [...new Set(keys)];
}

/**
 * Whether signing in to the organisation's identity needs its single sign-on for this account: the
 * organisation requires it, has a connection, and has verified the domain of the account's e-mail.
 * Answers the domain when it does.
 */
export async function ssoRequiredDomain(
  tx: Tx,
  subjectId: string,
  email: string | null,
): Promise<string | null> {
  const domain = email ? domainOfEmail(email) : null;
  if (!domain) return null;
  const row = await tx
    .selectFrom('organisation_sso_policies')
    .innerJoin(
      'organisation_sso_connections',
      'organisation_sso_connections.subject_id',
      'organisation_sso_policies.subject_id',
    )
    .innerJoin(
      'organisation_domains',
      'organisation_domains.subject_id',
      'organisation_sso_policies.subject_id',
    )
    .select('organisation_domains.domain')
    .where('organisation_sso_policies.subject_id', '=', subjectId)
    .where('organisation_sso_policies.require_sso', '=', 1)
    .where('organisation_domains.verified_domain', '=', domain)
    .executeTakeFirst();
  return row?.domain ?? null;
}

/** The account an identity provider's person is linked to in the organisation, if any. */
export const linkOf = (tx: Tx, subjectId: string, issuer: string, idpSubject: string) =>
  tx
    .selectFrom('organisation_sso_identities')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .where('issuer', '=', issuer)
    .where('idp_subject', '=', idpSubject)
    .executeTakeFirst();

/** What the organisation's provider tells about the person who signed in there. */
export interface IdpIdentity {
  issuer: string;
  /** The provider's `sub`. */
  subject: string;
  /** Lower-cased; null without one. */
  email: string | null;
  /** Whether the provider asserted `email_verified: true`. */
  emailVerified: boolean;
  name: string | null;
  /** The ID token's claims and the userinfo's, for the role rules. */
  claims: Record<string, unknown>;
}

/** The one-time secrets of a sign-in started in a browser, kept in the store until its callback. */
export interface SsoFlow {
  subjectId: string;
  issuer: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  next: string;
}

/**
 * The connection's provider configuration, by discovery (10 s at most), with the client secret opened:
 * outside any transaction. The issuer's host is checked again first (a name saved long ago may resolve
 * elsewhere now). SSO_PROVIDER_FAILED when it cannot be read.
 */
export async function providerOf(
  connection: ConnectionRow,
  secret: Buffer,
  publicOrigin: string,
): Promise<client.Configuration> {
  // An issuer that now resolves to a private address is the provider failing, to the person signing in.
  await checkIssuerAddress(connection.issuer, publicOrigin).catch((error: unknown) => {
    throw new PassportError('ssoProviderFailed', {}, { cause: error });
  });
  const clientSecret = connectionSealer(secret).open(connection.subject_id, connection.client_secret);
  try {
    return await client.discovery(new URL(connection.issuer), connection.client_id, clientSecret, undefined, {
      execute: connection.issuer.startsWith('http:') ? [client.allowInsecureRequests] : [],
      timeout: 10,
    });
  } catch (error) {
    throw new PassportError('ssoProviderFailed', {}, { cause: error });
  }
}

/** The provider's authorize address for this flow (S256 PKCE, a nonce, the address as a hint). */
export async function authorizationUrl(
  config: client.Configuration,
  flow: SsoFlow,
  loginHint: string,
): Promise<URL> {
  return client.buildAuthorizationUrl(config, {
    redirect_uri: flow.redirectUri,
    scope: 'openid email profile',
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
    code_challenge_method: 'S256',
    login_hint: loginHint,
  });
}

/**
 * Exchanges the callback's code (the library checks the state, the issuer, the PKCE verifier, and the
 * ID token's signature, audience, expiry and nonce), then reads the userinfo.
 */
export async function exchangeCode(
  config: client.Configuration,
  callbackUrl: URL,
  flow: SsoFlow,
): Promise<IdpIdentity> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: flow.codeVerifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const idToken = tokens.claims();
  if (!idToken) throw new Error('no ID token');
  const info = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
  // The ID token's claims win over the userinfo's (it is the signed one).
  const claims: Record<string, unknown> = { ...info, ...idToken };
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
  return {
    issuer: flow.issuer,
    subject: idToken.sub,
    email,
    emailVerified: email !== null && claims.email_verified === true,
    name: typeof claims.name === 'string' ? claims.name : null,
    claims,
  };
}
