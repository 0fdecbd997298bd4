import { useLanguageOrDefault } from './context';
import { errorText } from './error-text';

export interface ErrorMessageProps {
  /** Any failure: an AccountError, another error, or nothing. A string is shown as it is (app validation). */
  error: unknown;
  /** For `aria-describedby` of the field it explains. */
  id?: string;
  className?: string;
}

/**
 * The failure's text in the provider's language (`errorText`: by error code, never by message), in a
 * `role="alert"` element so it is announced. Renders nothing when there is nothing to say.
 */
export function ErrorMessage({ error, id, className }: ErrorMessageProps) {
  const language = useLanguageOrDefault();
  const text = typeof error === 'string' ? error : errorText(error, language);
  if (!text) return null;
  return (
    <p role="alert" id={id} className={className ?? 'portico-error'}>
      {text}
    </p>
  );
}
