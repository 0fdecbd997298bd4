import type { RequestConfig } from '../client/types';
import type { AccountError } from '../errors/account-error';
import type { RETRY } from './retry';

/** What a resend changes: merged over the original data, query and headers. */
export interface RetryPatch {
  data?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Returned by a hook to resend the original request; make one with `context.retry(patch)`. */
export interface RetryRequest {
  readonly [RETRY]: RetryPatch;
}

export interface HookContext {
  config: RequestConfig;
  /** Resends the original request with `patch` merged in; return its result from the hook. */
  retry(patch?: RetryPatch): RetryRequest;
}

/** Runs before each attempt; may change `config` (data, query, headers) in place. */
export type BeforeRequestHook = (config: RequestConfig) => void | Promise<void>;

/**
 * Runs after each response that has a body, before the success rule. Return `retry(patch)` to resend,
 * another body to replace it, or nothing.
 */
export type AfterResponseHook = (
  context: HookContext & { response: Response; body: unknown },
) => unknown | Promise<unknown>;

type BeforeErrorResult = AccountError | RetryRequest | undefined;

/**
 * Runs for every failure (envelope, status, network, timeout, abort) before the call rejects. Return
 * `retry(patch)` to resend (the call then settles as the resend does), another AccountError to reject
 * with it, or nothing.
 */
export type BeforeErrorHook = (
  context: HookContext & { error: AccountError },
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook written as `() => {}` returns void, which must type-check.
) => BeforeErrorResult | void | Promise<BeforeErrorResult>;

export interface AccountHooks {
  beforeRequest?: BeforeRequestHook[];
  afterResponse?: AfterResponseHook[];
  beforeError?: BeforeErrorHook[];
}
