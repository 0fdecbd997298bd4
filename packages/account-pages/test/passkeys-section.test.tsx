import type { PasskeyData } from '@portico/account-sdk';
import { ErrorCode, passkeyPaths, webPaths } from '@portico/account-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { PasskeysSection } from '../src';
import { renderInProvider } from './support/app';

/**
 * The account security page's passkeys: the list with each passkey's device type and use, rename, and
 * remove behind a confirmation; the last way in refused with the passport's words. (Creating one needs
 * `navigator.credentials`: e2e/tests/passkeys.spec.ts runs it in Chromium.)
 */

const laptop: PasskeyData = {
  id: 'pk-1',
  name: 'Laptop',
  device_type: 'singleDevice',
  backed_up: false,
  transports: ['internal'],
  created_at: Date.UTC(2026, 10, 2),
  last_used_at: null,
};
const phone: PasskeyData = {
  ...laptop,
  id: 'pk-2',
  name: 'Phone',
  device_type: 'multiDevice',
  backed_up: true,
  last_used_at: Date.UTC(2026, 10, 20),
};

function passportWith(rows: PasskeyData[], { lastWayIn = false } = {}) {
  let list = [...rows];
  const passport = fakePassport({
    [webPaths.accountInfo]: () => ok(signedInAccount),
    [passkeyPaths.list]: () => ok({ passkeys: list }),
    [passkeyPaths.rename]: ({ body }) => {
      list = list.map((row) => (row.id === body.id ? { ...row, name: body.name ?? row.name } : row));
      return ok(list.find((row) => row.id === body.id));
    },
    [passkeyPaths.remove]: ({ body }) => {
      if (lastWayIn) return fail(ErrorCode.passkeyLastWayIn);
      list = list.filter((row) => row.id !== body.id);
      return ok({ removed: body.id });
    },
  });
  return passport;
}

describe('the passkeys section', () => {
  it('lists each passkey with its device type and use; renames one', async () => {
    const passport = passportWith([laptop, phone]);
    renderInProvider(passport.client, <PasskeysSection />, 'en');
    const section = screen.getByRole('region', { name: 'Passkeys' });
    const list = await within(section).findByRole('list', { name: 'Your passkeys' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^LaptopOn this device onlyAdded 2 Nov 2026 · Not used yet/),
      expect.stringMatching(/^PhoneSynced to your other devicesAdded 2 Nov 2026 · Last used 20 Nov 2026/),
    ]);
    const user = userEvent.setup();
    await user.click(within(list).getByRole('button', { name: 'Rename: Laptop' }));
    const field = within(list).getByLabelText('New name');
    await user.clear(field);
    await user.click(within(list).getByRole('button', { name: 'Save' }));
    expect(within(list).getByRole('alert').textContent).toBe('Enter a name');
    await user.type(field, 'Work laptop');
    await user.click(within(list).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('Renamed to “Work laptop”.')).toBeTruthy();
    expect(await within(list).findByText('Work laptop')).toBeTruthy();
  });

  it('removes one only after the confirmation; Cancel keeps it', async () => {
    const passport = passportWith([laptop, phone]);
    renderInProvider(passport.client, <PasskeysSection />, 'en');
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const user = userEvent.setup();
    await user.click(within(list).getByRole('button', { name: 'Remove: Phone' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Remove the passkey “Phone”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(passport.received.filter((r) => r.path === passkeyPaths.remove)).toEqual([]);
    await user.click(within(list).getByRole('button', { name: 'Remove: Phone' }));
    dialog = screen.getByRole('alertdialog', { name: 'Remove the passkey “Phone”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Passkey “Phone” removed.')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  });

  it('shows the passport’s refusal of the last way in, in Chinese', async () => {
    const passport = passportWith([laptop], { lastWayIn: true });
    renderInProvider(passport.client, <PasskeysSection />, 'zh');
    const list = await screen.findByRole('list', { name: '你的通行密钥' });
    const user = userEvent.setup();
    await user.click(within(list).getByRole('button', { name: '删除: Laptop' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('这是唯一的登录方式，无法删除')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  });

  it('says when there are none, and when the browser cannot create one', async () => {
    renderInProvider(passportWith([]).client, <PasskeysSection />, 'en');
    expect(await screen.findByText('No passkeys yet.')).toBeTruthy();
    // The test DOM (happy-dom) has no WebAuthn.
    expect(screen.getByText('This browser does not support passkeys.')).toBeTruthy();
  });
});
