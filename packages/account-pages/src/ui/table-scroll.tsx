import type { ReactNode } from 'react';

/**
 * A table's box that scrolls sideways on a narrow screen (at 375 px a wide table overflows). It takes
 * focus so that a keyboard can scroll it too (axe: scrollable-region-focusable), named by `label`; a
 * group, not a region, so it adds no landmark beside the section around it.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset is for form controls; this groups a table.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to scroll by keyboard.
    <div className="table-scroll" role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
