import { AccountProvider, createAccountQueryClient } from '@portico/account-react';
import { openPaths, webPaths } from '@portico/account-sdk/protocol';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { AuthorizedApps } from '../src';
import { renderAuthApp } from './support/app';

/** The open family answers the auth envelope. */
const auth = (data: unknown) => ({ status_code: 0, data });

const info = (user: unknown) => ({
  client_key: 'c1',
  app_name: 'Video Club',
  app_icon: '',
  scope: [{ name: 'user_info', zh: '获取你的昵称和头像', en: 'Read your name and picture' }],
  optionalScope: [{ name: 'video.list', zh: '读取你的视频列表', en: 'Read your video list' }],
  user,
});

describe('the consent page (/authorization)', () => {
  it('shows the app and its scopes; an optional scope switched off is left out of the approval', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [openPaths.authInfoV2]: () => auth(info({ user_id: '42', name: 'Ada', avatar_url: '' })),
      [openPaths.webAuth]: () => auth({ redirect_url: 'about:blank' }),
    });
    renderAuthApp(passport.client, '/authorization?interaction=i-1', { authorization: true }, 'en');
    const user = userEvent.setup();
    expect(await screen.findByText('Video Club wants to use your Portico account')).toBeTruthy();
    expect(screen.getByText('Read your name and picture')).toBeTruthy();
    expect(screen.getByText(/Signed in as Ada/)).toBeTruthy();
    const optional = screen.getByRole('switch', { name: 'Read your video list' });
    expect((optional as HTMLInputElement).checked).toBe(true);
    await user.click(optional);
    expect((optional as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(passport.to(openPaths.webAuth)).toHaveLength(1));
    expect(passport.to(openPaths.webAuth)[0]?.body).toMatchObject({
      interaction: 'i-1',
      approve: '1',
      scope: '',
    });
    expect(passport.to(openPaths.authInfoV2)[0]?.query).toMatchObject({ interaction: 'i-1' });
  });

  it('asks a signed-out person to sign in first (zh): the sign-in panel, no Approve', async () => {
    const passport = fakePassport({
      [openPaths.authInfoV2]: () => auth(info(null)),
    });
    renderAuthApp(passport.client, '/authorization?interaction=i-2', { authorization: true });
    expect(await screen.findByText('请先登录，再决定是否授权')).toBeTruthy();
    expect(screen.getByRole('tab', { name: '验证码登录' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '同意授权' })).toBeNull();
  });

  it('says the request is invalid without an interaction', async () => {
    renderAuthApp(fakePassport({}).client, '/authorization', { authorization: true });
    expect(await screen.findByText('授权请求无效或已过期，请回到应用重新发起。')).toBeTruthy();
  });
});

describe('the authorised apps (account centre)', () => {
  it('lists the apps and revokes one', async () => {
    let apps = [
      { client_key: 'c1', app_name: 'Video Club', app_icon: '', scopes: ['user_info'], authorized_at: 1 },
    ];
    const passport = fakePassport({
      [openPaths.authorizedApps]: () => auth({ apps }),
      [openPaths.updateAuthorizeInfo]: () => {
        apps = [];
        return auth({ apps });
      },
    });
    const queryClient = createAccountQueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <AccountProvider client={passport.client} queryClient={queryClient} language="en" secondVerify={false}>
        <AuthorizedApps />
      </AccountProvider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke: Video Club' }));
    expect(await screen.findByText('You have not authorised any app.')).toBeTruthy();
    expect(passport.to(openPaths.updateAuthorizeInfo)[0]?.body).toMatchObject({ client_key: 'c1' });
  });
});
