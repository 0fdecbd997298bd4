import { AccountProvider, createAccountQueryClient } from '@portico/account-react';
import type { AccountClient } from '@portico/account-sdk';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { type AuthRoutesOptions, createAuthRoutes } from '../../src';

/**
 * An app as small as it gets: the auth routes beside a page that shows where the browser landed,
 * in a memory router, inside the account provider. Loaders and hooks share one QueryClient.
 */
export function renderAuthApp(
  client: AccountClient,
  at: string,
  options: Partial<AuthRoutesOptions> = {},
  language: 'zh' | 'en' = 'zh',
) {
  const queryClient = createAccountQueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/',
        children: [
          ...createAuthRoutes({ client, queryClient, ...options }),
          { path: '*', Component: () => <p>landed</p> },
        ],
      },
    ],
    { initialEntries: [at] },
  );
  render(
    <AccountProvider client={client} queryClient={queryClient} language={language} secondVerify={false}>
      <RouterProvider router={router} />
    </AccountProvider>,
  );
  return { router, queryClient };
}
