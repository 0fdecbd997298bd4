import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { openScopesOf } from '../../config';
import {
  appView,
  authorizedCounts,
  type ClientMetadata,
  clientCount,
  clientsOf,
  deleteClient,
  ownClient,
  storeClient,
} from '../../domain/open-auth/client-records';
import { PassportError } from '../../errors';
import { DeveloperAppSecret, DeveloperApps } from '../../schemas/developer-apps';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { describedApp, emitAppEvent } from '../oauth-app-events';

/**
 * The developer console (docs/open-authorization.md, "The developer console"): a signed-in person's
 * apps, each a client record of the OpenID provider. The request's side (src/flows/developer-apps.ts)
 * checks a new app's redirect URIs and scopes and has the provider validate its metadata before the
 * transaction; these read and write the records through it.
 */

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

/** Apps one account may own. */
export const MAX_APPS_PER_ACCOUNT = 20;

/** What every console app is, for the provider: a confidential web client using codes and refreshes. */
export const clientDefaults = {
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
  client_secret_expires_at: 0,
};

export const newSecret = () => randomBytes(32).toString('base64url');

/** The scopes an app may ask for here, described (the provider's own list). */
const scopesOf = (ctx: PersonContext) =>
  openScopesOf(ctx.config).map(({ name, zh, en }) => ({ name, zh, en }));

async function appsOf(ctx: PersonContext) {
  const clients = await clientsOf(ctx.tx, ctx.caller.user.id);
  const people = await authorizedCounts(
    ctx.tx,
    clients.map((client) => client.client_id),
  );
  return {
    apps: clients.map((client) => appView(client, people.get(client.client_id) ?? 0)),
    scopes: scopesOf(ctx),
  };
}

async function ownOrNotFound(ctx: PersonContext, clientKey: string): Promise<ClientMetadata> {
  const metadata = await ownClient(ctx.tx, ctx.caller.user.id, clientKey);
  if (!metadata) throw new PassportError('openClientNotFound');
  return metadata;
}

export const listDeveloperApps = defineOperation({
  name: 'account.developer_app.list',
  input: Type.Object({}),
  output: DeveloperApps,
  caller: caller.person,
  emits: [],
  run: (ctx) => appsOf(ctx),
});

/**
 * Registers an app (its metadata checked by the request's side, without id, secret or owner); the
 * answer is the only time its secret is shown.
 */
export const createDeveloperApp = defineOperation({
  name: 'account.developer_app.create',
  input: Type.Object({
    client_name: Type.String({ minLength: 1 }),
    logo_uri: Type.Optional(Type.String()),
    redirect_uris: Type.Array(Type.String()),
    scope: Type.String(),
  }),
  output: DeveloperAppSecret,
  caller: caller.person,
  emits: ['oauth_app.created'],
  async run(ctx, input) {
    const userId = ctx.caller.user.id;
    if ((await clientCount(ctx.tx, userId)) >= MAX_APPS_PER_ACCOUNT)
      throw new PassportError('openAppLimit', { limit: MAX_APPS_PER_ACCOUNT });
    const metadata: ClientMetadata = {
      ...clientDefaults,
      client_id: randomBytes(10).toString('hex'),
      client_secret: newSecret(),
      client_name: input.client_name,
      ...(input.logo_uri ? { logo_uri: input.logo_uri } : {}),
      redirect_uris: input.redirect_uris,
      scope: input.scope,
      portico_owner: userId,
      client_id_issued_at: Math.floor(ctx.now() / 1000),
    };
    await storeClient(ctx.tx, metadata, ctx.now());
    emitAppEvent(ctx, ownerOf(ctx), metadata.client_id, 'oauth_app.created', describedApp(metadata));
    return { ...appView(metadata, 0), client_secret: metadata.client_secret };
  },
});

const AppKey = Type.Object({ client_key: Type.String() });

/** The owner as the actor of their app's events. */
const ownerOf = (ctx: PersonContext) => ({ kind: 'person' as const, userId: ctx.caller.user.id });

/** A new secret for one of the person's apps: the old one stops working at once. */
export const rotateDeveloperAppSecret = defineOperation({
  name: 'account.developer_app.rotate_secret',
  input: AppKey,
  output: DeveloperAppSecret,
  caller: caller.person,
  emits: ['oauth_app.secret_rotated'],
  async run(ctx, input) {
    const metadata = { ...(await ownOrNotFound(ctx, input.client_key)), client_secret: newSecret() };
    await storeClient(ctx.tx, metadata, ctx.now());
    emitAppEvent(ctx, ownerOf(ctx), input.client_key, 'oauth_app.secret_rotated', {
      clientId: input.client_key,
    });
    const count = (await authorizedCounts(ctx.tx, [input.client_key])).get(input.client_key) ?? 0;
    return { ...appView(metadata, count), client_secret: metadata.client_secret };
  },
});

/** Deletes one of the person's apps with every grant, code and token issued to it; answers the rest. */
export const deleteDeveloperApp = defineOperation({
  name: 'account.developer_app.delete',
  input: AppKey,
  output: DeveloperApps,
  caller: caller.person,
  emits: ['oauth_app.deleted'],
  async run(ctx, input) {
    const metadata = await ownOrNotFound(ctx, input.client_key);
    await deleteClient(ctx.tx, input.client_key);
    emitAppEvent(ctx, ownerOf(ctx), input.client_key, 'oauth_app.deleted', {
      clientId: input.client_key,
      name: metadata.client_name,
    });
    return appsOf(ctx);
  },
});
