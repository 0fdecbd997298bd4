import ky, { type KyInstance, type Options } from 'ky';
import type { CookieDocument, RequestConfig, Signer } from '../client/types';
import { AccountError, isAccountError } from '../errors/account-error';
import type { AccountCall, AccountHooks, RetryPatch } from '../hooks/types';
import { CSRF_COOKIE, CSRF_HEADER, LOG_ID_HEADER, SIGNATURE_PARAM } from '../protocol/defaults';
import { failureOf, isSuccess } from '../protocol/envelopes';
import { encodeMixedFields } from '../protocol/mix';
import { readCookie } from './cookie';
import { formBody, multipartBody, toFields } from './form';
import { traceparent } from './traceparent';

/** The resolved client settings every call runs on. */
export interface Transport {
  aid: string;
  /** The common query parameters but `verifyFp`: aid, source, sdk version, language, did, iid, source info. */
  common: Record<string, string>;
  printLog: boolean;
  /** ky, with the base URL, fetch, credentials, timeout and forced retries only. */
  http: KyInstance;
  doc: CookieDocument | undefined;
  fingerprint: () => Promise<string>;
  signer: Signer | undefined;
  /** The client's hooks and each plugin's, live: `client.use` adds to them. */
  hooks: Map<unknown, AccountHooks>;
}

/** Where a call's state rides through ky: its `context` option. */
const CALL = 'portico';

interface Call extends Omit<AccountCall, 'resend'> {
  config: RequestConfig;
  /** Resends the call as `call.config` now says, as ky's forced retry with this code. */
  retry(code: string): ReturnType<AccountCall['resend']>;
  /** Added by `accountCall`: only pages with a hook that may resend carry it. */
  resend?: AccountCall['resend'];
  /** The URL ky resolved for the path (base URL and path, no query). */
  url: string;
  /** Headers a `beforeRequest` hook set on ky's request: every attempt carries them. */
  headers?: Record<string, string>;
}

/** The call of a hook's state: its config, the parsed envelope and `resend`. */
export function accountCall(state: { options: { context: Record<string, unknown> } }): AccountCall {
  const call = state.options.context[CALL] as Call;
  call.resend ??= (patch: RetryPatch = {}) => {
    const { config } = call;
    call.config = {
      ...config,
      data: { ...config.data, ...patch.data },
      query: { ...config.query, ...patch.query },
      headers: { ...config.headers, ...patch.headers },
      retryCount: config.retryCount + 1,
    };
    return call.retry('RESEND');
  };
  return call as AccountCall;
}

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

/** The request of a call: common parameters, fingerprint, mix encoding, CSRF, trace and signature. */
async function encode(t: Transport, call: Call, signal: AbortSignal | null = null): Promise<Request> {
  const { config } = call;
  const { method } = config;
  const get = method === 'GET';
  const data = encodeMixedFields(toFields(config.data));
  const query = new URLSearchParams(
    toFields({
      ...t.common,
      verifyFp: await t.fingerprint(),
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
    url: `${pathOf(t, config)}?${query}`,
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
  const hooks = <K extends keyof AccountHooks>(key: K) =>
    [...t.hooks.values()].flatMap((added) => (added[key] ?? []) as unknown[]) as Required<AccountHooks>[K];
  let csrfRenewed = false;
  let data: unknown;
  const call: Call = {
    config,
    url: '',
    body: async (response) => parse(await response.clone().text()),
    retry: async (code) => ky.retry({ request: await encode(t, call), delay: 0, code }),
  };
  const failed = (error: unknown) => accountErrorOf(error, call.config);
  const options: Options = {
    method: config.method,
    signal: config.signal,
    context: { [CALL]: call },
    hooks: {
      beforeRequest: [
        ...hooks('beforeRequest'),
        ({ request }) => {
          call.url = request.url;
          call.headers = Object.fromEntries(request.headers);
          return encode(t, call, request.signal);
        },
      ],
      afterResponse: [
        ({ request, response }) => {
          if (response.status !== 403 || csrfRenewed || request.headers.get(CSRF_HEADER) === csrfOf(t))
            return;
          csrfRenewed = true;
          return call.retry('CSRF');
        },
        ...hooks('afterResponse'),
        async ({ request, response }) => {
          const logId = response.headers.get(LOG_ID_HEADER) ?? '';
          if (t.printLog)
            console.log(`[portico] ${request.method} ${config.path} ${LOG_ID_HEADER}: ${logId}`);
          // A binary call's file: a success that is no envelope.
          if (config.binary && response.ok && !/json/.test(`${response.headers.get('content-type')}`)) {
            data = await response.blob();
            return;
          }
          const body = await call.body(response);
          if (isSuccess(call.config.envelope, body)) {
            data = (body as { data: unknown }).data;
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
      beforeRetry: hooks('beforeRetry'),
      beforeError: [({ error }) => failed(error), ...hooks('beforeError')],
    },
  };
  if (config.timeout !== undefined) options.timeout = config.timeout;
  try {
    await t.http(pathOf(t, config), options);
  } catch (error) {
    throw failed(error);
  }
  return data;
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
