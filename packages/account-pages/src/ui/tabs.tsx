import * as RadixTabs from '@radix-ui/react-tabs';
import { type ReactNode, useEffect, useRef } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
  panel: ReactNode;
}

/**
 * WAI-ARIA tabs on Radix Tabs, with automatic activation: one tab stop (the selected tab), arrow keys
 * move and select, Home and End jump to the ends. Only the selected panel's content is rendered (the
 * others are empty, hidden panels the tabs point at), so a form's state lives in its parent when it
 * must survive a switch. A switch from inside the panel, or while another tab has focus, puts focus on
 * the new tab.
 */
export function Tabs<K extends string>({
  label,
  items,
  selected,
  onSelect,
}: {
  label: string;
  items: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
}) {
  const tabs = useRef(new Map<K, HTMLElement>());
  const panels = useRef(new Map<K, HTMLElement>());
  const active = items.find((item) => item.key === selected) ?? items[0];

  // A switch made from inside a panel (a long wait's "sign in with password") takes away, with the old
  // panel, the control that had focus: focus then goes to the newly selected tab, not to the page's start.
  // Radix empties the old panel a render later, so the control may still be there, or already gone.
  // A switch while another tab has focus moves it too: Radix keeps the focused tab as the tab stop, so
  // Shift+Tab from the panel would land on it and (automatic activation) select it, dropping the panel.
  const shown = useRef(selected);
  useEffect(() => {
    const focused = document.activeElement;
    const selectedTab = tabs.current.get(selected);
    if (
      shown.current !== selected &&
      focused !== selectedTab &&
      (focused === document.body ||
        panels.current.get(shown.current)?.contains(focused) ||
        [...tabs.current.values()].includes(focused as HTMLElement))
    )
      selectedTab?.focus();
    shown.current = selected;
  }, [selected]);

  return (
    <RadixTabs.Root
      className="tabs"
      value={active?.key ?? ''}
      onValueChange={(value) => {
        const item = items.find((candidate) => candidate.key === value);
        if (item) onSelect(item.key);
      }}
    >
      <RadixTabs.List aria-label={label} className="tabs-list">
        {items.map((item) => (
          <RadixTabs.Trigger
            key={item.key}
            value={item.key}
            ref={keep(tabs.current, item.key)}
            className="tabs-tab"
          >
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        // Radix renders the content of the selected panel only (no forceMount).
        <RadixTabs.Content
          key={item.key}
          value={item.key}
          ref={keep(panels.current, item.key)}
          className="tabs-panel"
        >
          {item.panel}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}

/** A ref callback that keeps the element under `key` while it is mounted. */
const keep =
  <K,>(elements: Map<K, HTMLElement>, key: K) =>
  (element: HTMLElement | null) => {
    if (element) elements.set(key, element);
    else elements.delete(key);
  };
