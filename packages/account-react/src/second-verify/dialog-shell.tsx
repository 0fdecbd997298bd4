import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, type Ref, useRef, useState } from 'react';
import { useAccountText } from '../context';
import { overlayStyle, panelStyle } from './dialog-frame';

/**
 * The frame every second-verification panel draws, on Radix Dialog: the overlay, a modal dialog titled
 * and described by its heading and intro, focus moved in and kept inside, the page behind hidden from
 * assistive technology, Escape to close, and focus back where it was when the dialog goes. Only the
 * close button and Escape close it: a click beside it must not drop a sign-in half done.
 */
export function DialogShell({
  panel,
  title,
  intro,
  onClose,
  covered = false,
  initialFocus,
  children,
}: {
  /** The dialog element, for a panel that looks for its own fields. */
  panel?: Ref<HTMLDivElement>;
  title: ReactNode;
  intro: ReactNode;
  onClose: () => void;
  /** Another dialog is open above this one: this one is inert until it goes. */
  covered?: boolean;
  /** What gets focus when the dialog opens. Default: its first control. */
  initialFocus?: (panel: HTMLElement) => HTMLElement | null;
  children: ReactNode;
}) {
  // The panel is opened by the SDK, not by a Radix trigger: focus returns to what had it before.
  const returnTo = useRef<Element | null>(null);
  return (
    <Dialog.Root open onOpenChange={(open) => open || onClose()}>
      <Dialog.Overlay className="portico-dialog-overlay" style={overlayStyle} inert={covered}>
        <Dialog.Content
          ref={panel}
          aria-modal="true"
          className="portico-dialog"
          style={panelStyle}
          onOpenAutoFocus={(event) => {
            returnTo.current = document.activeElement;
            const first = initialFocus?.(event.currentTarget as HTMLElement);
            if (first) {
              event.preventDefault();
              first.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (returnTo.current instanceof HTMLElement && returnTo.current.isConnected)
              returnTo.current.focus();
          }}
          onPointerDownOutside={(event) => event.preventDefault()}
        >
          <Dialog.Title className="portico-dialog-title">{title}</Dialog.Title>
          <Dialog.Description className="portico-dialog-intro">{intro}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Overlay>
    </Dialog.Root>
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
