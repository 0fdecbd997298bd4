import { decodeMixedFields, webPaths } from '@portico/account-sdk/protocol';
import { affiliatePaths as p } from '@portico/affiliate-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  fail,
  fakePassport,
  ok,
  type Route,
  signedInAccount,
} from '../../account-react/test/support/fake-passport';
import { OrganisationConsole } from '../src';
import { renderInProvider } from './support/app';

const manager = {
  sec_subject_uid: 's1',
  subject_name: '示例公司',
  user_identity_id: 'd1',
  deputy_name: '老板',
  is_manager: true,
  is_frozen: 0,
  subject_is_frozen: 0,
  permissions: ['member:read', 'member:delete', 'role:read', 'role:update', 'role:assign', 'role:ban'],
};
const member = {
  ...manager,
  user_identity_id: 'd2',
  deputy_name: '小王',
  is_manager: false,
  permissions: ['member:read'],
};
/** The invitations' first page (the page number goes in the path). */
const INVITATIONS = `${p.inviteList}1/`;
const page = (items: unknown[]) => ok({ items, total: items.length, page: 1, page_size: 100 });
const deputy = (id: string, name: string, extra: object) => ({
  user_identity_id: id,
  sec_subject_uid: 's1',
  deputy_name: name,
  is_manager: false,
  is_frozen: 0,
  awaiting_acceptance: false,
  role_keys: [],
  ...extra,
});

/** The console as `org` sees it; `routes` add to (or replace) a quiet organisation's answers. */
function renderConsole(
  org: typeof manager,
  routes: Record<string, Route> = {},
  language: 'zh' | 'en' = 'zh',
) {
  const passport = fakePassport({
    [webPaths.accountInfo]: () => ok({ ...signedInAccount, org }),
    [p.subjectLoginList]: () => ok({ items: [] }),
    [p.deputyList]: () => page([]),
    [p.roleList]: () => page([]),
    [p.resourceList]: () => page([{ resource: 'member', actions: ['read', 'delete'] }]),
    [p.managerPending]: () => ok({ transfer: null, manager: null }),
    [p.subjectInfo]: () => ok({ sec_subject_uid: 's1', subject_name: '示例公司', base_infos: {} }),
    [p.domainList]: () => ok({ items: [] }),
    [p.policyInfo]: () =>
      ok({ require_sso: false, default_role_key: null, role_rules: [], jit_provisioning: true }),
    ...routes,
  });
  renderInProvider(passport.client, <OrganisationConsole />, language);
  return passport;
}

describe('the manager transfer', () => {
  it('counts down on the send button until the passport takes the next code (en)', async () => {
    renderConsole(
      manager,
      { [p.managerSendOldCode]: () => ok({ contact: '138****0000', retry_time: 60, expires_in: 600 }) },
      'en',
    );
    const transfer = await screen.findByRole('region', { name: 'Transfer management' });
    await userEvent.setup().click(within(transfer).getByRole('button', { name: 'Send a code to my mobile' }));
    const waiting = await within(transfer).findByRole('button', {
      name: /^Send a code to my mobile \(again in \d+ s\)$/,
    });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
    expect(within(transfer).getByRole('status').textContent).toBe('A code was sent to 138****0000.');
  });
});

describe('the organisation console', () => {
  it('edits a role’s permissions; a permission the manager lacks stays as it is and cannot be ticked', async () => {
    const viewer = { role_key: 'viewer', role_name: '查看者', permissions: ['member:read'], is_banned: 0 };
    let saved = viewer;
    const passport = renderConsole(manager, {
      [p.roleList]: () => page([saved]),
      [p.resourceList]: () => page([{ resource: 'member', actions: ['read', 'delete', 'create'] }]),
      [p.roleUpdate]: (r) => {
        saved = { ...viewer, permissions: JSON.parse(r.body.permissions ?? '[]') };
        return ok(saved);
      },
    });
    const user = userEvent.setup();
    const roles = await screen.findByRole('region', { name: '角色' });
    await user.click(await within(roles).findByRole('button', { name: '编辑角色 查看者' }));
    const form = within(roles).getByRole('form', { name: '编辑角色 查看者' });
    // Each permission in words, its key beside it.
    expect(
      (within(form).getByRole('checkbox', { name: '添加成员 member:create' }) as HTMLInputElement).disabled,
    ).toBe(true);
    await user.click(within(form).getByRole('checkbox', { name: '移除成员 member:delete' }));
    await user.click(within(form).getByRole('button', { name: '保存角色' }));
    expect(await within(roles).findByText('角色已保存。')).toBeTruthy();
    expect(passport.to(p.roleUpdate)[0]!.body).toMatchObject({ role_key: 'viewer', role_name: '查看者' });
    expect(JSON.parse(passport.to(p.roleUpdate)[0]!.body.permissions!)).toEqual([
      'member:read',
      'member:delete',
    ]);
    expect(await within(roles).findByText(/查看成员、移除成员/)).toBeTruthy();
  });

  it('shows a member’s roles and effective permissions, and takes a role back only once confirmed', async () => {
    let roleKeys = ['viewer'];
    const passport = renderConsole(manager, {
      [p.deputyList]: () => page([deputy('d2', '小王', { role_keys: roleKeys })]),
      [p.roleList]: () =>
        page([{ role_key: 'viewer', role_name: '查看者', permissions: ['member:read'], is_banned: 0 }]),
      [p.userPermissions]: () =>
        ok({
          user_identity_id: 'd2',
          is_manager: false,
          permissions: roleKeys.length ? ['member:read'] : [],
        }),
      [p.userRoleDelete]: () => {
        roleKeys = [];
        return ok({ removed: 1 });
      },
    });
    const user = userEvent.setup();
    const members = await screen.findByRole('region', { name: '成员' });
    const row = within(await within(members).findByRole('group', { name: '小王 的操作' }));
    await user.click(row.getByRole('button', { name: '角色与权限' }));
    const detail = within(await within(members).findByRole('region', { name: '小王 的角色' }));
    expect(await detail.findByText('生效的权限: 查看成员')).toBeTruthy();

    // Cancel first: nothing is sent, and the focus returns to the button that opened the dialog.
    const take = detail.getByRole('button', { name: '收回角色 查看者' });
    await user.click(take);
    const dialog = await screen.findByRole('alertdialog', { name: '收回 小王 的角色「查看者」？' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: '取消' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(take);
    expect(passport.to(p.userRoleDelete)).toHaveLength(0);

    await user.click(take);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '收回' }));
    expect(await detail.findByText('没有角色。')).toBeTruthy();
    expect(await detail.findByText('生效的权限: 无')).toBeTruthy();
    expect(passport.to(p.userRoleDelete)[0]!.body).toMatchObject({ subject_uid: 's1', role_key: 'viewer' });
  });

  it('removes a member only once confirmed (en)', async () => {
    let people = [deputy('d2', 'Wang', {})];
    const passport = renderConsole(
      manager,
      {
        [p.deputyList]: () => page(people),
        [p.deputyDelete]: () => {
          people = [];
          return ok({ deleted: true });
        },
      },
      'en',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove the member Wang' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove the member Wang?' });
    expect(dialog.textContent).toContain('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await expect.poll(() => screen.queryByText('Wang')).toBeNull();
    expect(passport.to(p.deputyDelete)[0]!.body).toMatchObject({
      sec_subject_uid: 's1',
      user_identity_id: 'd2',
    });
  });

  it('freezes a member only once confirmed, and names roles by their names (en)', async () => {
    const freezer = { ...manager, permissions: [...manager.permissions, 'member:freeze'] };
    let frozen = 0;
    const passport = renderConsole(
      freezer,
      {
        [p.deputyList]: () => page([deputy('d2', 'Wang', { role_keys: ['viewer'], is_frozen: frozen })]),
        [p.roleList]: () =>
          page([{ role_key: 'viewer', role_name: 'Viewer', permissions: ['member:read'], is_banned: 0 }]),
        [p.deputyFreeze]: (r) => {
          frozen = Number(r.body.is_frozen);
          return ok({});
        },
      },
      'en',
    );
    const user = userEvent.setup();
    const members = within(await screen.findByRole('region', { name: 'Members' }));
    const row = within(await members.findByRole('group', { name: /Wang/ }));
    // The role by its name, never its key.
    expect(await members.findByText('Wang · Viewer')).toBeTruthy();
    expect(members.queryByText(/viewer/)).toBeNull();

    await user.click(row.getByRole('button', { name: 'Freeze the member Wang' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Freeze the member Wang?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(passport.to(p.deputyFreeze)).toHaveLength(0);

    await user.click(row.getByRole('button', { name: 'Freeze the member Wang' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Freeze' }));
    await expect.poll(() => passport.to(p.deputyFreeze).length).toBe(1);
    expect(passport.to(p.deputyFreeze)[0]!.body).toMatchObject({ user_identity_id: 'd2', is_frozen: '1' });
    // Unfreezing gives back, so it is not asked.
    await user.click(await row.findByRole('button', { name: 'Unfreeze' }));
    await expect.poll(() => passport.to(p.deputyFreeze).length).toBe(2);
  });

  it('shows a member the identity provider added as pending, with no thaw: only the person accepts (en)', async () => {
    renderConsole(
      { ...manager, permissions: [...manager.permissions, 'member:freeze'] },
      {
        [p.deputyList]: () =>
          page([
            deputy('d2', 'Wang', { is_frozen: 1, awaiting_acceptance: true }),
            deputy('d3', 'Li', { is_frozen: 1, awaiting_acceptance: false }),
          ]),
      },
      'en',
    );
    const members = within(await screen.findByRole('region', { name: 'Members' }));
    expect(
      await members.findByText(
        'Wang · Pending: added by the identity provider, waiting for the person to accept',
      ),
    ).toBeTruthy();
    const pending = within(members.getByRole('group', { name: /Wang/ }));
    expect(pending.queryByRole('button', { name: 'Unfreeze' })).toBeNull();
    expect(pending.getByRole('button', { name: /Remove/ })).toBeTruthy();
    // A member frozen in the console stays "Frozen", with its thaw.
    expect(members.getByText('Li · Frozen')).toBeTruthy();
    expect(
      within(members.getByRole('group', { name: /Li/ })).getByRole('button', { name: 'Unfreeze' }),
    ).toBeTruthy();
  });

  it('draws every control of the console in the shared styles, none as the browser’s own', async () => {
    const everything = {
      ...manager,
      permissions: [
        ...manager.permissions,
        'member:create',
        'member:update',
        'member:freeze',
        'invitation:create',
        'invitation:read',
        'subject:update',
        'sso:manage',
        'audit:read',
      ],
    };
    renderConsole(everything, {
      [p.deputyList]: () => page([deputy('d2', '小王', { role_keys: [] })]),
      [p.roleList]: () =>
        page([{ role_key: 'viewer', role_name: '查看者', permissions: ['member:read'], is_banned: 0 }]),
    });
    await screen.findByRole('group', { name: '小王 的操作' });
    await screen.findByRole('region', { name: '审计日志' });
    // A switch (ui/switch.tsx) is a button drawn as a track and thumb: styled, by its own class.
    const styled = ['button', 'portico-submit', 'portico-switch'];
    const unstyled = [...document.querySelectorAll('button')].filter(
      (button) => !styled.some((name) => button.classList.contains(name)),
    );
    expect(document.querySelector('button.portico-switch')).not.toBeNull();
    expect(unstyled.map((button) => button.outerHTML)).toEqual([]);
  });

  it('lets a member leave once confirmed', async () => {
    const passport = renderConsole(member, {
      [p.deputyLeave]: () => ok({ left: true }),
      '/passport/member/switch/': () => ok({}),
    });
    const user = userEvent.setup();
    const leave = await screen.findByRole('region', { name: '退出组织' });
    await user.click(within(leave).getByRole('button', { name: '退出组织' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: '退出「示例公司」？' })).getByRole('button', {
        name: '退出组织',
      }),
    );
    await expect.poll(() => passport.to(p.deputyLeave).length).toBe(1);
    // As the personal identity first: leaving ends the sessions of the identity that leaves.
    expect(
      passport.received
        .map((r) => r.path)
        .filter((path) => path === p.deputyLeave || path.endsWith('/member/switch/')),
    ).toEqual(['/passport/member/switch/', p.deputyLeave]);
    expect(passport.to(p.deputyLeave)[0]!.body).toMatchObject({ sec_subject_uid: 's1' });
  });

  it('tells the manager to transfer before leaving', async () => {
    renderConsole(manager);
    const leave = await screen.findByRole('region', { name: '退出组织' });
    expect(within(leave).getByText('管理员不能退出组织，请先转移管理员。')).toBeTruthy();
    expect(within(leave).queryByRole('button')).toBeNull();
  });

  it('adding a member sends an invitation: it says so and refetches the invitations, not the members', async () => {
    const inviter = { ...manager, permissions: [...manager.permissions, 'member:create', 'invitation:read'] };
    const passport = renderConsole(inviter, {
      [p.roleList]: () =>
        page([{ role_key: 'viewer', role_name: '查看者', permissions: ['member:read'], is_banned: 0 }]),
      [INVITATIONS]: () => page([]),
      [p.userRoleCreateUser]: () => ok({ invitation_id: 'i1', state: 'pending' }),
    });
    const user = userEvent.setup();
    const members = within(await screen.findByRole('region', { name: '成员' }));
    await user.type(members.getByLabelText('成员手机号或邮箱'), '+8613800000000');
    await user.type(members.getByLabelText('成员名称'), '小王');
    await user.selectOptions(await members.findByLabelText('角色'), 'viewer');
    await expect.poll(() => passport.to(INVITATIONS).length).toBeGreaterThan(0);
    const listed = passport.to(p.deputyList).length;
    const invitations = passport.to(INVITATIONS).length;
    await user.click(members.getByRole('button', { name: '添加成员' }));
    expect(await members.findByText('邀请已发送，对方接受后即加入组织。')).toBeTruthy();
    expect(passport.to(p.userRoleCreateUser)[0]!.body).toMatchObject({
      subject_uid: 's1',
      account: '+8613800000000',
      deputy_name: '小王',
      role_key: 'viewer',
    });
    await expect.poll(() => passport.to(INVITATIONS).length).toBeGreaterThan(invitations);
    expect(passport.to(p.deputyList)).toHaveLength(listed);
  });

  it('shows the audit log with names, filters it, and refetches it after a change', async () => {
    const auditor = { ...manager, permissions: [...manager.permissions, 'member:freeze', 'audit:read'] };
    const entry = {
      cursor: 'c1',
      id: 'e1',
      type: 'organisation.role.granted',
      version: 1,
      actor: { kind: 'identity', userId: 'u1' },
      subject_id: 's1',
      target_user_id: 'u2',
      data: { roleKey: 'editor' },
      ip: null,
      occurred_at: Date.UTC(2026, 0, 2, 3, 4),
    };
    const passport = renderConsole(auditor, {
      [p.deputyList]: () => page([deputy('d2', '小王', {})]),
      [p.auditList]: () => ok({ entries: [entry], next_cursor: null, names: { u1: '老板', u2: '小王' } }),
      [p.deputyFreeze]: () => ok({}),
    });
    const user = userEvent.setup();
    const log = within(await screen.findByRole('region', { name: '审计日志' }));
    const row = await log.findByRole('row', { name: /授予角色 editor/ });
    expect(within(row).getByText('老板')).toBeTruthy();
    expect(within(row).getByText('小王')).toBeTruthy();
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2026-01-02T03:04:00.000Z');

    await user.type(log.getByLabelText('事件类型（可填前缀，如 organisation.）'), 'organisation.role.');
    await user.click(log.getByRole('button', { name: '筛选' }));
    await expect
      .poll(() => decodeMixedFields(passport.to(p.auditList).at(-1)?.query ?? {}).type)
      .toBe('organisation.role.');
    expect(log.getByRole('link', { name: '导出 CSV' }).getAttribute('href')).toMatch(
      /audit\/export\/\?sec_subject_uid=s1&type=organisation\.role\.&format=csv$/,
    );

    const reads = passport.to(p.auditList).length;
    const members = within(screen.getByRole('region', { name: '成员' }));
    await user.click(
      within(await members.findByRole('group', { name: '小王 的操作' })).getByRole('button', {
        name: '冻结成员 小王',
      }),
    );
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '冻结' }));
    await expect.poll(() => passport.to(p.auditList).length).toBeGreaterThan(reads);
  });

  it('names member and organisation events in words', async () => {
    const auditor = { ...manager, permissions: [...manager.permissions, 'audit:read'] };
    const event = (id: string, type: string, target: string | null, data: Record<string, unknown>) => ({
      cursor: id,
      id,
      type,
      version: 1,
      actor: { kind: 'identity', userId: 'u1' },
      subject_id: 's1',
      target_user_id: target,
      data,
      ip: null,
      occurred_at: Date.UTC(2026, 0, 2, 3, 4),
    });
    const member = (name: string) => ({ memberId: `d-${name}`, memberName: name, roleKeys: ['viewer'] });
    renderConsole(auditor, {
      [p.deputyList]: () => page([deputy('d2', '小王', {})]),
      [p.auditList]: () =>
        ok({
          entries: [
            event('e3', 'organisation.member.removed', 'u3', member('小李')),
            event('e2', 'organisation.member.frozen', 'u2', member('小王')),
            event('e1', 'organisation.thawed', null, { name: '示例公司' }),
          ],
          next_cursor: null,
          // u3 is no longer a member: the server names them as they were when removed.
          names: { u1: '老板', u2: '小王', u3: '小李' },
        }),
    });
    const log = within(await screen.findByRole('region', { name: '审计日志' }));
    const removed = await log.findByRole('row', { name: /移除了成员 小李/ });
    expect(within(removed).getByText('老板')).toBeTruthy();
    expect(within(removed).getByText('小李')).toBeTruthy();
    expect(await log.findByRole('row', { name: /冻结了成员 小王/ })).toBeTruthy();
    expect(await log.findByRole('row', { name: /解冻了组织 示例公司/ })).toBeTruthy();
  });

  it('says why in words (en), and drops the answer once another permission is chosen', async () => {
    const passport = renderConsole(
      manager,
      {
        [p.deputyList]: () => page([deputy('d2', 'Wang', {})]),
        [p.permissionExplain]: () =>
          ok({
            user_identity_id: 'd2',
            permission: 'member:read',
            granted: true,
            by_manager: false,
            roles: [{ role_key: 'viewer', role_name: 'Viewer', permissions: ['member:read', 'role:read'] }],
          }),
      },
      'en',
    );
    const user = userEvent.setup();
    const explain = within(await screen.findByRole('region', { name: 'Permission explanation' }));
    expect(explain.getByText(/^My permissions: See members, Remove members, See roles/)).toBeTruthy();
    await user.selectOptions(await explain.findByLabelText('Member'), 'd2');
    const permission = explain.getByLabelText('Permission');
    await user.selectOptions(permission, 'member:read');
    expect((explain.getByRole('option', { name: 'See members' }) as HTMLOptionElement).value).toBe(
      'member:read',
    );
    await user.click(explain.getByRole('button', { name: 'Explain' }));
    const answer = await explain.findByRole('status');
    expect(answer.textContent).toContain('Wang has See members');
    expect(answer.textContent).toContain('Granted by the role Viewer (See members, See roles)');
    expect(passport.to(p.permissionExplain)[0]!.query).toMatchObject({
      identity_id: 'd2',
      permission: 'member:read',
    });

    // Asking about another permission: the answer about the first one goes.
    await user.selectOptions(permission, 'member:delete');
    expect(explain.queryByText(/Wang has/)).toBeNull();
  });

  it('renames the organisation; "saved" goes once the form is edited again', async () => {
    let name = '示例公司';
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'subject:update'] },
      {
        [p.subjectInfo]: () =>
          ok({ sec_subject_uid: 's1', subject_name: name, base_infos: { description: '旧的简介', size: 3 } }),
        [p.subjectUpdate]: (r) => {
          name = r.body.subject_name ?? name;
          return ok({ sec_subject_uid: 's1', subject_name: name });
        },
      },
    );
    const user = userEvent.setup();
    const settings = within(await screen.findByRole('region', { name: '组织设置' }));
    const field = settings.getByLabelText('组织名称') as HTMLInputElement;
    await expect
      .poll(() => (settings.getByLabelText('组织简介') as HTMLTextAreaElement).value)
      .toBe('旧的简介');
    await user.clear(field);
    await user.type(field, '新公司');
    await user.click(settings.getByRole('button', { name: '保存资料' }));
    expect(await settings.findByText('组织资料已保存。')).toBeTruthy();
    const sent = passport.to(p.subjectUpdate)[0]!.body;
    expect(sent).toMatchObject({ sec_subject_uid: 's1', subject_name: '新公司' });
    // The other details are kept beside the description.
    expect(JSON.parse(sent.base_infos!)).toEqual({ description: '旧的简介', size: 3 });

    await user.type(settings.getByLabelText('组织简介'), '。');
    expect(settings.queryByText('组织资料已保存。')).toBeNull();
  });

  it('changes a pending invitation’s name and role', async () => {
    const pending = {
      invite_id: 'i1',
      subject_uid: 's1',
      channel: 'email',
      contact: 'a***@example.com',
      deputy_name: '小李',
      role_keys: ['viewer'],
      state: 'pending',
      created_at: 1,
      expires_at: 2,
    };
    let invitation = pending;
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'invitation:read', 'invitation:update'] },
      {
        [p.roleList]: () =>
          page([
            { role_key: 'viewer', role_name: '查看者', permissions: ['member:read'], is_banned: 0 },
            { role_key: 'editor', role_name: '编辑者', permissions: ['member:read'], is_banned: 0 },
          ]),
        [INVITATIONS]: () => page([invitation]),
        [p.inviteUpdate]: (r) => {
          invitation = {
            ...invitation,
            deputy_name: r.body.deputy_name!,
            role_keys: JSON.parse(r.body.role_keys!),
          };
          return ok(invitation);
        },
      },
    );
    const user = userEvent.setup();
    const invitations = within(await screen.findByRole('region', { name: '邀请' }));
    await user.click(await invitations.findByRole('button', { name: '修改对 小李 的邀请' }));
    const form = within(invitations.getByRole('form', { name: '修改对 小李 的邀请' }));
    const name = form.getByLabelText('成员名称');
    await user.clear(name);
    await user.type(name, '李四');
    await user.selectOptions(form.getByLabelText('角色'), 'editor');
    await user.click(form.getByRole('button', { name: '保存修改' }));
    expect(await invitations.findByText(/李四 · a\*\*\*@example.com · 待接受 · editor/)).toBeTruthy();
    expect(passport.to(p.inviteUpdate)[0]!.body).toMatchObject({
      subject_uid: 's1',
      invite_id: 'i1',
      deputy_name: '李四',
    });
  });

  it('a refusal goes once the next attempt is being written', async () => {
    renderConsole(
      { ...manager, permissions: [...manager.permissions, 'role:create'] },
      { [p.roleCreate]: () => fail(1607, '角色标识已存在') },
    );
    const user = userEvent.setup();
    const roles = within(await screen.findByRole('region', { name: '角色' }));
    const createForm = within(roles.getByRole('form', { name: '创建角色' }));
    await user.type(createForm.getByLabelText('角色标识'), 'viewer');
    await user.type(createForm.getByLabelText('角色名称'), '查看者');
    await user.click(createForm.getByRole('button', { name: '创建角色' }));
    expect(await roles.findByText('角色标识已存在')).toBeTruthy();
    await user.type(createForm.getByLabelText('角色标识'), '2');
    expect(roles.queryByText('角色标识已存在')).toBeNull();
  });

  it('names the invitation events in words: invited by which channel, cancelled, joined', async () => {
    const auditor = { ...manager, permissions: [...manager.permissions, 'audit:read'] };
    const base = { version: 1, subject_id: 's1', ip: null, occurred_at: Date.UTC(2026, 0, 2, 3, 4) };
    const entries = [
      {
        ...base,
        cursor: 'c3',
        id: 'e3',
        type: 'organisation.member.joined',
        actor: { kind: 'person', userId: 'u2' },
        target_user_id: 'u2',
        data: { invitationId: 'i1', channel: 'mobile', memberId: 'd2', roleKeys: [], inviterId: 'd1' },
      },
      {
        ...base,
        cursor: 'c2',
        id: 'e2',
        type: 'organisation.invitation.cancelled',
        actor: { kind: 'identity', userId: 'u1' },
        target_user_id: null,
        data: { invitationId: 'i2', channel: 'link', reason: 'cancelled' },
      },
      {
        ...base,
        cursor: 'c1',
        id: 'e1',
        type: 'organisation.member.invited',
        actor: { kind: 'identity', userId: 'u1' },
        target_user_id: null,
        data: { invitationId: 'i1', channel: 'mobile', memberId: 'd2', roleKeys: [] },
      },
    ];
    renderConsole(auditor, {
      [p.auditList]: () => ok({ entries, next_cursor: null, names: { u1: '老板', u2: '小王' } }),
    });
    const log = within(await screen.findByRole('region', { name: '审计日志' }));
    expect(
      within(await log.findByRole('row', { name: /通过手机号邀请了成员/ })).getByText('老板'),
    ).toBeTruthy();
    expect(await log.findByRole('row', { name: /取消了通过链接发出的邀请/ })).toBeTruthy();
    expect(
      within(await log.findByRole('row', { name: /接受邀请，加入了组织/ })).getAllByText('小王'),
    ).toBeTruthy();
  });
  it('adds a company domain, shows its TXT record, verifies it, and removes it only once confirmed (en)', async () => {
    const record = {
      record_name: '_portico-verification.example.com',
      record_value: 'portico-verification=abc',
      verified_at: null,
      created_at: 1,
    };
    let domains: object[] = [];
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'sso:manage'] },
      {
        [p.domainList]: () => ok({ items: domains }),
        [p.domainAdd]: (r) => {
          domains = [{ domain: r.body.domain, verified: false, ...record }];
          return ok(domains[0]);
        },
        [p.domainVerify]: () => {
          domains = [{ domain: 'example.com', verified: true, ...record, verified_at: 2 }];
          return ok(domains[0]);
        },
        [p.domainRemove]: () => {
          domains = [];
          return ok({ domain: 'example.com' });
        },
      },
      'en',
    );
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Company domains' });
    expect(await within(section).findByText('No domains yet.')).toBeTruthy();
    await user.type(within(section).getByLabelText('Domain (e.g. example.com)'), 'example.com');
    await user.click(within(section).getByRole('button', { name: 'Add domain' }));
    expect(await within(section).findByText('portico-verification=abc')).toBeTruthy();
    expect(within(section).getByText('_portico-verification.example.com')).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: 'Verify' }));
    expect(await within(section).findByText('example.com is verified.')).toBeTruthy();
    expect(within(section).queryByText('portico-verification=abc')).toBeNull();

    await user.click(within(section).getByRole('button', { name: 'Remove example.com' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove the domain example.com?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await expect.poll(() => within(section).queryByText('No domains yet.')).not.toBeNull();
    expect(passport.to(p.domainRemove)[0]!.body).toMatchObject({ subject_uid: 's1', domain: 'example.com' });
  });

  it('requires members to use a second factor only once confirmed, and says it is on (en)', async () => {
    let required = 0;
    const passport = renderConsole(
      manager,
      {
        [p.subjectInfo]: () =>
          ok({
            sec_subject_uid: 's1',
            subject_name: '示例公司',
            base_infos: {},
            require_second_factor: required,
          }),
        [p.subjectSecondFactor]: (r) => {
          required = Number(r.body.require_second_factor);
          return ok({ sec_subject_uid: 's1', subject_name: '示例公司', require_second_factor: required });
        },
      },
      'en',
    );
    const user = userEvent.setup();
    const settings = await screen.findByRole('region', { name: 'Organisation settings' });
    expect(await within(settings).findByText('Members need not use a second factor.')).toBeTruthy();
    await user.click(
      within(settings).getByRole('button', { name: 'Require members to use a second factor' }),
    );
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/An SMS code does not count/)).toBeTruthy();
    expect(passport.to(p.subjectSecondFactor)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Require members to use a second factor' }));
    expect(await within(settings).findByText(/Members must use a second factor/)).toBeTruthy();
    expect(passport.to(p.subjectSecondFactor)[0]?.body).toMatchObject({ require_second_factor: '1' });
  });

  it('sends a member without a factor to set one up when the organisation requires it', async () => {
    renderConsole(member, {
      [p.subjectInfo]: () => fail(1621, undefined, { enrol: ['passkey', 'totp'] }),
    });
    // The provider's dialog offers to set one up here; closed, the console says where instead.
    const dialog = await screen.findByRole('dialog', { name: '设置第二验证因素' });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: '关闭' }));
    const card = await screen.findByRole('region', { name: '需要第二验证因素' });
    expect(within(card).getByRole('alert').textContent).toContain('示例公司');
    expect(
      within(card).getByRole('link', { name: '设置通行密钥或身份验证器应用' }).getAttribute('href'),
    ).toBe('/account/security?next=/org');
    expect(screen.queryByRole('region', { name: '成员' })).toBeNull();
  });

  it('hides the company domains from a member without sso:manage', async () => {
    renderConsole(member);
    await screen.findByRole('region', { name: '成员' });
    expect(screen.queryByRole('region', { name: '企业域名' })).toBeNull();
  });
  it('saves the single sign-on connection without showing its secret back, and removes it once confirmed (en)', async () => {
    let connection: object | null = null;
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'sso:manage'] },
      {
        [p.domainList]: () => ok({ items: [] }),
        [p.connectionInfo]: () =>
          connection ? ok(connection) : fail(2410, 'This organisation has no single sign-on connection'),
        [p.connectionSave]: (r) => {
          connection = {
            protocol: 'oidc',
            issuer: r.body.issuer,
            client_id: r.body.client_id,
            has_secret: true,
            updated_at: 1,
          };
          return ok(connection);
        },
        [p.connectionRemove]: () => {
          connection = null;
          return ok({ removed: true });
        },
      },
      'en',
    );
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Single sign-on connection' });
    await user.type(within(section).getByLabelText('Issuer'), 'https://login.example.com');
    await user.type(within(section).getByLabelText('Client ID'), 'portico');
    await user.type(within(section).getByLabelText('Client secret'), 'shh');
    await user.click(within(section).getByRole('button', { name: 'Save connection' }));
    expect(await within(section).findByText('The connection is saved.')).toBeTruthy();
    expect(passport.to(p.connectionSave)[0]!.body).toMatchObject({
      subject_uid: 's1',
      issuer: 'https://login.example.com',
      client_id: 'portico',
      client_secret: 'shh',
    });
    expect((within(section).getByLabelText('Client secret') as HTMLInputElement).value).toBe('');
    expect(
      await within(section).findByText('A secret is on file; leave this empty to keep it.'),
    ).toBeTruthy();

    await user.click(within(section).getByRole('button', { name: 'Remove connection' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove the single sign-on connection?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove connection' }));
    await expect.poll(() => passport.to(p.connectionRemove).length).toBe(1);
    await expect.poll(() => within(section).queryByRole('button', { name: 'Remove connection' })).toBeNull();
  });

  const saml = {
    protocol: 'saml',
    issuer: 'https://idp.example.com/metadata',
    sso_url: 'https://idp.example.com/sso',
    certificates: 1,
    sp_entity_id: 'https://portico.example/passport/enterprise_sso/saml_metadata/?subject_uid=s1',
    acs_url: 'https://portico.example/passport/enterprise_sso/saml_acs/',
    sp_metadata_url: 'https://portico.example/passport/enterprise_sso/saml_metadata/?subject_uid=s1',
    metadata_url: null as string | null,
    updated_at: 1,
  };
  it('saves a SAML connection from the metadata, shows what to give the identity provider to copy, and removes it once confirmed (en)', async () => {
    let connection: object | null = null;
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'sso:manage'] },
      {
        [p.connectionInfo]: () =>
          connection ? ok(connection) : fail(2410, 'This organisation has no single sign-on connection'),
        [p.samlConnectionSave]: () => {
          connection = saml;
          return ok(connection);
        },
        [p.connectionRemove]: () => {
          connection = null;
          return ok({ removed: true });
        },
      },
      'en',
    );
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Single sign-on connection' });
    await user.click(within(section).getByRole('radio', { name: 'SAML 2.0' }));
    await user.click(within(section).getByRole('button', { name: 'Save connection' }));
    expect(within(section).getByRole('alert').textContent).toBe(
      'Enter the metadata URL or paste the metadata, or enter the entity ID, the single sign-on URL and the certificate.',
    );
    expect(passport.to(p.samlConnectionSave)).toHaveLength(0);

    await user.click(within(section).getByLabelText('Identity provider metadata (XML)'));
    await user.paste('<EntityDescriptor entityID="https://idp.example.com/metadata"/>');
    expect(within(section).queryByRole('alert')).toBeNull();
    await user.click(within(section).getByRole('button', { name: 'Save connection' }));
    expect(await within(section).findByText('The connection is saved.')).toBeTruthy();
    expect(passport.to(p.samlConnectionSave)[0]!.body).toMatchObject({
      subject_uid: 's1',
      metadata_xml: '<EntityDescriptor entityID="https://idp.example.com/metadata"/>',
    });
    expect(
      await within(section).findByText('Current connection: SAML 2.0 (https://idp.example.com/metadata).'),
    ).toBeTruthy();
    const give = within(section).getByRole('region', { name: 'Give your identity provider these' });
    expect((within(give).getByLabelText('Service provider metadata URL') as HTMLInputElement).value).toBe(
      saml.sp_metadata_url,
    );
    expect(
      (within(give).getByLabelText('Assertion consumer service URL (ACS, HTTP-POST)') as HTMLInputElement)
        .value,
    ).toBe(saml.acs_url);
    await user.click(
      within(give).getByRole('button', { name: 'Copy: Service provider entity ID (audience)' }),
    );
    expect(await navigator.clipboard.readText()).toBe(saml.sp_entity_id);
    expect(within(give).getByRole('status').textContent).toBe(
      'Copied: Service provider entity ID (audience).',
    );

    await user.click(within(section).getByRole('button', { name: 'Remove connection' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove the single sign-on connection?' });
    expect(passport.to(p.connectionRemove)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove connection' }));
    await expect.poll(() => passport.to(p.connectionRemove).length).toBe(1);
    await expect
      .poll(() => within(section).queryByRole('region', { name: 'Give your identity provider these' }))
      .toBeNull();
  });

  it('saves a SAML connection from its metadata URL, reads it again on request, and says why an address failed (en)', async () => {
    const url = 'https://idp.example.com/app/metadata';
    let connection: object | null = null;
    let answer: 'ok' | 'timeout' = 'ok';
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'sso:manage'] },
      {
        [p.connectionInfo]: () =>
          connection ? ok(connection) : fail(2410, 'This organisation has no single sign-on connection'),
        [p.samlConnectionSave]: (r) => {
          if (answer === 'timeout')
            return fail(2414, "The identity provider's SAML metadata could not be read", {
              reason: 'timeout',
            });
          connection = { ...saml, metadata_url: r.body.metadata_url };
          return ok(connection);
        },
      },
      'en',
    );
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Single sign-on connection' });
    await user.click(within(section).getByRole('radio', { name: 'SAML 2.0' }));
    expect(
      within(section).queryByRole('button', { name: 'Read the metadata from its URL again' }),
    ).toBeNull();
    await user.type(within(section).getByLabelText('Identity provider metadata URL'), url);
    await user.click(within(section).getByRole('button', { name: 'Save connection' }));
    expect(await within(section).findByText('The connection is saved.')).toBeTruthy();
    expect(passport.to(p.samlConnectionSave)[0]!.body).toMatchObject({
      subject_uid: 's1',
      metadata_url: url,
    });
    expect(passport.to(p.samlConnectionSave)[0]!.body).not.toHaveProperty('metadata_xml');

    // The saved address is shown, and the connection can be read from it again.
    const refresh = await within(section).findByRole('button', {
      name: 'Read the metadata from its URL again',
    });
    expect((within(section).getByLabelText('Identity provider metadata URL') as HTMLInputElement).value).toBe(
      url,
    );
    answer = 'timeout';
    await user.click(refresh);
    expect((await within(section).findByRole('alert')).textContent).toBe(
      "The identity provider's SAML metadata or certificate could not be read: check it and try again",
    );
    expect(within(section).getByText('The metadata URL did not answer within 10 seconds.')).toBeTruthy();
    expect(passport.to(p.samlConnectionSave)[1]!.body).toMatchObject({ metadata_url: url });
  });

  it('sends the SAML fields without metadata, and shows a refusal in the page’s language', async () => {
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'sso:manage'] },
      {
        [p.connectionInfo]: () => fail(2410, 'This organisation has no single sign-on connection'),
        // The server's words are in the client's language (en here); the page is in zh.
        [p.samlConnectionSave]: () => fail(2414, "The identity provider's SAML metadata could not be read"),
      },
    );
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: '单点登录连接' });
    await user.click(within(section).getByRole('radio', { name: 'SAML 2.0' }));
    await user.type(within(section).getByLabelText('身份提供方实体 ID'), 'https://idp.example.com/metadata');
    await user.type(
      within(section).getByLabelText('单点登录地址（HTTP-Redirect）'),
      'https://idp.example.com/sso',
    );
    await user.type(within(section).getByLabelText('签名证书（PEM 或 base64）'), 'MIIBnotacert');
    await user.click(within(section).getByRole('button', { name: '保存连接' }));
    expect((await within(section).findByRole('alert')).textContent).toBe(
      '无法读取身份提供方的 SAML 元数据或证书，请检查后重试',
    );
    expect(passport.to(p.samlConnectionSave)[0]!.body).toMatchObject({
      entity_id: 'https://idp.example.com/metadata',
      sso_url: 'https://idp.example.com/sso',
      certificate: 'MIIBnotacert',
    });
    expect(passport.to(p.samlConnectionSave)[0]!.body).not.toHaveProperty('metadata_xml');
  });

  it('saves the single sign-on rules: requiring it, the default role and role rules (en)', async () => {
    let policy = {
      require_sso: false,
      default_role_key: null as string | null,
      role_rules: [{ claim: 'groups', value: 'eng', role_key: 'engineer' }],
      jit_provisioning: true,
    };
    const roles = [
      { role_key: 'engineer', role_name: 'Engineer', is_banned: 0, permissions: [] },
      { role_key: 'staff', role_name: 'Staff', is_banned: 0, permissions: [] },
    ];
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'sso:manage'] },
      {
        [p.roleList]: () => page(roles),
        [p.connectionInfo]: () => ok(saml),
        [p.policyInfo]: () => ok(policy),
        [p.policySave]: (r) => {
          policy = {
            require_sso: String(r.body.require_sso) === 'true',
            default_role_key: r.body.default_role_key || null,
            role_rules:
              typeof r.body.role_rules === 'string' ? JSON.parse(r.body.role_rules) : r.body.role_rules,
            jit_provisioning: String(r.body.jit_provisioning) !== 'false',
          };
          return ok(policy);
        },
      },
      'en',
    );
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Single sign-on rules' });
    const first = await within(section).findByRole('group', { name: 'Rule 1' });
    expect((within(first).getByLabelText('Value') as HTMLInputElement).value).toBe('eng');
    await user.click(within(section).getByRole('checkbox', { name: /^Require single sign-on/ }));
    await user.selectOptions(within(section).getByLabelText('Role when no rule matches'), 'staff');
    await user.click(within(section).getByRole('button', { name: 'Add a rule' }));
    await user.click(within(section).getByRole('button', { name: 'Save rules' }));
    expect(within(section).getByRole('alert').textContent).toMatch(/^Fill in each rule/);
    expect(passport.to(p.policySave)).toHaveLength(0);

    const second = within(section).getByRole('group', { name: 'Rule 2' });
    await user.type(within(second).getByLabelText('Value'), 'ops');
    await user.selectOptions(within(second).getByLabelText('Role'), 'staff');
    await user.click(within(first).getByRole('button', { name: 'Delete rule 1' }));
    await user.click(within(section).getByRole('button', { name: 'Save rules' }));
    expect(await within(section).findByText('The single sign-on rules are saved.')).toBeTruthy();
    expect(policy).toEqual({
      require_sso: true,
      default_role_key: 'staff',
      role_rules: [{ claim: 'groups', value: 'ops', role_key: 'staff' }],
      jit_provisioning: true,
    });
  });

  it('turns members made at the first single sign-on off with a labelled switch, saved with the rules', async () => {
    let policy = { require_sso: false, default_role_key: null, role_rules: [], jit_provisioning: true };
    const passport = renderConsole(
      { ...manager, permissions: [...manager.permissions, 'sso:manage'] },
      {
        [p.connectionInfo]: () => ok(saml),
        [p.policyInfo]: () => ok(policy),
        [p.policySave]: (r) => {
          policy = { ...policy, jit_provisioning: String(r.body.jit_provisioning) !== 'false' };
          return ok(policy);
        },
      },
    );
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: '单点登录规则' });
    const jit = within(section).getByRole('switch', { name: '首次单点登录时自动加入本组织' });
    expect(jit.getAttribute('aria-checked')).toBe('true');
    expect(jit.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(jit.getAttribute('aria-describedby')!)?.textContent).toMatch(/^开启/);
    // By the keyboard, as by a click.
    jit.focus();
    await user.keyboard(' ');
    expect(jit.getAttribute('aria-checked')).toBe('false');
    expect(document.getElementById(jit.getAttribute('aria-describedby')!)?.textContent).toMatch(/^关闭/);
    expect(passport.to(p.policySave)).toHaveLength(0);
    await user.click(within(section).getByRole('button', { name: '保存规则' }));
    expect(await within(section).findByText('单点登录规则已保存。')).toBeTruthy();
    expect(String(passport.to(p.policySave)[0]!.body.jit_provisioning)).toBe('false');
    expect(policy.jit_provisioning).toBe(false);
  });
});
