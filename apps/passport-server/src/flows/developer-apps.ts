import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invoke } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import { clientCount } from '../domain/open-auth/client-records';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import {
  createDeveloperApp as createOperation,
  deleteDeveloperApp as deleteOperation,
  listDeveloperApps as listOperation,
  MAX_APPS_PER_ACCOUNT,
  rotateDeveloperAppSecret as rotateOperation,
} from '../operations/account/developer-apps';
import type { DeveloperAppSecret, DeveloperApps } from '../schemas/developer-apps';
import { checkedAppMetadata } from './client-metadata';
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
  const metadata = await checkedAppMetadata(app, {
    name: input.app_name,
    logoUri: input.app_icon,
    redirectUris: words(input.redirect_uris),
    scopes: words(input.scopes),
  });
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
