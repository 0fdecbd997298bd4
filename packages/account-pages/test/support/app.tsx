import { AccountProvider, createAccountQueryClient } from '@portico/account-react';
import type { AccountClient } from '@portico/account-sdk';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { type AuthRoutesOptions, createAuthRoutes, type LanguageStore, useLanguageStore } from '../../src';

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
  const queryClient = quietQueryClient();
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
  if (options.languageStore) {
    // As an app mounts it (app/mount-app): the provider's language is the store's.
    const store = options.languageStore;
    render(
      <FromStore
        store={store}
        client={client}
        queryClient={queryClient}
        ui={<RouterProvider router={router} />}
      />,
    );
  } else renderInProvider(client, <RouterProvider router={router} />, language, queryClient);
  return { router, queryClient };
}

function FromStore(props: {
  store: LanguageStore;
  client: AccountClient;
  queryClient: ReturnType<typeof quietQueryClient>;
  ui: ReactNode;
}) {
  const language = useLanguageStore(props.store);
  return (
    <AccountProvider
      client={props.client}
      queryClient={props.queryClient}
      language={language}
      secondVerify={false}
    >
      {props.ui}
    </AccountProvider>
  );
}

/** A query client that does not retry: a failed answer shows at once. */
const quietQueryClient = () => createAccountQueryClient({ defaultOptions: { queries: { retry: false } } });

/** `ui` inside the account provider of `client`, without the second-verification overlay. */
export function renderInProvider(
  client: AccountClient,
  ui: ReactNode,
  language: 'zh' | 'en' = 'zh',
  queryClient = quietQueryClient(),
) {
  render(
    <AccountProvider client={client} queryClient={queryClient} language={language} secondVerify={false}>
      {ui}
    </AccountProvider>,
  );
  return queryClient;
}
