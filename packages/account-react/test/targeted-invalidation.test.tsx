import { webPaths } from '@portico/account-sdk/protocol';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  accountQueryKeys,
  operatorQueryKeys,
  organisationQueryKeys,
  profileQueryKeys,
  useAdmitWaitlist,
  useBindMobile,
  useDeleteDeveloperApp,
  useRegisterDeveloperApp,
  useUpdatePassword,
} from '../src';
import { fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderAccountHook } from './support/render';

/** Every account query a page may hold, seeded (no observer, so nothing refetches by itself). */
const SEEDED: Record<string, QueryKey> = {
  session: accountQueryKeys.session,
  hasPassword: accountQueryKeys.hasPassword,
  devices: accountQueryKeys.devices,
  activity: [...accountQueryKeys.activity, ''],
  thirdParty: accountQueryKeys.thirdParty,
  profile: profileQueryKeys.profile,
  cancelWays: profileQueryKeys.cancelWays,
  members: organisationQueryKeys.members('s1'),
  dashboard: operatorQueryKeys.dashboard({}),
  waitlist: operatorQueryKeys.waitlist,
  developerApps: operatorQueryKeys.developerApps,
  /** Not the account's: an app's own query. */
  appOwn: ['app', 'news'],
};

function seed(queryClient: QueryClient) {
  for (const key of Object.values(SEEDED)) queryClient.setQueryData(key, { seeded: true });
}

/** The names of the seeded queries a change marked stale. */
const invalidated = (queryClient: QueryClient) =>
  Object.entries(SEEDED)
    .filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();

const passport = () =>
  fakePassport({
    [webPaths.passwordUpdate]: () => ok({}),
    '/passport/web/mobile/bind/': () => ok({ ...signedInAccount, kicked_sessions: 0, moved: false }),
    '/passport/web/waitlist/admit/': () => ok({}),
    '/passport/web/developer/apps/create/': () => ok({ client_key: 'k1', client_secret: 's' }),
    '/passport/web/developer/apps/delete/': () => ok({ apps: [], scopes: [] }),
  });

function run<T>(hook: () => T) {
  const fake = passport();
  const rendered = renderAccountHook(hook, { client: fake.client, strict: false });
  seed(rendered.queryClient);
  return { ...rendered, fake };
}

describe('a change refreshes the queries it touches, never everything', () => {
  it('a password change: the session, whether there is a password, and the activity', async () => {
    const { result, queryClient } = run(useUpdatePassword);
    await act(() => result.current.mutateAsync({ current_password: 'old phrase', password: 'new phrase' }));
    expect(invalidated(queryClient)).toEqual(['activity', 'hasPassword', 'session']);
  });

  it('an identifier bound: the session, the activity and the ways to prove a cancellation', async () => {
    const { result, queryClient } = run(useBindMobile);
    await act(() => result.current.mutateAsync({ mobile: '+8613800000000', code: '1234' }));
    expect(invalidated(queryClient)).toEqual(['activity', 'cancelWays', 'session']);
  });

  it('admitting from the waitlist: the waitlist only', async () => {
    const { result, queryClient, fake } = run(useAdmitWaitlist);
    await act(() => result.current.mutateAsync('w1'));
    expect(fake.to('/passport/web/waitlist/admit/')[0]?.body).toMatchObject({ id: 'w1' });
    expect(invalidated(queryClient)).toEqual(['waitlist']);
  });

  it('registering an app: the developer’s apps only', async () => {
    const { result, queryClient } = run(useRegisterDeveloperApp);
    const app = await act(() =>
      result.current.mutateAsync({ app_name: 'Club', redirect_uris: 'https://club.test/cb', scopes: '' }),
    );
    expect(app).toMatchObject({ client_secret: 's' });
    expect(invalidated(queryClient)).toEqual(['developerApps']);
  });

  it('deleting an app: its answer becomes the list, nothing is refetched', async () => {
    const { result, queryClient } = run(useDeleteDeveloperApp);
    await act(() => result.current.mutateAsync('k1'));
    expect(queryClient.getQueryData(operatorQueryKeys.developerApps)).toEqual({ apps: [], scopes: [] });
    expect(invalidated(queryClient)).toEqual([]);
  });
});
