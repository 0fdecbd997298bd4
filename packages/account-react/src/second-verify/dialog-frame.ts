import { LIMITS } from '@portico/account-sdk/protocol';
import type { CSSProperties, KeyboardEvent } from 'react';

/** What the second-verification and step-up panels share: the overlay, the panel and the Tab trap. */

/** The only hard styling of the package: an overlay must cover the page to be an overlay. */
export const overlayStyle: CSSProperties = {
  position: 'fixed',
  inset: 0,
  zIndex: 2147483000,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: 16,
  background: 'rgba(0, 0, 0, 0.45)',
};
export const panelStyle: CSSProperties = {
  boxSizing: 'border-box',
  width: '100%',
  maxWidth: 420,
  maxHeight: '100%',
  overflow: 'auto',
  padding: 24,
  borderRadius: 8,
  // System colours follow the page's color-scheme (light or dark) without a stylesheet.
  background: 'Canvas',
  color: 'CanvasText',
};

export const CODE_LENGTH = LIMITS.codeLength;

/** Keeps Tab and Shift+Tab inside the dialog. */
export function trapTab(event: KeyboardEvent, root: HTMLElement | null) {
  if (!root) return;
  const focusable = Array.from(
    root.querySelectorAll<HTMLElement>(
      'button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])',
    ),
  ).filter((element) => !(element as HTMLButtonElement).disabled);
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
