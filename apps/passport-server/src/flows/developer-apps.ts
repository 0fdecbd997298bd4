/// <reference path="../domain/open-auth/oidc-provider.d.ts" />
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redirectUriProblem } from '../domain/open-auth/redirect-uri';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import type { DeveloperApp, DeveloperAppSecret, DeveloperApps } from '../schemas/developer-apps';
import { PLUMBING, recordsOf, words } from './open-auth';

/**
 * The developer console (docs/open-authorization.md, "The developer console"): a signed-in person
 * registers the apps they own, sees each one's client_key and how many people authorised it, gets the
 * secret once (at registration and at each rotation) and deletes an app. The apps are the OpenID
 * provider's own client records, written through its Client model and storage adapter, so a
 * registered app is a client the provider serves like one registered through RFC 7591.
 */

/** Apps one account may own. */
export const MAX_APPS_PER_ACCOUNT = 20;
/** Redirect URIs one app may list. */
export const MAX_REDIRECT_URIS = 10;

interface ClientMetadata {
  client_id: string;
  client_secret: string;
  client_name: string;
  logo_uri?: string;
  redirect_uris: string[];
  scope: string;
  portico_owner: string;
  client_id_issued_at: number;
  [key: string]: unknown;
}

const newSecret = () => randomBytes(32).toString('base64url');

/** The person's own client record, or OPEN_CLIENT_NOT_FOUND (the same answer for another's app). */
async function ownClient(app: FastifyInstance, userId: string, clientKey: string): Promise<ClientMetadata> {
  const row = await recordsOf(app)
    .selectFrom('open_auth_records')
    .select('payload')
    .where('model', '=', 'Client')
    .where('id', '=', clientKey)
    .where('account_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new PassportError('openClientNotFound');
  return JSON.parse(row.payload) as ClientMetadata;
}

/** Validates with the provider's own client rules, then stores through its adapter. */
async function saveClient(app: FastifyInstance, metadata: ClientMetadata): Promise<void> {
  const provider = await app.openAuth.provider();
  try {
    await provider.Client.validate(metadata);
  } catch (error) {
    throw new PassportError('openRedirectUriInvalid', {
      reason: (error as { error_description?: string }).error_description ?? 'invalid client metadata',
    });
  }
  await provider.Client.adapter.upsert(metadata.client_id, metadata);
}

function toApp(metadata: ClientMetadata, authorizedCount: number): DeveloperApp {
  return {
    client_key: metadata.client_id,
    app_name: metadata.client_name,
    app_icon: metadata.logo_uri ?? '',
    redirect_uris: metadata.redirect_uris,
    scopes: words(metadata.scope).filter((name) => !PLUMBING.has(name)),
    created_at: metadata.client_id_issued_at * 1000,
    authorized_count: authorizedCount,
  };
}

/** How many people have a live authorisation (a grant) of each of these apps; absent means none. */
async function authorizedCounts(app: FastifyInstance, clientKeys: string[]): Promise<Map<string, number>> {
  const rows = await recordsOf(app)
    .selectFrom('open_auth_records')
    .select((eb) => ['client_id', eb.fn.count<number>('account_id').distinct().as('people')])
    .where('model', '=', 'Grant')
    .where('client_id', 'in', clientKeys)
    .groupBy('client_id')
    .execute();
  return new Map(rows.map((row) => [row.client_id ?? '', Number(row.people)]));
}

/**
 * The signed-in person's apps, newest first, each with the number of people who authorised it, and the
 * scopes an app may ask for here (user_info and the deployment's OPEN_SCOPES), described.
 */
export async function listDeveloperApps(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<DeveloperApps> {
  const session = requireSession(request);
  const db = recordsOf(app);
  const scopes = app.openAuth.scopes.map(({ name, zh, en }) => ({ name, zh, en }));
  const clients = await db
    .selectFrom('open_auth_records')
    .select(['id', 'payload'])
    .where('model', '=', 'Client')
    .where('account_id', '=', session.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  if (!clients.length) return { apps: [], scopes };
  const people = await authorizedCounts(
    app,
    clients.map((client) => client.id),
  );
  return {
    apps: clients.map((client) =>
      toApp(JSON.parse(client.payload) as ClientMetadata, people.get(client.id) ?? 0),
    ),
    scopes,
  };
}

/** Registers an app for the signed-in person; the answer is the only time its secret is shown. */
export async function createDeveloperApp(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { app_name: string; app_icon?: string; redirect_uris: string; scopes?: string },
): Promise<DeveloperAppSecret> {
  const session = requireSession(request);
  const owned = await recordsOf(app)
    .selectFrom('open_auth_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('model', '=', 'Client')
    .where('account_id', '=', session.userId)
    .executeTakeFirstOrThrow();
  if (Number(owned.n) >= MAX_APPS_PER_ACCOUNT)
    throw new PassportError('openAppLimit', { limit: MAX_APPS_PER_ACCOUNT });

  const redirectUris = [...new Set(words(input.redirect_uris))];
  if (redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS)
    throw new PassportError('openRedirectUriInvalid', { reason: `1 to ${MAX_REDIRECT_URIS} redirect URIs` });
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new PassportError('openRedirectUriInvalid', { redirect_uri: uri, reason: problem });
  }
  const known = new Set(app.openAuth.scopes.map((scope) => scope.name));
  const scopes = [...new Set(['user_info', ...words(input.scopes)])];
  for (const scope of scopes) if (!known.has(scope)) throw new PassportError('openScopeInvalid', { scope });

  const metadata: ClientMetadata = {
    client_id: randomBytes(10).toString('hex'),
    client_secret: newSecret(),
    client_name: input.app_name.trim(),
    ...(input.app_icon ? { logo_uri: input.app_icon } : {}),
    redirect_uris: redirectUris,
    // The provider refuses a request for any scope outside this list (its client `scope` metadata).
    scope: ['openid', 'offline_access', ...scopes].join(' '),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    portico_owner: session.userId,
    client_id_issued_at: Math.floor(app.runtime.now() / 1000),
    client_secret_expires_at: 0,
  };
  await saveClient(app, metadata);
  return { ...toApp(metadata, 0), client_secret: metadata.client_secret };
}

/** A new secret for one of the person's apps: the old one stops working at once. */
export async function rotateDeveloperAppSecret(
  app: FastifyInstance,
  request: FastifyRequest,
  clientKey: string,
): Promise<DeveloperAppSecret> {
  const session = requireSession(request);
  const metadata = { ...(await ownClient(app, session.userId, clientKey)), client_secret: newSecret() };
  await saveClient(app, metadata);
  const count = (await authorizedCounts(app, [clientKey])).get(clientKey) ?? 0;
  return { ...toApp(metadata, count), client_secret: metadata.client_secret };
}

/** Deletes one of the person's apps with every grant, code and token issued to it, in one transaction. */
export async function deleteDeveloperApp(
  app: FastifyInstance,
  request: FastifyRequest,
  clientKey: string,
): Promise<DeveloperApps> {
  const session = requireSession(request);
  await ownClient(app, session.userId, clientKey);
  await recordsOf(app)
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('open_auth_records').where('client_id', '=', clientKey).execute();
      await trx
        .deleteFrom('open_auth_records')
        .where('model', '=', 'Client')
        .where('id', '=', clientKey)
        .execute();
    });
  return listDeveloperApps(app, request);
}
