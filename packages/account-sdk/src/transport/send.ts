import ky, { type KyInstance, type Options } from 'ky';
import type { CookieDocument, RequestConfig, Signer } from '../client/types';
import { AccountError, isAccountError } from '../errors/account-error';
import type { AccountCall, AccountHooks, RetryPatch } from '../hooks/types';
import type { AccountSource } from '../protocol/defaults';
import { CSRF_COOKIE, CSRF_HEADER, LOG_ID_HEADER, SDK_VERSION, SIGNATURE_PARAM } from '../protocol/defaults';
import { failureOf, isSuccess } from '../protocol/envelopes';
import { encodeMixedFields } from '../protocol/mix';
import { readCookie } from './cookie';
import { formBody, multipartBody, toFields } from './form';
import { traceparent } from './traceparent';

/** The resolved client settings every call runs on. */
export interface Transport {
  aid: string;
  source: AccountSource;
  language: string;
  did: string;
  iid: string;
  sourceInfo: string;
  printLog: boolean;
  /** ky, with the base URL, fetch, credentials, timeout and forced retries only. */
  http: KyInstance;
  doc: CookieDocument | undefined;
  fingerprint: () => Promise<string>;
  signer: Signer | undefined;
  /** The plugins' hooks, live: `client.use` adds to them. */
  hooks: Required<AccountHooks>;
}

/** Where a call's state rides through ky: its `context` option. */
const CALL = 'portico';

interface Call extends AccountCall {
  config: RequestConfig;
  /** The resolved data of a success, set by the last afterResponse hook. */
  data?: unknown;
  csrfRenewed?: boolean;
  /** The URL ky resolved for the path (base URL and path, no query). */
  url: string;
  /** Headers a `beforeRequest` hook set on ky's request: every attempt carries them. */
  headers?: Record<string, string>;
}

/** The call of a hook's state: its config, the parsed envelope and `resend`. */
export const accountCall = (state: { options: { context: Record<string, unknown> } }): AccountCall =>
  state.options.context[CALL] as AccountCall;

/** Parses a body as JSON; a JSON string holding JSON is parsed again. Anything else stays text. */
function parse(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? parse(value) : value;
  } catch {
    return text;
  }
}

const pathOf = (t: Transport, config: RequestConfig) => config.path.replace('{aid}', t.aid);

const csrfOf = (t: Transport) => (t.doc && readCookie(t.doc.cookie, CSRF_COOKIE)) || '';

/** The request of a config: common parameters, fingerprint, mix encoding, CSRF, trace and signature. */
async function encode(
  t: Transport,
  config: RequestConfig,
  call: Call,
  signal: AbortSignal | null,
): Promise<Request> {
  const { method } = config;
  const path = pathOf(t, config);
  const get = method === 'GET';
  const data = encodeMixedFields(toFields(config.data));
  const query = new URLSearchParams(
    toFields({
      aid: t.aid,
      account_sdk_source: t.source,
      sdk_version: SDK_VERSION,
      language: t.language,
      did: t.did,
      iid: t.iid,
      verifyFp: await t.fingerprint(),
      account_sdk_source_info: t.sourceInfo,
      ...(get && data),
      ...config.query,
    }) as Record<string, string>,
  );
  const body = get ? undefined : config.multipart ? multipartBody(data) : formBody(data);
  const headers: Record<string, string> = { ...call.headers, traceparent: traceparent(), ...config.headers };
  const csrf = csrfOf(t);
  if (csrf) headers[CSRF_HEADER] = csrf;
  const signature = await t.signer?.({
    method,
    url: `${path}?${query}`,
    body: body instanceof URLSearchParams ? `${body}` : undefined,
  });
  if (signature) query.set(SIGNATURE_PARAM, signature);
  return new Request(`${call.url.replace(/\?.*$/, '')}?${query}`, {
    method,
    body,
    headers,
    credentials: 'include',
    signal,
  });
}

/**
 * Sends one call through ky. The SDK's own steps are ky hooks around the plugins': `beforeRequest`
 * encodes the config after the plugins had their say; `afterResponse` first renews a stale CSRF token
 * once (a 403 that brought a new token cookie), then runs the plugins (which may resend through
 * `ky.retry()`), then applies the success rule and rejects with an AccountError; `beforeError` turns
 * ky's errors (timeout, network) into AccountErrors before the plugins see them.
 */
export async function send(t: Transport, config: RequestConfig): Promise<unknown> {
  const { hooks } = t;
  const call: Call = {
    config,
    url: '',
    body: async (response) => parse(await response.clone().text()),
    resend: async (patch: RetryPatch = {}) => {
      call.config = config = {
        ...config,
        data: { ...config.data, ...patch.data },
        query: { ...config.query, ...patch.query },
        headers: { ...config.headers, ...patch.headers },
        retryCount: config.retryCount + 1,
      };
      return ky.retry({ request: await encode(t, config, call, null), delay: 0, code: 'RESEND' });
    },
  };
  const options: Options = {
    method: config.method,
    signal: config.signal,
    context: { [CALL]: call },
    hooks: {
      beforeRequest: [
        ...hooks.beforeRequest,
        async ({ request }) => {
          call.url = request.url;
          call.headers = Object.fromEntries(request.headers);
          return encode(t, call.config, call, request.signal);
        },
      ],
      afterResponse: [
        async ({ request, response }) => {
          if (response.status !== 403 || call.csrfRenewed || request.headers.get(CSRF_HEADER) === csrfOf(t))
            return;
          call.csrfRenewed = true;
          return ky.retry({ request: await encode(t, call.config, call, null), delay: 0, code: 'CSRF' });
        },
        ...hooks.afterResponse,
        async ({ request, response }) => {
          const logId = response.headers.get(LOG_ID_HEADER) ?? '';
          if (t.printLog)
            console.log(`[portico] ${request.method} ${config.path} ${LOG_ID_HEADER}: ${logId}`);
          const body = await call.body(response);
          if (isSuccess(call.config.envelope, body)) {
            call.data = (body as { data: unknown }).data;
            return;
          }
          const failure = failureOf(body);
          throw new AccountError(failure.error_code >= 0 ? 'response' : 'status', failure, {
            config: call.config,
            log_id: logId,
            status: response.status,
          });
        },
      ],
      beforeRetry: hooks.beforeRetry,
      beforeError: [({ error }) => accountErrorOf(error, call.config), ...hooks.beforeError],
    },
  };
  if (config.timeout !== undefined) options.timeout = config.timeout;
  try {
    await t.http(pathOf(t, config), options);
  } catch (error) {
    throw accountErrorOf(error, call.config);
  }
  return call.data;
}

/** Any failure of a call as an AccountError: ky's TimeoutError, an abort, or a network failure. */
function accountErrorOf(error: unknown, config: RequestConfig): AccountError {
  if (isAccountError(error)) return error;
  const name = (error as Error)?.name;
  return new AccountError(
    config.signal?.aborted ? 'aborted' : name === 'TimeoutError' ? 'timeout' : 'network',
    { error_code: -1, description: '' },
    { config, cause: error },
  );
}
