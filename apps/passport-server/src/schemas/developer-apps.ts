import { type Static, Type } from 'typebox';
import { CommonQuery, FORM } from './common';
import { OpenScopeInfo } from './open-auth';

/** The developer console's calls (web family; the web app's developer page, docs/open-authorization.md). */

export const DEVELOPER_APPS_PATH = '/passport/web/developer/apps/';
export const DEVELOPER_APP_CREATE_PATH = '/passport/web/developer/apps/create/';
export const DEVELOPER_APP_ROTATE_PATH = '/passport/web/developer/apps/rotate_secret/';
export const DEVELOPER_APP_DELETE_PATH = '/passport/web/developer/apps/delete/';

const ClientKey = Type.String({ minLength: 1, maxLength: 128 });

export const DeveloperApp = Type.Object({
  client_key: Type.String(),
  app_name: Type.String(),
  app_icon: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  /** The scopes the app may ask for (user_info always among them). */
  scopes: Type.Array(Type.String()),
  created_at: Type.Number(),
  /** How many people have a live authorisation of the app. */
  authorized_count: Type.Integer(),
});
export type DeveloperApp = Static<typeof DeveloperApp>;

/** An app with its secret: the answer of create and rotate_secret, the only times the secret is shown. */
export const DeveloperAppSecret = Type.Intersect([
  DeveloperApp,
  Type.Object({ client_secret: Type.String() }),
]);
export type DeveloperAppSecret = Static<typeof DeveloperAppSecret>;

/** The person's apps, and every scope an app of this deployment may ask for, described (zh, en). */
export const DeveloperApps = Type.Object({
  apps: Type.Array(DeveloperApp),
  scopes: Type.Array(OpenScopeInfo),
});
export type DeveloperApps = Static<typeof DeveloperApps>;

export const developerAppsSchema = {
  summary:
    'Developer console: the apps the signed-in person registered, with how many people authorised each',
  tags: ['open-auth'],
  querystring: CommonQuery,
};

export const createDeveloperAppSchema = {
  summary:
    'Developer console: registers an app (name, icon, redirect URIs, scopes); the answer shows its secret once',
  tags: ['open-auth'],
  consumes: FORM,
  querystring: CommonQuery,
  body: Type.Object(
    {
      app_name: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
      /** An https URL of the app's icon. */
      app_icon: Type.Optional(Type.String({ maxLength: 2048, pattern: '^(https://\\S+)?$' })),
      /** Whitespace- or comma-separated; each https, or http on the loopback interface; matched exactly. */
      redirect_uris: Type.String({ minLength: 1, maxLength: 8192 }),
      /** Whitespace- or comma-separated scope names; user_info is always included. */
      scopes: Type.Optional(Type.String({ maxLength: 1024 })),
    },
    { additionalProperties: true },
  ),
};

const appKeyBody = Type.Object({ client_key: ClientKey }, { additionalProperties: true });

export const rotateDeveloperAppSchema = {
  summary:
    "Developer console: a new secret for one of the person's apps (the old one stops working); shown once",
  tags: ['open-auth'],
  consumes: FORM,
  querystring: CommonQuery,
  body: appKeyBody,
};

export const deleteDeveloperAppSchema = {
  summary:
    "Developer console: deletes one of the person's apps with every authorisation and token issued to it",
  tags: ['open-auth'],
  consumes: FORM,
  querystring: CommonQuery,
  body: appKeyBody,
};
