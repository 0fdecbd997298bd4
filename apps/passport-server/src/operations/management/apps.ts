import { randomBytes } from 'node:crypto';
import {
  AppDeleted,
  AppIdParams,
  AppPage,
  ManagedApp,
  ManagedAppWithSecret,
  PageQuery,
} from '@portico/management/protocol';
import { Type } from 'typebox';
import {
  appView,
  authorizedCounts,
  type ClientMetadata,
  clientById,
  clientPage,
  deleteClient,
  storeClient,
} from '../../domain/open-auth/client-records';
import { PassportError } from '../../errors';
import type { EventData, EventType } from '../../events/catalogue';
import { clientDefaults, newSecret } from '../account/developer-apps';
import { caller, defineOperation, type OperationContext } from '../define';
import { describedApp, emitAppEvent } from '../oauth-app-events';
import { actorOf, type ManagementContext } from './caller';
import { afterCursor, pageOf } from './cursor';

/**
 * OAuth apps through the management API (docs/management-api.md, "OAuth apps"): every client of the
 * authorization server — the deployment's own, made here, and those people registered in the developer
 * console — read with `apps:read`, registered, changed, given a new secret and deleted with
 * `apps:write`. The request's side (src/flows/client-metadata.ts) checks the redirect URIs, the scopes
 * and the provider's client rules before the transaction; these read and write the client records.
 */

/** An app's metadata as the request's side checked it. */
const AppMetadata = Type.Object({
  client_name: Type.String(),
  logo_uri: Type.Optional(Type.String()),
  redirect_uris: Type.Array(Type.String()),
  scope: Type.String(),
});

const managedApp = (metadata: ClientMetadata, authorizedCount: number): ManagedApp => {
  const view = appView(metadata, authorizedCount);
  return {
    id: view.client_key,
    name: view.app_name,
    logo_uri: view.app_icon,
    redirect_uris: view.redirect_uris,
    scopes: view.scopes,
    owner_user_id: metadata.portico_owner ?? null,
    authorized_count: view.authorized_count,
    created_at: view.created_at,
  };
};

async function appOrNotFound(ctx: ManagementContext, id: string): Promise<ClientMetadata> {
  const metadata = await clientById(ctx.tx, id);
  if (!metadata) throw new PassportError('openClientNotFound');
  return metadata;
}

async function countOf(ctx: ManagementContext, id: string) {
  return (await authorizedCounts(ctx.tx, [id])).get(id) ?? 0;
}

const emitAbout = <T extends EventType>(
  ctx: ManagementContext,
  clientId: string,
  type: T,
  data: EventData<T>,
) => emitAppEvent(ctx as OperationContext, actorOf(ctx.caller), clientId, type, data);

export const listApps = defineOperation({
  name: 'management.apps.list',
  input: PageQuery,
  output: AppPage,
  caller: caller.apiKey('apps:read'),
  emits: [],
  async run(ctx, input) {
    const limit = input.limit ?? 20;
    const rows = await clientPage(ctx.tx, limit + 1, input.cursor ? afterCursor(input.cursor) : undefined);
    const { page, next } = pageOf(rows, limit);
    const people = await authorizedCounts(
      ctx.tx,
      page.map((row) => row.id),
    );
    return {
      apps: page.map((row) => managedApp(row.metadata, people.get(row.id) ?? 0)),
      next_cursor: next,
    };
  },
});

export const getApp = defineOperation({
  name: 'management.apps.get',
  input: AppIdParams,
  output: ManagedApp,
  caller: caller.apiKey('apps:read'),
  emits: [],
  async run(ctx, input) {
    return managedApp(await appOrNotFound(ctx, input.id), await countOf(ctx, input.id));
  },
});

/** Registers one of the deployment's apps (no owner); the answer is the only time its secret is shown. */
export const createApp = defineOperation({
  name: 'management.apps.create',
  input: AppMetadata,
  output: ManagedAppWithSecret,
  caller: caller.apiKey('apps:write'),
  emits: ['oauth_app.created'],
  async run(ctx, input) {
    const metadata: ClientMetadata = {
      ...clientDefaults,
      client_id: randomBytes(10).toString('hex'),
      client_secret: newSecret(),
      ...input,
      client_id_issued_at: Math.floor(ctx.now() / 1000),
    };
    await storeClient(ctx.tx, metadata, ctx.now());
    emitAbout(ctx, metadata.client_id, 'oauth_app.created', describedApp(metadata));
    return { ...managedApp(metadata, 0), client_secret: metadata.client_secret };
  },
});

/** Sets an app's name, icon, redirect URIs and scopes (the request's side merged them with the app's). */
export const updateApp = defineOperation({
  name: 'management.apps.update',
  input: Type.Object({ id: AppIdParams.properties.id, ...AppMetadata.properties }),
  output: ManagedApp,
  caller: caller.apiKey('apps:write'),
  emits: ['oauth_app.updated'],
  async run(ctx, { id, ...changes }) {
    const { logo_uri: _icon, ...current } = await appOrNotFound(ctx, id);
    const metadata: ClientMetadata = { ...current, ...changes };
    await storeClient(ctx.tx, metadata, ctx.now());
    emitAbout(ctx, id, 'oauth_app.updated', describedApp(metadata));
    return managedApp(metadata, await countOf(ctx, id));
  },
});

/** A new secret: the old one stops working at once (a client holds one secret). */
export const rotateAppSecret = defineOperation({
  name: 'management.apps.rotate_secret',
  input: AppIdParams,
  output: ManagedAppWithSecret,
  caller: caller.apiKey('apps:write'),
  emits: ['oauth_app.secret_rotated'],
  async run(ctx, input) {
    const metadata = { ...(await appOrNotFound(ctx, input.id)), client_secret: newSecret() };
    await storeClient(ctx.tx, metadata, ctx.now());
    emitAbout(ctx, input.id, 'oauth_app.secret_rotated', { clientId: input.id });
    return { ...managedApp(metadata, await countOf(ctx, input.id)), client_secret: metadata.client_secret };
  },
});

/** Deletes an app with every grant, code and token issued to it. */
export const deleteApp = defineOperation({
  name: 'management.apps.delete',
  input: AppIdParams,
  output: AppDeleted,
  caller: caller.apiKey('apps:write'),
  emits: ['oauth_app.deleted'],
  async run(ctx, input) {
    const metadata = await appOrNotFound(ctx, input.id);
    await deleteClient(ctx.tx, input.id);
    emitAbout(ctx, input.id, 'oauth_app.deleted', { clientId: input.id, name: metadata.client_name });
    return { id: input.id, deleted: true as const };
  },
});
