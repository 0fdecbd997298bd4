import { appView, type ClientMetadata } from '../domain/open-auth/client-records';
import type { EventActor, EventData, EventType } from '../events/catalogue';
import type { OperationContext } from './define';

/**
 * An OAuth app's change as an event in its stream (`oauth_app:<client_id>`), whoever made it: a back end
 * or an operator (src/operations/management/apps.ts), or the owner in the developer console
 * (src/operations/account/developer-apps.ts).
 */
export function emitAppEvent<T extends EventType>(
  ctx: OperationContext,
  actor: EventActor,
  clientId: string,
  type: T,
  data: EventData<T>,
) {
  ctx.emit({ type, stream: `oauth_app:${clientId}`, actor, data });
}

/** What an app's events say of it: its id, name, redirect hosts and scopes (never its secret). */
export function describedApp(metadata: ClientMetadata) {
  const view = appView(metadata, 0);
  return {
    clientId: view.client_key,
    name: view.app_name,
    redirectHosts: [...new Set(view.redirect_uris.map((uri) => new URL(uri).host))],
    scopes: view.scopes,
  };
}
