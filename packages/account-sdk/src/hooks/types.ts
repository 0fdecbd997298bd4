import type { AfterResponseHook, BeforeErrorHook, BeforeRequestHook, BeforeRetryHook } from 'ky';
import type { AccountClient, RequestConfig } from '../client/types';

export type { AfterResponseHook, BeforeErrorHook, BeforeRequestHook, BeforeRetryHook };

/**
 * ky's own hooks, run inside every call's exchange (see ky's README). What the SDK adds is in
 * `accountCall(state)`: the call's `config` (a `beforeRequest` hook may change its data, query and
 * headers before they are encoded), the parsed envelope, and `resend(patch)` for an `afterResponse`
 * hook. A `beforeError` hook sees every rejection as an `AccountError` and may return another.
 */
export interface AccountHooks {
  beforeRequest?: BeforeRequestHook[];
  afterResponse?: AfterResponseHook[];
  beforeRetry?: BeforeRetryHook[];
  beforeError?: BeforeErrorHook[];
}

/** What a resend changes: merged over the original data, query and headers. */
export interface RetryPatch {
  data?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * What attaches to a client: the challenge, second verification, and next the monitor and the
 * organisation SDK. `client.use(plugin)` calls `setup(client)` and adds the hooks it returns after the
 * client's own; the function `use` returns removes them.
 */
export interface AccountPlugin {
  /** One plugin of a name per client: using a second throws until the first is removed. */
  readonly name: string;
  setup(client: AccountClient): AccountHooks;
}

/** A call as a hook sees it, from `accountCall(state)`. */
export interface AccountCall {
  /** The request as the call made it; 0 in `retryCount` for the first attempt, one more per resend. */
  readonly config: RequestConfig;
  /** The envelope of a response, parsed (a JSON string holding JSON is parsed again); other bodies as text. */
  body(response: Response): Promise<unknown>;
  /**
   * Resends the call with `patch` merged into its data, query and headers, through ky's forced retry:
   * return it from an `afterResponse` hook (`return call.resend({ data: { isResend: 1 } })`). The call
   * then settles as the resend does.
   */
  resend(patch?: RetryPatch): Promise<ReturnType<typeof import('ky').default.retry>>;
}
