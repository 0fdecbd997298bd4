import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { useAccountText } from '../context';

export interface SubmitButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** A request is in flight: the button is disabled, `aria-busy`, and shows `pendingLabel`. */
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
  ...rest
}: SubmitButtonProps) {
  const t = useAccountText();
  return (
    <button
      {...rest}
      type={type}
      className={className ?? 'portico-submit'}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
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
