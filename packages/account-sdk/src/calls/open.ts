import type { AccountClient, CallOptions } from '../client/types';
import type { openPaths } from '../protocol/paths';
import type {
  AuthorizedApp,
  OpenAuthDecision,
  OpenAuthDecisionPayload,
  OpenAuthInfo,
} from '../protocol/types';

type OpenPath = (typeof openPaths)[keyof typeof openPaths];

/** Open authorization's calls answer the auth envelope (`{status_code: 0, data}`; docs/open-authorization.md). */
function openCall<P extends object, D>(path: OpenPath, method: 'GET' | 'POST' = 'POST') {
  return (client: AccountClient, payload?: P, options?: CallOptions): Promise<D> =>
    client.request<D>({ ...options, path, method, data: { ...payload }, envelope: 'auth' });
}

/** The consent page's question: the app asking, its required and optional scopes, who is signed in. */
export const getOpenAuthInfo = /* @__PURE__ */ openCall<{ interaction: string }, OpenAuthInfo>(
  '/passport/open/auth_info/v2/',
  'GET',
);
/** The signed-in person's answer to an interaction; resolves where the browser goes next. */
export const decideOpenAuth = /* @__PURE__ */ openCall<OpenAuthDecisionPayload, OpenAuthDecision>(
  '/passport/open/web/auth/',
);
/** The apps the signed-in person has authorised (the account centre). */
export const listAuthorizedApps = /* @__PURE__ */ openCall<object, { apps: AuthorizedApp[] }>(
  '/passport/open/authorized_apps/',
  'GET',
);
/** Revokes one app for the signed-in person: its grants, codes and tokens, at once. */
export const revokeAuthorizedApp = /* @__PURE__ */ openCall<{ client_key: string }, object>(
  '/passport/open/update_authorize_info/',
);
