import { type AccountClient, defineCall, isAccountError } from '@portico/account-sdk';
import { ErrorCode, type MonitorDashboardData, type WaitlistListData } from '@portico/account-sdk/protocol';
import { queryOptions } from '@tanstack/react-query';
import { useAccountMutation } from '../account-mutation';
import { accountQueryKeys } from '../query-keys';
import { useTouchingMutation } from '../touching-mutation';

/*
 * The operator's and the developer's pages: the monitoring dashboard and the waitlist
 * (docs/monitoring.md), the developer console's apps (docs/open-authorization.md). Their calls are
 * declared here, not in the SDK: these pages are their only callers.
 */

/** The dashboard's filters: a range of `YYYY-MM-DD` days, an app and a flavour (empty for all). */
export interface MonitoringFilters {
  from?: string;
  to?: string;
  app?: string;
  flavour?: string;
}

/** One scope an app may ask for, as the developer console offers it. */
export interface DeveloperScope {
  name: string;
  zh: string;
  en: string;
}
/** One app the signed-in developer registered. */
export interface DeveloperApp {
  client_key: string;
  app_name: string;
  app_icon: string;
  redirect_uris: string[];
  scopes: string[];
  created_at: number;
  authorized_count: number;
}
export interface DeveloperApps {
  apps: DeveloperApp[];
  scopes: DeveloperScope[];
}
/** An app with its secret: the answer of registering or rotating, shown once. */
export type DeveloperAppWithSecret = DeveloperApp & { client_secret: string };
/** Registering an app: its redirect URIs one a line, its scopes space-separated. */
export interface RegisterDeveloperApp {
  app_name: string;
  app_icon?: string;
  redirect_uris: string;
  scopes: string;
}

const getDashboard = defineCall<MonitoringFilters, MonitorDashboardData, string>(
  '/monitor/dashboard/',
  null,
  'GET',
);
const listWaitlist = defineCall<{ state?: string }, WaitlistListData, string>(
  '/passport/web/waitlist/list/',
  null,
  'GET',
);
const admitWaitlist = defineCall<{ id: string }, object, string>('/passport/web/waitlist/admit/');
const listApps = defineCall<object, DeveloperApps, string>('/passport/web/developer/apps/', null, 'GET');
const createApp = defineCall<RegisterDeveloperApp, DeveloperAppWithSecret, string>(
  '/passport/web/developer/apps/create/',
);
const rotateSecret = defineCall<{ client_key: string }, DeveloperAppWithSecret, string>(
  '/passport/web/developer/apps/rotate_secret/',
);
const deleteApp = defineCall<{ client_key: string }, DeveloperApps, string>(
  '/passport/web/developer/apps/delete/',
);

const MONITORING = [...accountQueryKeys.all, 'monitoring'] as const;

/** Keys of the operator's and the developer's queries (under `accountQueryKeys.all`: a sign-out drops them). */
export const operatorQueryKeys = {
  monitoring: MONITORING,
  dashboard: (filters: MonitoringFilters) => [...MONITORING, 'dashboard', filters] as const,
  waitlist: [...MONITORING, 'waitlist'] as const,
  developerApps: [...accountQueryKeys.all, 'developer-apps'] as const,
};

/** Null when the account is not an operator (the page then says so); other failures are failures. */
async function orNotOperator<D>(call: Promise<D>): Promise<D | null> {
  try {
    return await call;
  } catch (error) {
    if (isAccountError(error, 'response') && error.error_code === ErrorCode.notAnOperator) return null;
    throw error;
  }
}

/** The monitoring dashboard for a range of days (`null`: not an operator). Empty filters are left out. */
export const monitoringDashboardQueryOptions = (client: AccountClient, filters: MonitoringFilters) =>
  queryOptions({
    queryKey: operatorQueryKeys.dashboard(filters),
    queryFn: ({ signal }) =>
      orNotOperator(
        getDashboard(
          client,
          Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as MonitoringFilters,
          { signal },
        ),
      ),
  });

/** The waiting entries of the waitlist (`null`: not an operator). */
export const waitlistQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: operatorQueryKeys.waitlist,
    queryFn: ({ signal }) => orNotOperator(listWaitlist(client, { state: 'waiting' }, { signal })),
  });

/** Admits one waiting entry: the waitlist refreshes. */
export const useAdmitWaitlist = () =>
  useTouchingMutation(
    (client, id: string) => admitWaitlist(client, { id }),
    () => [operatorQueryKeys.waitlist],
  );

/** The developer's apps and the scopes an app may ask for. */
export const developerAppsQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: operatorQueryKeys.developerApps,
    queryFn: ({ signal }) => listApps(client, {}, { signal }),
  });

/** Registers an app; the answer carries its secret, shown once. The list refreshes. */
export const useRegisterDeveloperApp = () =>
  useTouchingMutation(
    (client, app: RegisterDeveloperApp) => createApp(client, app),
    () => [operatorQueryKeys.developerApps],
  );

/** A new secret for an app (the old one stops working); nothing listed changes. */
export const useRotateDeveloperSecret = () =>
  useTouchingMutation(
    (client, client_key: string) => rotateSecret(client, { client_key }),
    () => [],
  );

/** Deletes an app (its authorisations end with it): the answer is the list, put in the cache as it is. */
export const useDeleteDeveloperApp = () =>
  useAccountMutation(
    (client, client_key: string) => deleteApp(client, { client_key }),
    async (queryClient, apps) => queryClient.setQueryData(operatorQueryKeys.developerApps, apps),
  );
