import { render, screen } from '@testing-library/react';
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

function Methods({ initial = 'sms' }: { initial?: Key }) {
  const [selected, setSelected] = useState<Key>(initial);
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
});
