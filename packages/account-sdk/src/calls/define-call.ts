import type { AccountClient, CallOptions } from '../client/types';
import type {
  appPaths,
  downloadPaths,
  enterpriseSsoPaths,
  legacyPaths,
  mobilePaths,
  passkeyPaths,
  passportPaths,
  profilePaths,
  ssoPaths,
  thirdPartyPaths,
  webPaths,
} from '../protocol/paths';

/** What a call resolves when it declares no data type: the envelope's data. */
export type AccountData = Record<string, unknown>;

/** 'UPLOAD' is a POST sent as multipart/form-data. */
export type CallMethod = 'GET' | 'POST' | 'UPLOAD';

/** The payload may be left out when every field of it is optional. */
export type CallArgs<P> =
  Partial<P> extends P ? [payload?: P, options?: CallOptions] : [payload: P, options?: CallOptions];

/**
 * A call by purpose: `smsLogin(client, { mobile, code })` resolves the call's data type (`AccountInfo`
 * for a sign-in); name another type to narrow or widen it.
 */
export type Call<P, D = AccountData> = <T = D>(client: AccountClient, ...args: CallArgs<P>) => Promise<T>;

type ValueOf<T> = T[keyof T];

/** Every path of the families calls are made of; a typo'd path is a compile error. */
export type CallPath =
  | ValueOf<typeof appPaths>
  | ValueOf<typeof webPaths>
  | ValueOf<typeof passportPaths>
  | ValueOf<typeof legacyPaths>
  | ValueOf<typeof mobilePaths>
  | ValueOf<typeof ssoPaths>
  | ValueOf<typeof profilePaths>
  | ValueOf<typeof downloadPaths>
  | ValueOf<typeof thirdPartyPaths>
  | ValueOf<typeof passkeyPaths>
  | ValueOf<typeof enterpriseSsoPaths>;

/**
 * Declares a call: its path (a path of `@portico/account-sdk/protocol`, written out so that a page
 * carries only the paths it calls), the spec defaults and the method; for the sso flavour, the sso path
 * of the same call (and the name the sso flavour gives the `type` field). An sso client uses the sso
 * path and the sso envelope; every other client, and an sso client for a call with no sso path, the
 * given path and the web envelope. Another package declaring calls on its own paths names their type:
 * `defineCall<P, D, ValueOf<typeof affiliatePaths>>('/passport/aff/web/invite/')`.
 */
export function defineCall<P extends object, D = AccountData, Path extends string = CallPath>(
  path: NoInfer<Path>,
  defaults?: Partial<P> | null,
  method: CallMethod = 'POST',
  ssoPath?: NoInfer<Path>,
  ssoTypeField?: string,
): Call<P, D> {
  return ((client: AccountClient, payload?: P, options?: CallOptions) => {
    const sso = ssoPath && client.source === 'sso';
    const data: Record<string, unknown> = { ...defaults, ...payload };
    if (sso && ssoTypeField) {
      data[ssoTypeField] = data.type;
      delete data.type;
    }
    return client.request({
      ...options,
      path: sso ? ssoPath : path,
      method: method === 'GET' ? method : 'POST',
      multipart: method === 'UPLOAD',
      data,
      envelope: sso ? 'sso' : 'web',
    });
  }) as Call<P, D>;
}
