// @vitest-environment node
import { AccountError, accountInfo } from '@portico/account-sdk';
import { ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { focusManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  accountRetry,
  accountRetryDelay,
  createAccountQueryClient,
  isTransientError,
  sessionQueryKey,
} from '../src';
import { fail, fakePassport, ok, signedInAccount } from './support/fake-passport';

const failure = (kind: AccountError['kind'], error_code = -1, status?: number) =>
  new AccountError(kind, { error_code, description: '' }, { status });

afterEach(() => {
  focusManager.setFocused(undefined);
});

describe('createAccountQueryClient', () => {
  it('caches and keeps data fresh for 300000 ms, retries with the spec back-off, never retries mutations', () => {
    const queries = createAccountQueryClient().getDefaultOptions().queries!;
    expect(queries.gcTime).toBe(300_000);
    expect(queries.staleTime).toBe(300_000);
    expect(queries.retryDelay).toBe(accountRetryDelay);
    expect(createAccountQueryClient().getDefaultOptions().mutations?.retry).toBe(false);
  });

  it('backs off 1 s, 2 s, 4 s … doubling up to a 30 s cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(accountRetryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('retries network, timeout and 5xx failures, never a business failure or a 4xx refusal', () => {
    expect(isTransientError(failure('network'))).toBe(true);
    expect(isTransientError(failure('timeout'))).toBe(true);
    expect(isTransientError(failure('status', -1, 502))).toBe(true);
    expect(isTransientError(failure('response', ErrorCode.serviceUnavailable, 503))).toBe(true);
    expect(isTransientError(failure('status', -1, 404))).toBe(false);
    expect(isTransientError(failure('response', ErrorCode.wrongCredentials))).toBe(false);
    expect(isTransientError(failure('response', ErrorCode.rateLimited, 429))).toBe(false);
    expect(isTransientError(failure('response', ErrorCode.csrfFailed, 403))).toBe(false);
    expect(isTransientError(failure('aborted'))).toBe(false);
    expect(isTransientError(failure('invalid'))).toBe(false);
    expect(accountRetry(2, failure('network'))).toBe(true);
    expect(accountRetry(3, failure('network'))).toBe(false);
  });

  it('retries a network failure after 1 s and 2 s, then succeeds', async () => {
    vi.useFakeTimers();
    const queryClient = createAccountQueryClient();
    let calls = 0;
    const done = queryClient.fetchQuery({
      queryKey: ['flaky'],
      queryFn: async () => {
        calls++;
        if (calls < 3) throw failure('network');
        return 'ok';
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(3);
    await expect(done).resolves.toBe('ok');
  });

  it('does not retry a business failure from the passport', async () => {
    const passport = fakePassport({ [webPaths.accountInfo]: () => fail(ErrorCode.accountFrozen) });
    const queryClient = createAccountQueryClient();
    await expect(
      queryClient.fetchQuery({ queryKey: ['info'], queryFn: () => accountInfo(passport.client) }),
    ).rejects.toMatchObject({ error_code: ErrorCode.accountFrozen });
    expect(passport.to(webPaths.accountInfo)).toHaveLength(1);
  });

  it('refetches on window focus only when the last fetch is at least 5000 ms old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const passport = fakePassport({ [webPaths.accountInfo]: () => ok(signedInAccount) });
    const queryClient = createAccountQueryClient();
    queryClient.mount(); // as QueryClientProvider does: focus events reach the cache
    const observer = new QueryObserver(queryClient, {
      queryKey: sessionQueryKey,
      queryFn: () => accountInfo(passport.client),
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    expect(passport.received).toHaveLength(1);

    const refocus = () => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    };
    vi.setSystemTime(Date.now() + 4000);
    refocus();
    await Promise.resolve();
    expect(passport.received).toHaveLength(1);

    vi.setSystemTime(Date.now() + 1000);
    refocus();
    await vi.waitFor(() => expect(passport.received).toHaveLength(2));

    // Within 5 s of that refetch: nothing again, although the data is younger than staleTime anyway.
    await vi.waitFor(() => expect(observer.getCurrentResult().isFetching).toBe(false));
    refocus();
    await Promise.resolve();
    expect(passport.received).toHaveLength(2);
    unsubscribe();
    queryClient.unmount();
  });
});
