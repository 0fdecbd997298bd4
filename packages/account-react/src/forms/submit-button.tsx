import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { useAccountText } from '../context';

export interface SubmitButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /**
   * A request is in flight: the button is `aria-disabled` and `aria-busy`, ignores presses (and Enter in
   * the form), and shows `pendingLabel`. It stays focusable, so focus is not lost while it waits (and a
   * dialog opened meanwhile, such as second verification, can give it back on close).
   */
  pending?: boolean;
  /** Shown while pending. Default: "请稍候…" / "Please wait…". */
  pendingLabel?: ReactNode;
  /** Default 'submit'. */
  type?: 'submit' | 'button';
}

/** A form's submit button that shows progress and cannot be pressed twice while a request is in flight. */
export function SubmitButton({
  pending = false,
  pendingLabel,
  children,
  disabled,
  className,
  type = 'submit',
  onClick,
  ...rest
}: SubmitButtonProps) {
  const t = useAccountText();
  return (
    <button
      {...rest}
      type={type}
      className={className ?? 'portico-submit'}
      disabled={disabled}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={(event) => {
        // A pending press (or the form's implicit submission by Enter, which clicks this button) does nothing.
        if (pending) event.preventDefault();
        else onClick?.(event);
      }}
    >
      {pending ? (
        <>
          <span className="portico-spinner" aria-hidden="true" />
          {pendingLabel ?? t('submit.pending')}
        </>
      ) : (
        children
      )}
    </button>
  );
}
