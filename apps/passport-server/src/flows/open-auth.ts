/// <reference path="../domain/open-auth/oidc-provider.d.ts" />
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { InteractionInstance } from 'oidc-provider';
import { invoke } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import { type OpenAuthDatabase, recordsWithin } from '../domain/open-auth/adapter';
import { CONSENT_PAGE, OPEN_AUTH_MOUNT } from '../domain/open-auth/provider';
import {
  type ConnectRequest,
  canResume,
  noteInteraction,
  recallConnect,
  rememberConnect,
} from '../domain/open-auth/state-cookie';
import { imageUrl } from '../domain/profile/images';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { preferredLanguage } from '../lib/language';
import { authorizeOpenApp, revokeOpenApp } from '../operations/account/open-apps';
import type { AuthorizedApp, OpenAuthDecision, OpenAuthInfo, OpenScopeInfo } from '../protocol';
import type { AUTH_TOKEN_FORMATS } from '../schemas/open-auth';

/** Scopes that are protocol plumbing, not something a person is asked about. */
export const PLUMBING = new Set(['openid', 'offline_access']);

export const words = (value: unknown): string[] =>
  typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : [];

export const recordsOf = (app: FastifyInstance) => app.db as unknown as Kysely<OpenAuthDatabase>;

async function interactionOf(
  app: FastifyInstance,
  uid: string,
  expired: Record<string, unknown> = {},
): Promise<InteractionInstance> {
  const provider = await app.openAuth.provider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw new PassportError('openInteractionExpired', expired);
  return interaction;
}

/**
 * The scopes an app asks for, split into required and optional, each described; unknown ones refused.
 * An interaction's are exactly what the request named (what approval grants); the spec's question by
 * client_key always includes user_info, as its connect redirect asks for it.
 */
function describe(app: FastifyInstance, scope: string[], optional: string[], base: string[]) {
  const known = new Map(app.openAuth.scopes.map((s) => [s.name, s]));
  const asked = [...new Set([...base, ...scope, ...optional])].filter((name) => !PLUMBING.has(name));
  const info = (name: string): OpenScopeInfo => {
    const entry = known.get(name);
    if (!entry) throw new PassportError('openScopeInvalid', { scope: name });
    return { name: entry.name, zh: entry.zh, en: entry.en };
  };
  const optionalSet = new Set(optional.filter((name) => name !== 'user_info'));
  return {
    scope: asked.filter((name) => !optionalSet.has(name)).map(info),
    optionalScope: asked.filter((name) => optionalSet.has(name)).map(info),
  };
}

/** open/auth_info/v2: what the consent page shows. */
export async function authInfo(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { interaction?: string; client_key?: string; scope?: string; optionalScope?: string },
): Promise<OpenAuthInfo> {
  let clientKey = input.client_key;
  let scope = words(input.scope);
  let optional = words(input.optionalScope);
  let base = ['user_info'];
  let uiLanguage: 'zh' | 'en' | undefined;
  if (input.interaction) {
    // Gone (half an hour passed): `resumable` tells the page it may offer to start the request again.
    const interaction = await interactionOf(app, input.interaction, {
      resumable: canResume(app, request, input.interaction),
    });
    noteInteraction(app, request, reply, interaction);
    clientKey = String(interaction.params.client_id ?? '');
    scope = words(interaction.params.scope);
    optional = words(interaction.params.optional_scope);
    base = [];
    uiLanguage = preferredLanguage(interaction.params.ui_locales, undefined);
  }
  if (!clientKey) throw new PassportError('openClientNotFound');
  const client = await (await app.openAuth.provider()).Client.find(clientKey).catch(() => undefined);
  if (!client) throw new PassportError('openClientNotFound');
  const user = request.session?.user;
  return {
    client_key: client.clientId,
    app_name: client.clientName ?? client.clientId,
    app_icon: client.logoUri ?? '',
    ...describe(app, scope, optional, base),
    user: user
      ? {
          user_id: user.id,
          name: user.screen_name,
          avatar_url: user.avatar_key ? imageUrl(user.avatar_key) : '',
        }
      : null,
    ...(uiLanguage ? { ui_language: uiLanguage } : {}),
  };
}

/**
 * open/web/auth: the signed-in person's answer to an interaction. Approval grants the required scopes
 * and the optional ones left on (the others are recorded as refused); denial ends the request with
 * access_denied. The browser then resumes at the provider, which checks that it is the browser that
 * started the request (its resume cookie) and redirects to the app.
 */
export async function decide(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { interaction: string; approve: number; scope?: string },
): Promise<OpenAuthDecision> {
  const session = requireSession(request);
  const interaction = await interactionOf(app, input.interaction, {
    resumable: canResume(app, request, input.interaction),
  });
  const provider = await app.openAuth.provider();
  const clientId = String(interaction.params.client_id ?? '');
  let result: Record<string, unknown>;
  if (input.approve !== 1) {
    result = { error: 'access_denied', error_description: 'The person declined the request' };
  } else {
    const requested = words(interaction.params.scope);
    const optional = new Set(words(interaction.params.optional_scope));
    const kept = new Set(words(input.scope));
    const granted = requested.filter((name) => !optional.has(name) || kept.has(name));
    const refused = requested.filter((name) => optional.has(name) && !kept.has(name));
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant =
      existing && existing.accountId === session.userId
        ? existing
        : new provider.Grant({ accountId: session.userId, clientId });
    if (granted.length) grant.addOIDCScope(granted.join(' '));
    if (refused.length) grant.rejectOIDCScope(refused.join(' '));
    // The grant is saved in the operation's transaction, with its `account.app_authorized` event.
    let grantId = '';
    const client = await provider.Client.find(clientId).catch(() => undefined);
    await invoke(
      app,
      authorizeOpenApp,
      {
        client_id: clientId,
        app_name: client?.clientName ?? clientId,
        scopes: granted.filter((name) => !PLUMBING.has(name)),
        refused,
      },
      principalOf(request),
      requestOf(app, request),
      {
        gate: gateFor(app, request),
        within: (tx) =>
          recordsWithin(tx, async () => {
            grantId = await grant.save();
          }),
      },
    );
    result = { login: { accountId: session.userId }, consent: { grantId } };
  }
  interaction.result = result;
  await interaction.save(Math.max(interaction.exp - Math.floor(Date.now() / 1000), 1));
  return { redirect_url: interaction.returnTo };
}

/** open/connect: the spec's connect redirect, remembered in the open-auth state cookie for 60 days. */
export function connect(app: FastifyInstance, reply: FastifyReply, input: ConnectRequest): string {
  rememberConnect(app, reply, input);
  return connectUrl(input);
}

/**
 * open/connect/resume: the connect request this browser last followed, again, asking for consent again
 * (`prompt=consent`: an earlier grant does not answer for the person). Without one, the authorization
 * page, which says the request is invalid or has expired.
 */
export function resumeConnect(app: FastifyInstance, request: FastifyRequest): string {
  const saved = recallConnect(app, request);
  return saved ? connectUrl(saved, 'consent') : CONSENT_PAGE;
}

/** The connect redirect as a standard authorization request to the provider. */
function connectUrl(input: ConnectRequest, prompt?: 'consent'): string {
  const optional = words(input.optionalScope);
  const scope = [...new Set(['openid', 'user_info', ...words(input.scope), ...optional])];
  const query = new URLSearchParams({
    client_id: input.client_key,
    response_type: 'code',
    redirect_uri: input.redirect_uri,
    scope: scope.join(' '),
  });
  if (optional.length) query.set('optional_scope', optional.join(' '));
  if (input.state) query.set('state', input.state);
  if (input.code_challenge) query.set('code_challenge', input.code_challenge);
  if (input.code_challenge_method) query.set('code_challenge_method', input.code_challenge_method);
  if (prompt) query.set('prompt', prompt);
  return `${OPEN_AUTH_MOUNT}/auth?${query}`;
}

/** The apps the signed-in person has authorised (one entry per app, its newest grant). */
export async function authorizedApps(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{ apps: AuthorizedApp[] }> {
  const session = requireSession(request);
  const db = recordsOf(app);
  const grants = await db
    .selectFrom('open_auth_records')
    .select(['client_id', 'payload', 'created_at'])
    .where('model', '=', 'Grant')
    .where('account_id', '=', session.userId)
    .orderBy('created_at', 'desc')
    .execute();
  const apps = new Map<string, AuthorizedApp>();
  const known = new Map(app.openAuth.scopes.map((s) => [s.name, s]));
  for (const grant of grants) {
    if (!grant.client_id || apps.has(grant.client_id)) continue;
    const client = await db
      .selectFrom('open_auth_records')
      .select('payload')
      .where('model', '=', 'Client')
      .where('id', '=', grant.client_id)
      .executeTakeFirst();
    if (!client) continue;
    const metadata = JSON.parse(client.payload) as { client_name?: string; logo_uri?: string };
    const payload = JSON.parse(grant.payload) as { openid?: { scope?: string } };
    const scopes = words(payload.openid?.scope).filter((name) => !PLUMBING.has(name));
    apps.set(grant.client_id, {
      client_key: grant.client_id,
      app_name: metadata.client_name ?? grant.client_id,
      app_icon: metadata.logo_uri ?? '',
      scopes,
      // A scope the deployment no longer declares is shown by its name.
      scope_info: scopes.map((name) => {
        const entry = known.get(name);
        return { name, zh: entry?.zh ?? name, en: entry?.en ?? name };
      }),
      authorized_at: Number(grant.created_at),
    });
  }
  return { apps: [...apps.values()] };
}

/**
 * Revokes an app for the signed-in person (the operation `account.open_app.revoke`): every grant of
 * theirs to it, with its codes and tokens, in one transaction with its event; answers the list left.
 */
export async function revokeApp(
  app: FastifyInstance,
  request: FastifyRequest,
  clientKey: string,
): Promise<{ apps: AuthorizedApp[] }> {
  requireSession(request);
  await invoke(app, revokeOpenApp, { client_key: clientKey }, principalOf(request), requestOf(app, request), {
    gate: gateFor(app, request),
  });
  return authorizedApps(app, request);
}

/** What a bearer token may hold (RFC 6750's b64token, bounded): anything else is no token of ours. */
const BEARER = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * open/auth/token: the authorization an access token carries — the person (`sub`), the app, the scopes
 * the person granted, the token's life left and the claims of those scopes — for an app that ended the
 * connect flow at the token endpoint. The provider's own userinfo endpoint judges the token (its life,
 * its grant not revoked, a DPoP binding, the account neither frozen nor erased) and filters the claims
 * by the scopes granted; this only reshapes its answer. Anything it refuses is OPEN_TOKEN_INVALID.
 */
export async function tokenResult(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    token: string;
    client_key: string;
    state?: string;
    response_format_type?: (typeof AUTH_TOKEN_FORMATS)[number];
  },
): Promise<Record<string, unknown>> {
  // A token in a URL is in logs, history and Referer headers already: refused, never read.
  if ((request.query as Record<string, unknown>).token !== undefined)
    throw new PassportError('openTokenInQuery');
  if (!BEARER.test(input.token)) throw new PassportError('openTokenInvalid');
  const userinfo = await app.inject({
    method: 'GET',
    url: `${OPEN_AUTH_MOUNT}/me`,
    headers: { authorization: `Bearer ${input.token}` },
  });
  if (userinfo.statusCode !== 200) throw new PassportError('openTokenInvalid');
  const { sub, ...claims } = userinfo.json() as { sub: string } & Record<string, unknown>;
  const provider = await app.openAuth.provider();
  const token = await provider.AccessToken.find(input.token);
  // Another app's token is no answer for this one (token substitution): refused as any unknown token.
  if (!token || token.accountId !== sub || token.clientId !== input.client_key)
    throw new PassportError('openTokenInvalid');
  const state = input.state === undefined ? {} : { state: input.state };
  if (input.response_format_type === 'oidc')
    return { sub, ...claims, client_id: token.clientId, scope: token.scope ?? '', exp: token.exp, ...state };
  const client = await provider.Client.find(token.clientId).catch(() => undefined);
  return {
    open_id: sub,
    client_key: token.clientId,
    app_name: client?.clientName ?? token.clientId,
    scope: words(token.scope).filter((name) => !PLUMBING.has(name)),
    expires_in: Math.max(token.exp - Math.floor(app.runtime.now() / 1000), 0),
    user: claims,
    ...state,
  };
}
