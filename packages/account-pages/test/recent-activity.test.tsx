import { webPaths } from '@portico/account-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakePassport, ok } from '../../account-react/test/support/fake-passport';
import { RecentActivity } from '../src';
import { renderInProvider } from './support/app';

const entry = (id: string, type: string, data: object, ip: string | null = null) => ({
  cursor: id,
  id,
  type,
  version: 1,
  actor: { kind: 'person', userId: '42' },
  subject_id: null,
  target_user_id: '42',
  data,
  ip,
  occurred_at: Date.UTC(2026, 0, 2, 3, 4),
});

describe('the recent security activity', () => {
  it('names each event, tells a new device, and pages to older entries and back', async () => {
    const passport = fakePassport({
      [webPaths.accountActivity]: ({ query }) =>
        query.cursor === 'older'
          ? ok({ entries: [entry('e2', 'account.password_changed', {})], next_cursor: null })
          : ok({
              entries: [
                entry('e1', 'account.signed_in', { method: 'password', newDevice: true }, '203.0.113.9'),
              ],
              next_cursor: 'older',
            }),
    });
    renderInProvider(passport.client, <RecentActivity />, 'en');
    const user = userEvent.setup();
    const region = within(screen.getByRole('region', { name: 'Recent security activity' }));
    const row = await region.findByRole('row', { name: /Signed in \(password\)/ });
    expect(within(row).getByText('New device · 203.0.113.9')).toBeTruthy();
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2026-01-02T03:04:00.000Z');

    await user.click(region.getByRole('button', { name: 'Older entries' }));
    expect(await region.findByRole('row', { name: /Changed the password/ })).toBeTruthy();
    expect(region.queryByRole('button', { name: 'Older entries' })).toBeNull();
    await user.click(region.getByRole('button', { name: 'Newer entries' }));
    expect(await region.findByRole('row', { name: /Signed in/ })).toBeTruthy();
  });

  it("names an account the operator's import moved here, in each language", async () => {
    const imported = entry('e3', 'account.imported', {
      source: 'auth0',
      identifiers: ['email'],
      password: true,
    });
    for (const [language, words] of [
      ['en', 'The account was moved here from auth0'],
      ['zh', '账号从 auth0 迁入'],
    ] as const) {
      const passport = fakePassport({
        [webPaths.accountActivity]: () => ok({ entries: [imported], next_cursor: null }),
      });
      const view = renderInProvider(passport.client, <RecentActivity />, language);
      expect(await screen.findByText(words)).toBeTruthy();
      view.unmount();
    }
  });

  it('says so when there is nothing yet', async () => {
    const passport = fakePassport({
      [webPaths.accountActivity]: () => ok({ entries: [], next_cursor: null }),
    });
    renderInProvider(passport.client, <RecentActivity />, 'zh');
    expect(await screen.findByText('暂无记录。')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
