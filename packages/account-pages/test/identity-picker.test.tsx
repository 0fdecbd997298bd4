import { webPaths } from '@portico/account-sdk/protocol';
import { affiliatePaths, OrganisationErrorCode } from '@portico/affiliate-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { IdentityPicker } from '../src';
import { renderInProvider } from './support/app';

const org = {
  sec_subject_uid: 's1',
  subject_name: '示例公司',
  user_identity_id: 'd1',
  deputy_name: '小王',
  is_manager: false,
  is_frozen: 0,
  subject_is_frozen: 0,
  permissions: ['member:read'],
};
const identities = (active: boolean, frozen = 0) => ({
  items: [
    {
      user_identity_id: '0',
      sec_subject_uid: null,
      subject_name: null,
      deputy_name: 'Ada',
      is_manager: false,
      is_frozen: 0,
      subject_is_frozen: 0,
      awaiting_acceptance: false,
      active: !active,
    },
    {
      user_identity_id: 'd1',
      sec_subject_uid: 's1',
      subject_name: '示例公司',
      deputy_name: '小王',
      is_manager: false,
      is_frozen: frozen,
      subject_is_frozen: 0,
      awaiting_acceptance: false,
      active,
    },
  ],
});

function renderPicker(routes: Parameters<typeof fakePassport>[0], language: 'zh' | 'en' = 'zh') {
  const passport = fakePassport(routes);
  renderInProvider(passport.client, <IdentityPicker />, language);
  return passport;
}

describe('the identity picker', () => {
  it('acts as an organisation identity by subject login, then shows it as the active one', async () => {
    let active = false;
    const passport = renderPicker({
      [webPaths.accountInfo]: () => ok(active ? { ...signedInAccount, org } : signedInAccount),
      [affiliatePaths.subjectLoginList]: () => ok(identities(active)),
      [affiliatePaths.subjectLogin]: () => {
        active = true;
        return ok({ ...signedInAccount, org });
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByText('你正以个人身份操作。选择一个组织身份来管理该组织。')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: '使用此身份: 示例公司 · 小王' }));
    expect(await screen.findByText('你正以 小王（示例公司）的身份操作')).toBeTruthy();
    expect(passport.to(affiliatePaths.subjectLogin).map((r) => r.body)).toEqual([
      expect.objectContaining({ login_subject_uid: 's1', user_identity_id: 'd1' }),
    ]);
    expect(await screen.findByRole('button', { name: '使用此身份: 个人身份' })).toBeTruthy();
  });

  it('shows a frozen identity’s refusal as the server words it (en)', async () => {
    renderPicker(
      {
        [webPaths.accountInfo]: () => ok(signedInAccount),
        [affiliatePaths.subjectLoginList]: () => ok(identities(false, 1)),
        [affiliatePaths.subjectLogin]: () =>
          fail(OrganisationErrorCode.memberFrozen, 'This member identity is frozen'),
      },
      'en',
    );
    const user = userEvent.setup();
    expect(await screen.findByText(/示例公司 · 小王 · Frozen/)).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Use this identity: 示例公司 · 小王' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This member identity is frozen');
  });

  it('marks a membership the identity provider added as waiting, and accepts it (en)', async () => {
    let awaiting = true;
    const passport = renderPicker(
      {
        [webPaths.accountInfo]: () => ok(signedInAccount),
        [affiliatePaths.subjectLoginList]: () => {
          const list = identities(false, awaiting ? 1 : 0);
          list.items[1]!.awaiting_acceptance = awaiting;
          return ok(list);
        },
        [affiliatePaths.membershipAccept]: () => {
          awaiting = false;
          return ok({ sec_subject_uid: 's1', user_identity_id: 'd1', accepted: true });
        },
      },
      'en',
    );
    const user = userEvent.setup();
    expect(await screen.findByText('示例公司 · 小王 · Waiting for your acceptance')).toBeTruthy();
    // Nothing to act as until it is accepted.
    expect(screen.queryByRole('button', { name: 'Use this identity: 示例公司 · 小王' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Accept: 示例公司' }));
    expect(await screen.findByText('You joined 示例公司.')).toBeTruthy();
    expect(passport.to(affiliatePaths.membershipAccept).map((r) => r.body)).toEqual([
      expect.objectContaining({ subject_uid: 's1' }),
    ]);
    expect(passport.to(affiliatePaths.membershipAccept)[0]!.body).not.toHaveProperty('decline');
    // The list is read again: the membership is an identity like any other now.
    expect(await screen.findByRole('button', { name: 'Use this identity: 示例公司 · 小王' })).toBeTruthy();
  });

  it('declines a waiting membership only once confirmed', async () => {
    let awaiting = true;
    const passport = renderPicker({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [affiliatePaths.subjectLoginList]: () => {
        const list = identities(false, 1);
        list.items[1]!.awaiting_acceptance = true;
        return ok(awaiting ? list : { items: [list.items[0]] });
      },
      [affiliatePaths.membershipAccept]: () => {
        awaiting = false;
        return ok({ sec_subject_uid: 's1', user_identity_id: null, accepted: false });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '拒绝: 示例公司' }));
    const dialog = await screen.findByRole('alertdialog', { name: '拒绝加入 示例公司？' });
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(passport.to(affiliatePaths.membershipAccept)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: '拒绝: 示例公司' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: '拒绝加入 示例公司？' })).getByRole('button', {
        name: '拒绝',
      }),
    );
    expect(await screen.findByText('你已拒绝加入 示例公司。')).toBeTruthy();
    expect(
      passport.to(affiliatePaths.membershipAccept).map((r) => [r.body.subject_uid, String(r.body.decline)]),
    ).toEqual([['s1', 'true']]);
    await expect.poll(() => screen.queryByText(/示例公司 · 小王/)).toBeNull();
  });
});
