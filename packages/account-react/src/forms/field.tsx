import type { ReactNode } from 'react';
import { useLanguageOrDefault } from '../context';
import { errorText } from '../error-text';

/** Props every form part shares. */
export interface FieldProps {
  /** The visible label. Default: the package's text in the provider's language. */
  label?: ReactNode;
  /** A validation message (string, shown as is) or a failure (shown by `errorText`); marks the field invalid. */
  error?: unknown;
  /** Extra help under the field, linked by aria-describedby. */
  hint?: ReactNode;
  /** The control's id; default from `useId`. */
  id?: string;
  name?: string;
  disabled?: boolean;
  required?: boolean;
  /** Class of the wrapper; default `portico-field`. */
  className?: string;
}

/** The text a field's `error` prop shows, or '' for none. */
export function useFieldError(error: unknown): string {
  const language = useLanguageOrDefault();
  return typeof error === 'string' ? error : errorText(error, language);
}

/** aria-describedby of a control: the hint and the error, when present. */
export function describedBy(id: string, hint: ReactNode, errorMessage: string): string | undefined {
  const ids = [hint ? `${id}-hint` : '', errorMessage ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

/** Hint and error lines of a field; the error is an alert so it is announced when it appears. */
export function FieldNotes({
  id,
  hint,
  errorMessage,
}: {
  id: string;
  hint: ReactNode;
  errorMessage: string;
}) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="portico-field-hint">
          {hint}
        </p>
      ) : null}
      {errorMessage ? (
        <p id={`${id}-error`} role="alert" className="portico-field-error">
          {errorMessage}
        </p>
      ) : null}
    </>
  );
}
