import { useId, useState } from 'react';
import { useAccountText } from '../context';
import { describedBy, FieldNotes, type FieldProps, useFieldError } from './field';

export interface PasswordInputProps extends FieldProps {
  value: string;
  onChange(value: string): void;
  /** 'current-password' (default) to sign in, 'new-password' to set or change one. */
  autoComplete?: 'current-password' | 'new-password';
  /** The reveal toggle's label. Default: "显示密码" / "Show password". */
  revealLabel?: string;
  /** Passed to the input, e.g. 8 for a new password. */
  minLength?: number;
}

/**
 * A password field with a reveal toggle: a real button with a constant label and `aria-pressed`, so a
 * screen reader says "Show password, toggle button, pressed". The value is never changed (no trimming).
 */
export function PasswordInput(props: PasswordInputProps) {
  const { value, onChange, label, error, hint, name, disabled, required, minLength } = props;
  const t = useAccountText();
  const generated = useId();
  const id = props.id ?? generated;
  const [revealed, setRevealed] = useState(false);
  const errorMessage = useFieldError(error);
  return (
    <div className={props.className ?? 'portico-field'}>
      <label htmlFor={id}>{label ?? t('password.label')}</label>
      <div className="portico-password">
        <input
          id={id}
          name={name}
          type={revealed ? 'text' : 'password'}
          autoComplete={props.autoComplete ?? 'current-password'}
          spellCheck={false}
          autoCapitalize="none"
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          disabled={disabled}
          required={required}
          minLength={minLength}
          aria-invalid={errorMessage ? true : undefined}
          aria-describedby={describedBy(id, hint, errorMessage)}
        />
        <button
          type="button"
          className="portico-password-toggle"
          aria-pressed={revealed}
          aria-controls={id}
          disabled={disabled}
          onClick={() => setRevealed((shown) => !shown)}
        >
          {props.revealLabel ?? t('password.show')}
        </button>
      </div>
      <FieldNotes id={id} hint={hint} errorMessage={errorMessage} />
    </div>
  );
}
