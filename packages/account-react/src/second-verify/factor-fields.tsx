import { useId } from 'react';
import { useAccountText } from '../context';
import { CodeInput } from '../forms/code-input';
import { describedBy, FieldNotes, useFieldError } from '../forms/field';
import { CODE_LENGTH } from './dialog-frame';

/**
 * The factor picker of the second-verification and step-up dialogs: a radio group of the ways the
 * server named (`methods`), and the code field of an authenticator app or a recovery code. A way this
 * package does not know (a passkey, which brings its own ceremony) is left out of the group here.
 */

/** Factors whose proof is a code typed here (beside the SMS and e-mail codes, which are sent first). */
export const CODE_FACTORS = ['totp', 'recovery_code'] as const;
export type CodeFactor = (typeof CODE_FACTORS)[number];
export const isCodeFactor = (method: string): method is CodeFactor =>
  (CODE_FACTORS as readonly string[]).includes(method);

/** A radio group of ways; `label(way)` is its visible name. */
export function WayPicker<W extends string>({
  legend,
  ways,
  value,
  onChange,
}: {
  legend: string;
  ways: readonly (readonly [W, string])[];
  value: W | undefined;
  onChange(way: W): void;
}) {
  const name = useId();
  return (
    <fieldset className="portico-dialog-ways">
      <legend>{legend}</legend>
      {ways.map(([way, label]) => (
        <label key={way}>
          <input
            type="radio"
            name={name}
            value={way}
            checked={value === way}
            onChange={() => onChange(way)}
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** The code field of an authenticator app (6 digits) or of a recovery code (letters and digits). */
export function FactorCodeField({
  method,
  value,
  onChange,
  error,
}: {
  method: CodeFactor;
  value: string;
  onChange(value: string): void;
  error?: unknown;
}) {
  const t = useAccountText();
  const id = useId();
  const errorMessage = useFieldError(error);
  if (method === 'totp')
    return (
      <CodeInput
        label={t('factor.totpLabel')}
        value={value}
        onChange={onChange}
        length={CODE_LENGTH}
        error={error}
        required
      />
    );
  const hint = t('factor.recoveryHint');
  return (
    <div className="portico-field">
      <label htmlFor={id}>{t('factor.recoveryLabel')}</label>
      <input
        id={id}
        type="text"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={16}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        required
        aria-invalid={errorMessage ? true : undefined}
        aria-describedby={describedBy(id, hint, errorMessage)}
      />
      <FieldNotes id={id} hint={hint} errorMessage={errorMessage} />
    </div>
  );
}

/** Whether a typed code is complete enough to send for `method`. */
export const factorCodeComplete = (method: CodeFactor, code: string): boolean =>
  method === 'totp' ? /^[0-9]{6}$/.test(code) : code.replace(/[\s-]/g, '').length >= 10;
