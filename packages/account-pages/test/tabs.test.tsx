import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs } from '../src';

type Key = 'sms' | 'email' | 'password';

/** A panel with a field whose text lives in the panel itself (lost when the panel goes). */
function Field({ label }: { label: string }) {
  return (
    <label>
      {label} <input />
    </label>
  );
}

function Methods({ initial = 'sms', control }: { initial?: Key; control?: { select?: (key: Key) => void } }) {
  const [selected, setSelected] = useState<Key>(initial);
  if (control) control.select = setSelected;
  return (
    <Tabs<Key>
      label="Sign-in methods"
      selected={selected}
      onSelect={setSelected}
      items={[
        { key: 'sms', label: 'SMS', panel: <Field label="Mobile" /> },
        { key: 'email', label: 'E-mail', panel: <Field label="Address" /> },
        {
          key: 'password',
          label: 'Password',
          panel: (
            <button type="button" onClick={() => setSelected('sms')}>
              Use a code instead
            </button>
          ),
        },
      ]}
    />
  );
}

describe('Tabs', () => {
  it('is one tab stop whose arrow keys, Home and End move and select, the stylesheet’s classes on each part', async () => {
    const user = userEvent.setup();
    const { container } = render(<Methods />);
    const list = screen.getByRole('tablist', { name: 'Sign-in methods' });
    expect(list.className).toBe('tabs-list');
    expect(container.querySelector('.tabs')?.contains(list)).toBe(true);
    const [sms, email, password] = screen.getAllByRole('tab');
    expect(screen.getAllByRole('tab').map((tab) => tab.className)).toEqual([
      'tabs-tab',
      'tabs-tab',
      'tabs-tab',
    ]);
    expect(sms?.getAttribute('aria-selected')).toBe('true');
    expect(email?.tabIndex).toBe(-1);

    await user.tab();
    expect(document.activeElement).toBe(sms);
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(email);
    expect(email?.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'E-mail' }).className).toBe('tabs-panel');
    await user.keyboard('{End}');
    expect(password?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(sms);
    await user.keyboard('{Home}{ArrowLeft}');
    expect(document.activeElement).toBe(password);
    expect(password?.getAttribute('aria-selected')).toBe('true');
  });

  it('renders only the selected panel: what was typed in another is gone when it comes back', async () => {
    const user = userEvent.setup();
    render(<Methods />);
    await user.type(screen.getByLabelText('Mobile'), '139');
    expect(screen.queryByLabelText('Address')).toBeNull();
    expect(screen.getAllByRole('tabpanel')).toHaveLength(1);

    await user.click(screen.getByRole('tab', { name: 'E-mail' }));
    expect(screen.queryByLabelText('Mobile')).toBeNull();
    expect(screen.getByLabelText('Address')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'SMS' }));
    expect(screen.getByLabelText<HTMLInputElement>('Mobile').value).toBe('');
  });

  it('puts focus on the new tab when a switch from inside the panel took the focused control away', async () => {
    const user = userEvent.setup();
    render(<Methods initial="password" />);
    // Selecting from outside moves no focus.
    expect(document.activeElement).toBe(document.body);
    await user.click(screen.getByRole('button', { name: 'Use a code instead' }));
    const sms = screen.getByRole('tab', { name: 'SMS' });
    expect(sms.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(sms);
  });

  it('moves focus to the new tab when the selection changes while another tab has it, so the selected tab is the tab stop', async () => {
    const user = userEvent.setup();
    const control: { select?: (key: Key) => void } = {};
    render(<Methods control={control} />);
    await user.tab();
    const sms = screen.getByRole('tab', { name: 'SMS' });
    expect(document.activeElement).toBe(sms);

    // Selected by the page (a long wait's switch), not by the person: the focused tab is no longer it.
    // Left as Radix's tab stop, Shift+Tab from the panel would land on it and select it again.
    act(() => control.select?.('email'));
    const email = screen.getByRole('tab', { name: 'E-mail' });
    expect(email.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(email);
    expect(email.tabIndex).toBe(0);
    expect(sms.tabIndex).toBe(-1);
  });
});
