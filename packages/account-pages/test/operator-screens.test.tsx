import { ErrorCode } from '@portico/account-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, type Route } from '../../account-react/test/support/fake-passport';
import { DeveloperConsole, MonitoringScreen } from '../src';
import { renderInProvider } from './support/app';

const DASHBOARD = '/monitor/dashboard/';
const WAITLIST = '/passport/web/waitlist/list/';
const ADMIT = '/passport/web/waitlist/admit/';
const APPS = '/passport/web/developer/apps/';

function renderWith(routes: Record<string, Route>, ui: ReactNode, language: 'zh' | 'en' = 'zh') {
  const passport = fakePassport(routes);
  renderInProvider(passport.client, ui, language);
  return passport;
}

/** A dashboard with no daily totals to chart (the chart's library draws on a canvas the test DOM lacks). */
const dashboard = {
  from: '2026-01-01',
  to: '2026-01-07',
  apps: ['web', 'sso'],
  flavours: ['web'],
  funnel: [],
  errors: [],
  vitals: [{ day: '2026-01-02', name: 'LCP', p75: 1200, count: 3 }],
  sdk: [],
};

describe('the monitoring screen', () => {
  it('shows the reports, asks again with the filters, and admits from the waitlist', async () => {
    let waiting = [
      { id: 'w1', target: 'a@example.com', note: '', joined_at: 1_767_225_600, state: 'waiting' },
    ];
    const passport = renderWith(
      {
        [DASHBOARD]: () => ok(dashboard),
        [WAITLIST]: () => ok({ entries: waiting, total: waiting.length, page: 1, page_size: 50 }),
        [ADMIT]: () => {
          waiting = [];
          return ok({});
        },
      },
      <MonitoringScreen />,
    );
    const user = userEvent.setup();
    const vitals = await screen.findByRole('region', { name: '性能指标（p75）' });
    expect(within(vitals).getByRole('row', { name: /2026-01-02 LCP 1200 3/ })).toBeTruthy();
    // The table's box scrolls sideways on a phone: a keyboard reaches it to scroll it.
    const scroller = within(vitals).getByRole('group', { name: '性能指标（p75）' });
    expect(scroller.tabIndex).toBe(0);
    expect(within(scroller).getByRole('table')).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: '登录漏斗' })).getByText('此范围内没有数据。'),
    ).toBeTruthy();

    const filters = screen.getByRole('form', { name: '筛选' });
    await user.selectOptions(within(filters).getByLabelText('应用'), 'sso');
    await user.click(within(filters).getByRole('button', { name: '查看' }));
    await expect.poll(() => passport.to(DASHBOARD).at(-1)?.query.app).toBe('sso');
    // An empty filter is left out, not sent empty.
    expect(passport.to(DASHBOARD).at(-1)?.query).not.toHaveProperty('flavour');

    const waitlist = within(await screen.findByRole('region', { name: '候补名单' }));
    await user.click(waitlist.getByRole('button', { name: '准许 a@example.com' }));
    expect(await waitlist.findByText('没有等待中的人。')).toBeTruthy();
    expect(passport.to(ADMIT)[0]?.body).toMatchObject({ id: 'w1' });
  });

  it('tells someone who is not an operator that the page is not theirs', async () => {
    renderWith(
      { [DASHBOARD]: () => fail(ErrorCode.notAnOperator), [WAITLIST]: () => fail(ErrorCode.notAnOperator) },
      <MonitoringScreen />,
      'en',
    );
    expect(await screen.findByText('Only operators can see this page.')).toBeTruthy();
    expect(screen.queryByRole('region')).toBeNull();
  });
});

describe('the developer console', () => {
  it('registers an app and shows its secret once; deleting asks first', async () => {
    const app = {
      client_key: 'k1',
      app_name: 'Video Club',
      app_icon: '',
      redirect_uris: ['https://club.test/cb'],
      scopes: ['user_info'],
      created_at: 1,
      authorized_count: 0,
    };
    let apps: (typeof app)[] = [];
    const scopes = [{ name: 'user_info', zh: '基本信息', en: 'Basic information' }];
    const passport = renderWith(
      {
        [APPS]: () => ok({ apps, scopes }),
        [`${APPS}create/`]: () => {
          apps = [app];
          return ok({ ...app, client_secret: 'secret-1' });
        },
        [`${APPS}delete/`]: () => {
          apps = [];
          return ok({ apps, scopes });
        },
      },
      <DeveloperConsole />,
    );
    const user = userEvent.setup();
    const register = within(await screen.findByRole('region', { name: '注册应用' }));
    await user.type(register.getByLabelText('应用名称'), 'Video Club');
    await user.type(register.getByLabelText(/回调地址/), 'https://club.test/cb');
    await user.click(register.getByRole('button', { name: '注册' }));
    expect((await screen.findByTestId('client-secret')).textContent).toBe('secret-1');
    expect(passport.to(`${APPS}create/`)[0]?.body).toMatchObject({ app_name: 'Video Club' });
    const listed = within(await screen.findByRole('listitem', { name: /Video Club/ }));

    // The app's scopes in words, never their names.
    expect(listed.getByText('基本信息')).toBeTruthy();
    expect(listed.queryByText('user_info')).toBeNull();

    // Our own dialog, never the browser's: Cancel sends nothing.
    await user.click(listed.getByRole('button', { name: '删除 Video Club' }));
    const dialog = await screen.findByRole('alertdialog', { name: '删除 Video Club？' });
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(passport.to(`${APPS}delete/`)).toHaveLength(0);
    await user.click(listed.getByRole('button', { name: '删除 Video Club' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '删除' }));
    expect(await screen.findByText(/还没有/)).toBeTruthy();
  });
});
