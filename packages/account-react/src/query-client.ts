import { isAccountError } from '@portico/account-sdk';
import { errorStatus, QUERY_DEFAULTS } from '@portico/account-sdk/protocol';
import { type Query, QueryClient, type QueryClientConfig } from '@tanstack/react-query';

/** Retries a query gets after its first failure, when the failure is transient. */
export const ACCOUNT_QUERY_RETRIES = 3;

/** Back-off before retry number `attempt + 1` (TanStack passes 0 first): 1 s, 2 s, 4 s, … capped at 30 s. */
export function accountRetryDelay(attempt: number): number {
  return Math.min(QUERY_DEFAULTS.retryBaseDelay * 2 ** attempt, QUERY_DEFAULTS.retryMaxDelay);
}

/**
 * Whether trying again may help. An answer the server gave on purpose (a business failure, a 4xx protocol
 * violation such as a CSRF or rate-limit refusal) will be the same next time, and an aborted or refused
 * call was meant to stop: no retry. No response (network, timeout), a response without an envelope
 * from a 5xx or a proxy, or a catalogue error the server answers with a 5xx (service unavailable,
 * internal error): retry. A failure that is not an AccountError is not ours to judge, so it is retried
 * as TanStack would by default.
 */
export function isTransientError(error: unknown): boolean {
  if (!isAccountError(error)) return true;
  switch (error.kind) {
    case 'network':
    case 'timeout':
      return true;
    case 'status':
      return error.status === undefined || error.status >= 500;
    case 'response':
      return (errorStatus(error.error_code) ?? 200) >= 500;
    default:
      return false;
  }
}

/** TanStack's `retry` option: up to `ACCOUNT_QUERY_RETRIES` retries of transient failures only. */
export function accountRetry(failureCount: number, error: unknown): boolean {
  return failureCount < ACCOUNT_QUERY_RETRIES && isTransientError(error);
}

/**
 * TanStack's `refetchOnWindowFocus` option: a focus refetches a query only when its last fetch (data or
 * error) is at least 5000 ms old, so flicking between tabs does not hammer the passport. 'always' skips
 * the staleness check: data is kept fresh for 300000 ms otherwise, and a focus after 5 s should still
 * notice a sign-out made in another tab.
 */
export function refetchOnFocusThrottled(query: Query): boolean | 'always' {
  const last = Math.max(query.state.dataUpdatedAt, query.state.errorUpdatedAt);
  return Date.now() - last >= QUERY_DEFAULTS.focusRefreshInterval ? 'always' : false;
}

/**
 * A QueryClient with the spec's fetch-helper defaults (§9): cached and fresh for 300000 ms (`gcTime`
 * and `staleTime`), refetched on window focus at most every 5000 ms per query, transient failures
 * retried three times after 1 s, 2 s and 4 s (`min(1000 * 2 ** attempt, 30000)`), business failures
 * never. Mutations are not retried: sign-ins spend one-time codes, and a resend after a lost answer
 * could fail a sign-in that had worked. `config` is merged over these defaults.
 */
export function createAccountQueryClient(config: QueryClientConfig = {}): QueryClient {
  const { defaultOptions = {}, ...rest } = config;
  return new QueryClient({
    ...rest,
    defaultOptions: {
      ...defaultOptions,
      queries: {
        gcTime: QUERY_DEFAULTS.cacheTime,
        staleTime: QUERY_DEFAULTS.cacheTime,
        refetchOnWindowFocus: refetchOnFocusThrottled,
        retry: accountRetry,
        retryDelay: accountRetryDelay,
        ...defaultOptions.queries,
      },
      mutations: { retry: false, ...defaultOptions.mutations },
    },
  });
}
