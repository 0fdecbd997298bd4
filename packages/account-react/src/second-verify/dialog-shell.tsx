import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useState } from 'react';
import { useAccountText } from '../context';
import { overlayStyle, panelStyle, trapTab } from './dialog-frame';

/**
 * The frame both second-verification panels draw: the overlay, a modal dialog titled and described by
 * its heading and intro, Escape to close and Tab kept inside.
 */
export function DialogShell({
  panel,
  title,
  intro,
  onClose,
  covered = false,
  children,
}: {
  panel: RefObject<HTMLDivElement | null>;
  title: ReactNode;
  intro: ReactNode;
  onClose: () => void;
  /** Another dialog is open above this one: this one is inert until it goes. */
  covered?: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  const introId = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Tab') trapTab(event, panel.current);
  };
  return (
    <div className="portico-dialog-overlay" style={overlayStyle} inert={covered}>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={introId}
        className="portico-dialog"
        style={panelStyle}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="portico-dialog-title">
          {title}
        </h2>
        <p id={introId} className="portico-dialog-intro">
          {intro}
        </p>
        {children}
      </div>
    </div>
  );
}

/** The dialog's buttons: its submit (if any) and the close button. */
export function DialogActions({ onClose, children }: { onClose: () => void; children?: ReactNode }) {
  const t = useAccountText();
  return (
    <div className="portico-dialog-actions">
      {children}
      <button type="button" className="portico-dialog-close" onClick={onClose}>
        {t('secondVerify.close')}
      </button>
    </div>
  );
}

/** A code send in flight and its failure: `run` clears the last failure and keeps the one it meets. */
export function useCodeSend() {
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<unknown>(null);
  const run = async (send: () => Promise<void>) => {
    setSending(true);
    setSendError(null);
    try {
      await send();
    } catch (error) {
      setSendError(error);
    } finally {
      setSending(false);
    }
  };
  return { sending, sendError, run };
}

/** Focus into the panel's first field on open, and back where it was on close. */
export function useDialogFocus(panel: { current: HTMLDivElement | null }) {
  // The panel is keyed per request, so this runs once per opened request.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>('input, button')?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, [panel]);
}
