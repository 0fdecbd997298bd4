import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { type ReactNode, useState } from 'react';
import { buttonClass } from './button';
import { useConfirmT } from './confirm.messages';

export interface ConfirmButtonProps {
  /** The button's text, and the dialog's confirming action unless `confirmLabel` says otherwise. */
  children: ReactNode;
  /** The dialog's title: what is about to happen, in a question ("Remove Ada?"). */
  title: string;
  /** What follows, and what cannot be undone. */
  description: string;
  /** The confirming button's text. Default: the trigger's `children`. */
  confirmLabel?: ReactNode;
  /** Runs once confirmed; the dialog closes first. */
  onConfirm(): void;
  /** The trigger's accessible name when its text alone is ambiguous in a list ("Remove: Ada"). */
  'aria-label'?: string;
  className?: string;
  disabled?: boolean;
}

/**
 * A destructive action behind an alert dialog (Radix AlertDialog: focus moves into it and returns to
 * the trigger, Escape and Cancel close it, Tab stays inside, the page behind is inert). Cancel has the
 * focus first, so Enter never destroys by accident.
 */
export function ConfirmButton({
  children,
  title,
  description,
  confirmLabel,
  onConfirm,
  className = buttonClass('secondary'),
  disabled,
  ...rest
}: ConfirmButtonProps) {
  const t = useConfirmT();
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger
        type="button"
        className={className}
        disabled={disabled}
        aria-label={rest['aria-label']}
      >
        {children}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="portico-dialog-overlay" />
        <AlertDialog.Content className="portico-dialog portico-confirm">
          <AlertDialog.Title className="portico-dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="portico-dialog-intro">{description}</AlertDialog.Description>
          <div className="portico-dialog-actions">
            <AlertDialog.Cancel type="button" className={buttonClass('secondary')}>
              {t('confirm.cancel')}
            </AlertDialog.Cancel>
            <AlertDialog.Action type="button" className={buttonClass('danger')} onClick={onConfirm}>
              {confirmLabel ?? children}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
