import { ErrorMessage, useAccountLanguage } from '@portico/account-react';
import { isAccountError } from '@portico/account-sdk';
import { enterpriseErrorTexts, errorCatalogue } from '@portico/account-sdk/protocol';
import { organisationTexts } from '@portico/affiliate-sdk/protocol';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { usePermissionWords } from './permission-words';

/**
 * Clears what the given changes last said (their error, their "saved"), so a message never outlives
 * what it was about: call it when an input it concerns changes, and when another change starts.
 */
export function clearOutcome(...changes: readonly { isIdle: boolean; reset(): void }[]): void {
  for (const change of changes) if (!change.isIdle) change.reset();
}

/** Input handlers that clear first: `const edit = clearingFirst(fresh)`, then `onChange={edit(setName)}`. */
export const clearingFirst =
  (clear: () => void) =>
  <V,>(set: (value: V) => void) =>
  (value: V) => {
    clear();
    set(value);
  };

const consoleCatalogue = /* @__PURE__ */ errorCatalogue([organisationTexts, enterpriseErrorTexts]);

/**
 * An organisation failure (16xx) or an enterprise sign-in one (24xx: domains, connections, the policy)
 * in the page's language from the console's catalogue. The server's
 * `description` is in the language the client was made with, which a switch on the page does not
 * change. A code of no catalogue here shows the server's own words; anything else as the account SDK
 * words it.
 */
export function Problem({ error }: { error: unknown }) {
  const language = useAccountLanguage();
  if (isAccountError(error) && error.kind === 'response' && consoleCatalogue.entry(error.error_code))
    return <ErrorMessage error={consoleCatalogue.text(error.error_code, language)} />;
  const description = (error as { description?: unknown } | null)?.description;
  return <ErrorMessage error={typeof description === 'string' && description ? description : error} />;
}

/** A labelled text input. */
export function Field({
  label,
  value,
  onChange,
  required,
  inputMode,
  multiline,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  required?: boolean;
  inputMode?: 'numeric';
  multiline?: boolean;
}) {
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} value={value} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          id={id}
          value={value}
          required={required}
          inputMode={inputMode}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}

/** A labelled native select (`placeholder` an empty first option). */
export function Choice({
  label,
  value,
  onChange,
  options,
  placeholder,
  required,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  options: readonly (readonly [string, string])[];
  placeholder?: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} required={required}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A console section: a region named by its heading. */
export function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * Permission checkboxes: `offered` in order, each in words with its key beside it; those the caller
 * does not hold (`grantable`) are shown but disabled, since nobody grants or takes away a permission
 * beyond their own.
 */
export function PermissionChecklist({
  legend,
  offered,
  grantable,
  checked,
  onChange,
  hint,
}: {
  legend: string;
  offered: readonly string[];
  grantable: ReadonlySet<string>;
  checked: readonly string[];
  onChange(next: string[]): void;
  hint?: string;
}) {
  const hintId = useId();
  const { word } = usePermissionWords();
  return (
    <fieldset className="org-permissions" aria-describedby={hint ? hintId : undefined}>
      <legend>{legend}</legend>
      {hint && (
        <p id={hintId} className="muted">
          {hint}
        </p>
      )}
      {offered.map((p) => (
        <label key={p}>
          <input
            type="checkbox"
            checked={checked.includes(p)}
            disabled={!grantable.has(p)}
            onChange={(e) => onChange(e.target.checked ? [...checked, p] : checked.filter((g) => g !== p))}
          />{' '}
          {word(p)}
          {word(p) !== p && (
            <>
              {' '}
              <code className="muted">{p}</code>
            </>
          )}
        </label>
      ))}
    </fieldset>
  );
}
