import { Type } from 'typebox';
import { defineEvent } from '../define';

/**
 * OAuth apps (the authorization server's clients) changed through the management API or by an
 * operator, in the stream `oauth_app:<client_id>`. They name the app and its redirect hosts, never its
 * secret.
 */
const App = {
  clientId: Type.String(),
  name: Type.String(),
  redirectHosts: Type.Array(Type.String(), { description: 'the hosts of its redirect URIs' }),
  scopes: Type.Array(Type.String()),
};

export const oauthAppEvents = [
  defineEvent({
    type: 'oauth_app.created',
    version: 1,
    summary: 'An OAuth app (a client of the authorization server) was registered.',
    data: Type.Object(App),
  }),
  defineEvent({
    type: 'oauth_app.updated',
    version: 1,
    summary: "An OAuth app's name, icon, redirect URIs or scopes were changed.",
    data: Type.Object(App),
  }),
  defineEvent({
    type: 'oauth_app.secret_rotated',
    version: 1,
    summary: "An OAuth app's client secret was replaced: the old one stopped working at once.",
    data: Type.Object({ clientId: Type.String() }),
  }),
  defineEvent({
    type: 'oauth_app.deleted',
    version: 1,
    summary: 'An OAuth app was deleted with every authorisation, code and token issued to it.',
    data: Type.Object({ clientId: Type.String(), name: Type.String() }),
  }),
] as const;
