/// <reference path="../domain/open-auth/oidc-provider.d.ts" />
import type { CreateAppBody, UpdateAppBody } from '@portico/management/protocol';
import type { FastifyInstance } from 'fastify';
import { appView, clientById } from '../domain/open-auth/client-records';
import { redirectUriProblem } from '../domain/open-auth/redirect-uri';
import { PassportError } from '../errors';
import { clientDefaults, newSecret } from '../operations/account/developer-apps';

/** Redirect URIs one app may list. */
export const MAX_REDIRECT_URIS = 10;

/** An app's own metadata, as a client record keeps it (without id, secret or owner). */
export interface AppMetadata {
  client_name: string;
  logo_uri?: string;
  redirect_uris: string[];
  scope: string;
}

/**
 * An app's metadata from what a person (the developer console) or a back end (the management API)
 * asked for, checked before the operation's transaction, as the provider will serve it: 1 to 10
 * redirect URIs, each https or http on the loopback interface; scopes the deployment offers
 * (`user_info` always among them); then the provider's own client rules (the provider is not an
 * operation's to call).
 */
export async function checkedAppMetadata(
  app: FastifyInstance,
  input: { name: string; logoUri?: string | undefined; redirectUris: string[]; scopes: string[] },
): Promise<AppMetadata> {
  const redirectUris = [...new Set(input.redirectUris)];
  if (redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS)
    throw new PassportError('openRedirectUriInvalid', { reason: `1 to ${MAX_REDIRECT_URIS} redirect URIs` });
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new PassportError('openRedirectUriInvalid', { redirect_uri: uri, reason: problem });
  }
  const known = new Set(app.openAuth.scopes.map((scope) => scope.name));
  const scopes = [...new Set(['user_info', ...input.scopes])];
  for (const scope of scopes) if (!known.has(scope)) throw new PassportError('openScopeInvalid', { scope });
  const metadata: AppMetadata = {
    client_name: input.name.trim(),
    ...(input.logoUri ? { logo_uri: input.logoUri } : {}),
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
  return metadata;
}

/** A new app's metadata from the management API's body. */
export const createAppInput = (app: FastifyInstance, body: CreateAppBody) =>
  checkedAppMetadata(app, {
    name: body.name,
    logoUri: body.logo_uri,
    redirectUris: body.redirect_uris,
    scopes: body.scopes ?? [],
  });

/**
 * A change to an app from the management API's body: merged with the app as it is (what is left out
 * stays; an empty `logo_uri` removes the icon) and checked whole, as a new app's would be.
 */
export async function updateAppInput(app: FastifyInstance, input: UpdateAppBody & { id: string }) {
  const current = await clientById(app.db, input.id);
  if (!current) throw new PassportError('openClientNotFound');
  const view = appView(current, 0);
  const metadata = await checkedAppMetadata(app, {
    name: input.name ?? view.app_name,
    logoUri: input.logo_uri ?? view.app_icon,
    redirectUris: input.redirect_uris ?? view.redirect_uris,
    scopes: input.scopes ?? view.scopes,
  });
  return { id: input.id, ...metadata };
}
