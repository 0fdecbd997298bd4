import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
  panel: ReactNode;
}

/**
 * WAI-ARIA tabs with automatic activation: one tab stop (the selected tab), arrow keys move and select,
 * Home and End jump to the ends. Only the selected panel is rendered, so a form's state lives in its
 * parent when it must survive a switch. A switch from inside the panel puts focus on the new tab.
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
  const id = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const index = Math.max(
    0,
    items.findIndex((item) => item.key === selected),
  );
  const active = items[index];

  // A switch made from inside a panel (a long wait's "sign in with password") takes away, with the old
  // panel, the control that had focus: focus then goes to the newly selected tab, not to the page's start.
  const shown = useRef(selected);
  useEffect(() => {
    if (shown.current !== selected && document.activeElement === document.body)
      refs.current.get(selected)?.focus();
    shown.current = selected;
  }, [selected]);

  function move(event: KeyboardEvent<HTMLDivElement>) {
    const last = items.length - 1;
    const to =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : -1;
    if (to === -1) return;
    event.preventDefault();
    const target = items[to];
    if (!target) return;
    onSelect(target.key);
    refs.current.get(target.key)?.focus();
  }

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tabs-list" onKeyDown={move}>
        {items.map((item) => {
          const isSelected = item.key === active?.key;
          return (
            <button
              key={item.key}
              ref={(element) => {
                if (element) refs.current.set(item.key, element);
                else refs.current.delete(item.key);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${item.key}`}
              aria-selected={isSelected}
              aria-controls={`${id}-panel-${item.key}`}
              tabIndex={isSelected ? 0 : -1}
              className="tabs-tab"
              onClick={() => onSelect(item.key)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {active ? (
        <div
          role="tabpanel"
          id={`${id}-panel-${active.key}`}
          aria-labelledby={`${id}-tab-${active.key}`}
          className="tabs-panel"
        >
          {active.panel}
        </div>
      ) : null}
    </div>
  );
}
