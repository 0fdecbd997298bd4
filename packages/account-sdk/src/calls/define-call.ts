import type { AccountClient, CallOptions } from '../client/types';
import type {
  downloadPaths,
  legacyPaths,
  mobilePaths,
  passportPaths,
  profilePaths,
  ssoPaths,
  webPaths,
} from '../protocol/paths';

/** What a call resolves when you name no type: the envelope's data. */
export type AccountData = Record<string, unknown>;

/** 'UPLOAD' is a POST sent as multipart/form-data. */
export type CallMethod = 'GET' | 'POST' | 'UPLOAD';

/** The payload may be left out when every field of it is optional. */
export type CallArgs<P> =
  Partial<P> extends P ? [payload?: P, options?: CallOptions] : [payload: P, options?: CallOptions];

/** A call by purpose: `smsLogin(client, { mobile, code })`. Name the data type to narrow the result. */
export type Call<P, D = AccountData> = <T = D>(client: AccountClient, ...args: CallArgs<P>) => Promise<T>;

/** A path family of `@portico/account-sdk/protocol` (`webPaths`, `ssoPaths`, …). */
export type PathFamily = Readonly<Record<string, string>>;

/** Every key of the families calls are made of; catches a typo'd key at compile time. */
export type CallPathKey =
  | keyof typeof webPaths
  | keyof typeof passportPaths
  | keyof typeof legacyPaths
  | keyof typeof mobilePaths
  | keyof typeof ssoPaths
  | keyof typeof profilePaths
  | keyof typeof downloadPaths;

/**
 * Declares a call: the path (a family from the protocol and a key in it), the spec defaults and the
 * method; for the sso flavour, the sso family holding the same key (and the name the sso flavour gives
 * the `type` field). An sso client uses the sso path and the sso envelope; every other client, and an
 * sso client for a call with no sso path, the given path and the web envelope. The path is looked up
 * when the call runs, so an unused call costs a bundle nothing. Another package declaring calls on its
 * own family names its keys: `defineCall<P, D, keyof typeof affiliatePaths>(affiliatePaths, 'invite')`.
 */
export function defineCall<P extends object, D = AccountData, K extends string = CallPathKey>(
  family: PathFamily,
  key: K,
  defaults?: Partial<P> | null,
  method: CallMethod = 'POST',
  ssoFamily?: PathFamily,
  ssoTypeField?: string,
): Call<P, D> {
  return ((client: AccountClient, payload?: P, options?: CallOptions) => {
    const sso = ssoFamily && client.source === 'sso';
    const data: Record<string, unknown> = { ...defaults, ...payload };
    if (sso && ssoTypeField) {
      data[ssoTypeField] = data.type;
      delete data.type;
    }
    return client.request({
      ...options,
      path: (sso ? ssoFamily : family)[key]!,
      method: method === 'GET' ? method : 'POST',
      multipart: method === 'UPLOAD',
      data,
      envelope: sso ? 'sso' : 'web',
    });
  }) as Call<P, D>;
}
