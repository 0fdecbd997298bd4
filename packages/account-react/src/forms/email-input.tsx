import { useId } from 'react';
import { useAccountText } from '../context';
import { describedBy, FieldNotes, type FieldProps, useFieldError } from './field';

export interface EmailInputProps extends FieldProps {
  value: string;
  onChange(value: string): void;
  /** Default 'email'; use 'username' on a sign-in form where the e-mail is the account name. */
  autoComplete?: string;
}

/** An e-mail field (`type="email"`), controlled; the value is trimmed of surrounding spaces. */
export function EmailInput(props: EmailInputProps) {
  const { value, onChange, label, error, hint, name, disabled, required, autoComplete } = props;
  const t = useAccountText();
  const generated = useId();
  const id = props.id ?? generated;
  const errorMessage = useFieldError(error);
  return (
    <div className={props.className ?? 'portico-field'}>
      <label htmlFor={id}>{label ?? t('email.label')}</label>
      <input
        id={id}
        name={name}
        type="email"
        inputMode="email"
        autoComplete={autoComplete ?? 'email'}
        spellCheck={false}
        autoCapitalize="none"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value.trim())}
        disabled={disabled}
        required={required}
        aria-invalid={errorMessage ? true : undefined}
        aria-describedby={describedBy(id, hint, errorMessage)}
      />
      <FieldNotes id={id} hint={hint} errorMessage={errorMessage} />
    </div>
  );
}
