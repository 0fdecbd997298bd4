import type { AccountClient, ChallengeCaptcha } from '@portico/account-sdk';
import type { QueryClient } from '@tanstack/react-query';
import {
  type RenderHookResult,
  type RenderOptions,
  type RenderResult,
  render,
  renderHook,
} from '@testing-library/react';
import { type ReactNode, StrictMode } from 'react';
import { type AccountLanguage, AccountProvider, createAccountQueryClient } from '../../src';

export interface ProviderOptions {
  client: AccountClient;
  queryClient?: QueryClient;
  language?: AccountLanguage;
  captcha?: ChallengeCaptcha | false;
  strict?: boolean;
}

/** A fresh query client per test, with the package defaults but no retries (tests assert single calls). */
export function testQueryClient(): QueryClient {
  return createAccountQueryClient({ defaultOptions: { queries: { retry: false } } });
}

export function wrapper({ client, queryClient, language, captcha, strict = true }: ProviderOptions) {
  const qc = queryClient ?? testQueryClient();
  function Wrapper({ children }: { children: ReactNode }) {
    const tree = (
      <AccountProvider client={client} queryClient={qc} language={language} captcha={captcha}>
        {children}
      </AccountProvider>
    );
    return strict ? <StrictMode>{tree}</StrictMode> : tree;
  }
  return { Wrapper, queryClient: qc };
}

export function renderWithAccount(
  ui: ReactNode,
  options: ProviderOptions,
  renderOptions?: RenderOptions,
): RenderResult & { queryClient: QueryClient } {
  const { Wrapper, queryClient } = wrapper(options);
  return { ...render(ui, { wrapper: Wrapper, ...renderOptions }), queryClient };
}

export function renderAccountHook<T>(
  hook: () => T,
  options: ProviderOptions,
): RenderHookResult<T, unknown> & { queryClient: QueryClient } {
  const { Wrapper, queryClient } = wrapper(options);
  return { ...renderHook(hook, { wrapper: Wrapper }), queryClient };
}
