/// <reference path="../domain/open-auth/oidc-provider.d.ts" />
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invoke } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import { clientCount } from '../domain/open-auth/client-records';
import { redirectUriProblem } from '../domain/open-auth/redirect-uri';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import {
  clientDefaults,
  createDeveloperApp as createOperation,
  deleteDeveloperApp as deleteOperation,
  listDeveloperApps as listOperation,
  MAX_APPS_PER_ACCOUNT,
  newSecret,
  rotateDeveloperAppSecret as rotateOperation,
} from '../operations/account/developer-apps';
import type { DeveloperAppSecret, DeveloperApps } from '../schemas/developer-apps';
import { words } from './open-auth';

/**
 * The developer console (docs/open-authorization.md, "The developer console"): a signed-in person
 * registers the apps they own, sees each one's client_key and how many people authorised it, gets the
 * secret once (at registration and at each rotation) and deletes an app. The apps are the OpenID
 * provider's own client records, written through its Client model and storage adapter, so a
 * registered app is a client the provider serves like one registered through RFC 7591.
 */

/** Apps one account may own. */
export { MAX_APPS_PER_ACCOUNT };
/** Redirect URIs one app may list. */
export const MAX_REDIRECT_URIS = 10;

const _LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The request's side of the console's operations (src/operations/account/developer-apps.ts): a new
 * app's redirect URIs and scopes, and the provider's own client rules, checked before the transaction
 * (the provider is not the operation's to call).
 */

const where = (app: FastifyInstance, request: FastifyRequest) =>
  [principalOf(request), requestOf(app, request), { gate: gateFor(app, request) }] as const;

export function listDeveloperApps(app: FastifyInstance, request: FastifyRequest): Promise<DeveloperApps> {
  return invoke(app, listOperation, {}, ...where(app, request));
}

/** Registers an app for the signed-in person; the answer is the only time its secret is shown. */
export async function createDeveloperApp(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { app_name: string; app_icon?: string; redirect_uris: string; scopes?: string },
): Promise<DeveloperAppSecret> {
  const session = requireSession(request);
  // Refused first, as before any other check (the operation counts again in its transaction).
  if ((await clientCount(app.db, session.userId)) >= MAX_APPS_PER_ACCOUNT)
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
  const metadata = {
    client_name: input.app_name.trim(),
    ...(input.app_icon ? { logo_uri: input.app_icon } : {}),
    redirect_uris: redirectUris,
    // The provider refuses a request for any scope outside this list (its client `scope` metadata).
    scope: ['openid', 'offline_access', ...scopes].join(' '),
  };
  // The provider's own client rules, on the metadata as it will be stored (its id and secret are drawn
  // in the operation; their form is the server's own).
  const provider = await app.openAuth.provider();
  try {
    await provider.Client.validate({
      ...clientDefaults,
      ...metadata,
      client_id: 'validation',
      client_secret: newSecret(),
    });
  } catch (error) {
    throw new PassportError('openRedirectUriInvalid', {
      reason: (error as { error_description?: string }).error_description ?? 'invalid client metadata',
    });
  }
  return invoke(app, createOperation, metadata, ...where(app, request));
}

/** A new secret for one of the person's apps: the old one stops working at once. */
export function rotateDeveloperAppSecret(
  app: FastifyInstance,
  request: FastifyRequest,
  clientKey: string,
): Promise<DeveloperAppSecret> {
  return invoke(app, rotateOperation, { client_key: clientKey }, ...where(app, request));
}

/** Deletes one of the person's apps with every grant, code and token issued to it, in one transaction. */
export function deleteDeveloperApp(
  app: FastifyInstance,
  request: FastifyRequest,
  clientKey: string,
): Promise<DeveloperApps> {
  return invoke(app, deleteOperation, { client_key: clientKey }, ...where(app, request));
}
