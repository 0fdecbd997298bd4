import type { KyInstance } from 'ky';
import type { CookieDocument, RequestConfig, Signer } from '../client/types';
import { AccountError, isAccountError } from '../errors/account-error';
import { isRetryRequest, RETRY, retryRequest } from '../hooks/retry';
import type { AccountHooks, RetryRequest } from '../hooks/types';
import type { AccountSource } from '../protocol/defaults';
import { CSRF_COOKIE, CSRF_HEADER, LOG_ID_HEADER, SDK_VERSION, SIGNATURE_PARAM } from '../protocol/defaults';
import { failureOf, isSuccess } from '../protocol/envelopes';
import { encodeMixedFields } from '../protocol/mix';
import { readCookie } from './cookie';
import { formBody, multipartBody, toFields } from './form';
import { traceparent } from './traceparent';

/** The resolved client settings the pipeline runs on. */
export interface Transport {
  aid: string;
  source: AccountSource;
  language: string;
  did: string;
  iid: string;
  sourceInfo: string;
  timeout: number;
  printLog: boolean;
  http: KyInstance;
  doc: CookieDocument | undefined;
  fingerprint: () => Promise<string>;
  signer: Signer | undefined;
  hooks: Required<AccountHooks>;
}

interface Exchanged {
  response: Response;
  body: unknown;
  logId: string;
  /** The CSRF token the request carried ('' for none). */
  csrf: string;
}

/** The CSRF token a request carries: the readable cookie, '' when there is none. */
const csrfOf = (t: Transport) => (t.doc && readCookie(t.doc.cookie, CSRF_COOKIE)) || '';

/** Parses a body as JSON; a JSON string holding JSON is parsed again. Anything else stays text. */
function parse(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? parse(value) : value;
  } catch {
    return text;
  }
}

/** One HTTP exchange: common parameters, CSRF, trace, signature, encoding. Never throws. */
async function exchange(t: Transport, config: RequestConfig): Promise<Exchanged | AccountError> {
  const { method, signal } = config;
  const path = config.path.replace('{aid}', t.aid);
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
  const headers: Record<string, string> = { traceparent: traceparent(), ...config.headers };
  const csrf = csrfOf(t);
  if (csrf) headers[CSRF_HEADER] = csrf;
  try {
    const signature = await t.signer?.({
      method,
      url: `${path}?${query}`,
      body: body instanceof URLSearchParams ? `${body}` : undefined,
    });
    if (signature) query.set(SIGNATURE_PARAM, signature);
    const response = await t.http(path, {
      method,
      searchParams: query,
      body,
      headers,
      signal,
      timeout: config.timeout ?? t.timeout,
    });
    const logId = response.headers.get(LOG_ID_HEADER) ?? '';
    if (t.printLog) console.log(`[portico] ${method} ${path} ${LOG_ID_HEADER}: ${logId}`);
    return { response, body: parse(await response.text()), logId, csrf };
  } catch (cause) {
    return new AccountError(
      signal?.aborted ? 'aborted' : (cause as Error)?.name === 'TimeoutError' ? 'timeout' : 'network',
      { error_code: -1, description: '' },
      { config, cause },
    );
  }
}

/**
 * The request pipeline: beforeRequest hooks, the exchange, afterResponse hooks, the success rule,
 * beforeError hooks. A hook returning `retry(patch)` resends the original request with the patch
 * merged in, through the whole pipeline again, and the call settles as the resend does.
 */
export async function send(t: Transport, config: RequestConfig): Promise<unknown> {
  const { hooks } = t;
  for (const hook of hooks.beforeRequest) await hook(config);
  const retry = retryRequest;
  const resend = ({ [RETRY]: patch }: RetryRequest) =>
    send(t, {
      ...config,
      data: { ...config.data, ...patch.data },
      query: { ...config.query, ...patch.query },
      headers: { ...config.headers, ...patch.headers },
      retryCount: config.retryCount + 1,
    });
  let result = await exchange(t, config);
  // A 403 (the passport's CSRF_FAILED) that brought a new token cookie, as when the first call of a page
  // is a POST or the token was bound to an older session: one more exchange, with the new token.
  if (!isAccountError(result) && result.response.status === 403 && result.csrf !== csrfOf(t))
    result = await exchange(t, config);
  let error: AccountError;
  if (isAccountError(result)) error = result;
  else {
    const { response, logId } = result;
    let { body } = result;
    for (const hook of hooks.afterResponse) {
      const out = await hook({ config, retry, response, body });
      if (isRetryRequest(out)) return resend(out);
      if (out !== undefined) body = out;
    }
    if (isSuccess(config.envelope, body)) return (body as { data: unknown }).data;
    const failure = failureOf(body);
    error = new AccountError(failure.error_code >= 0 ? 'response' : 'status', failure, {
      config,
      log_id: logId,
      status: response.status,
    });
  }
  for (const hook of hooks.beforeError) {
    const out = await hook({ config, retry, error });
    if (isRetryRequest(out)) return resend(out);
    if (isAccountError(out)) error = out;
  }
  throw error;
}
