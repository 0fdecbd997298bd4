import { LIMITS } from '@portico/account-sdk/protocol';
import type { CSSProperties } from 'react';

/** What the second-verification and step-up panels share: the overlay's and the panel's styles. */

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
