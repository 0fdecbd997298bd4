import { appPaths, ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { switchMember } from '@portico/affiliate-sdk';
import { affiliatePaths } from '@portico/affiliate-sdk/protocol';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLogout, useSession, useUserToken } from '../src';
import { fail, fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderAccountHook } from './support/render';

describe('useUserToken', () => {
  it('mints the product token while signed in, and none while signed out', async () => {
    let signedIn = true;
    let minted = 0;
    const passport = fakePassport({
      [webPaths.accountInfo]: () => (signedIn ? ok(signedInAccount) : fail(ErrorCode.notLoggedIn)),
      [appPaths.GetUserToken]: () => {
        minted += 1;
        return ok({
          token: `jwt-${minted}`,
          token_type: 'Bearer',
          expires_in: 300,
          expires_at: Date.now() + 300_000,
        });
      },
      [webPaths.logout]: () => {
        signedIn = false;
        return ok({});
      },
    });
    const { result } = renderAccountHook(
      () => ({ token: useUserToken(), session: useSession(), logout: useLogout() }),
      { client: passport.client },
    );
    await waitFor(() => expect(result.current.token.data?.token).toBe('jwt-1'));
    expect(passport.to(appPaths.GetUserToken)).toHaveLength(1);

    await act(() => result.current.logout.mutateAsync({}));
    await waitFor(() => expect(result.current.session.data).toBeNull());
    // Keyed by the account: signed out, the hook holds no token and mints none.
    expect(result.current.token.data).toBeUndefined();
    expect(passport.to(appPaths.GetUserToken)).toHaveLength(1);
  });

  it("mints a new token when the person acts as another identity, never the old identity's", async () => {
    let org: undefined | { user_identity_id: string };
    let minted = 0;
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok({ ...signedInAccount, ...(org ? { org } : {}) }),
      [appPaths.GetUserToken]: () => {
        minted += 1;
        return ok({
          token: `jwt-${minted}`,
          token_type: 'Bearer',
          expires_in: 300,
          expires_at: Date.now() + 300_000,
        });
      },
      [affiliatePaths.memberSwitch]: () => {
        org = { user_identity_id: 'identity-7' };
        return ok({ ...signedInAccount, org });
      },
    });
    const { result } = renderAccountHook(() => ({ token: useUserToken(), session: useSession() }), {
      client: passport.client,
    });
    await waitFor(() => expect(result.current.token.data?.token).toBe('jwt-1'));

    // The switch made through the SDK directly (not the React hook), then the session read again.
    await switchMember(passport.client, { to_sec_member_id: 'identity-7' });
    await act(() => result.current.session.refetch());
    await waitFor(() => expect(result.current.token.data?.token).toBe('jwt-2'));
    expect(passport.to(appPaths.GetUserToken)).toHaveLength(2);
  });
});
