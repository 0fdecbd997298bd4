import { useEffect, useId, useState } from 'react';
import { useAccountText, useLanguageOrDefault } from '../context';
import type { AccountLanguage } from '../messages';
import { describedBy, FieldNotes, type FieldProps, useFieldError } from './field';

/** A country or region the mobile field offers: its dial code and its name in each language. */
export interface CountryCode {
  /** '+86' */
  dial: string;
  zh: string;
  en: string;
}

/** The default short list; pass `countries` for another. The first entry is the default. */
export const COUNTRY_CODES: readonly CountryCode[] = [
  { dial: '+86', zh: '中国大陆', en: 'China mainland' },
  { dial: '+852', zh: '中国香港', en: 'Hong Kong, China' },
  { dial: '+853', zh: '中国澳门', en: 'Macao, China' },
  { dial: '+886', zh: '中国台湾', en: 'Taiwan, China' },
  { dial: '+1', zh: '美国 / 加拿大', en: 'United States / Canada' },
  { dial: '+44', zh: '英国', en: 'United Kingdom' },
  { dial: '+65', zh: '新加坡', en: 'Singapore' },
  { dial: '+81', zh: '日本', en: 'Japan' },
  { dial: '+82', zh: '韩国', en: 'South Korea' },
  { dial: '+60', zh: '马来西亚', en: 'Malaysia' },
  { dial: '+61', zh: '澳大利亚', en: 'Australia' },
  { dial: '+49', zh: '德国', en: 'Germany' },
  { dial: '+33', zh: '法国', en: 'France' },
];

/**
 * Splits an E.164 string into a dial code of `countries` (the longest that matches) and the national
 * digits: '+8613912345678' → { dial: '+86', national: '13912345678' }. No match: the default country
 * and the digits as they are.
 */
export function splitMobile(
  value: string,
  countries: readonly CountryCode[] = COUNTRY_CODES,
): { dial: string; national: string } {
  const dial = matchDial(value, countries);
  if (dial) return { dial, national: digitsOf(value).slice(dial.length - 1) };
  return { dial: countries[0]?.dial ?? '+86', national: digitsOf(value) };
}

/** The longest dial code of `countries` that a '+…' value starts with. */
function matchDial(value: string, countries: readonly CountryCode[]): string | undefined {
  if (!value.trim().startsWith('+')) return undefined;
  const digits = `+${digitsOf(value)}`;
  let best: string | undefined;
  for (const { dial } of countries)
    if (digits.startsWith(dial) && (!best || dial.length > best.length)) best = dial;
  return best;
}

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

export interface MobileInputProps extends FieldProps {
  /** The E.164 number, e.g. '+8613912345678'; '' when no digits are entered. */
  value: string;
  onChange(value: string): void;
  /** The dial codes offered. Default `COUNTRY_CODES`. */
  countries?: readonly CountryCode[];
  /** The dial code selected while `value` is empty. Default: the first of `countries`. */
  defaultDial?: string;
}

/**
 * A mobile number field: a country-code select and the national number, controlled as one E.164
 * string. Typing or autofilling a full '+…' number into the number field picks its country, so
 * `autocomplete="tel"` works.
 */
export function MobileInput(props: MobileInputProps) {
  const { value, onChange, label, error, hint, name, disabled, required } = props;
  const countries = props.countries ?? COUNTRY_CODES;
  const t = useAccountText();
  const language: AccountLanguage = useLanguageOrDefault();
  const generated = useId();
  const id = props.id ?? generated;
  const errorMessage = useFieldError(error);
  const parsed = splitMobile(value, countries);
  // The selected country survives an empty value (nothing to derive it from).
  const [dial, setDial] = useState(value ? parsed.dial : (props.defaultDial ?? parsed.dial));
  useEffect(() => {
    if (value) setDial(splitMobile(value, countries).dial);
  }, [value, countries]);
  const selected = value ? parsed.dial : dial;
  const national = value ? parsed.national : '';
  const emit = (nextDial: string, nextNational: string) =>
    onChange(nextNational ? nextDial + nextNational : '');

  return (
    <div className={props.className ?? 'portico-field'}>
      <label htmlFor={id}>{label ?? t('mobile.label')}</label>
      <div className="portico-mobile">
        <select
          aria-label={t('mobile.country')}
          autoComplete="tel-country-code"
          value={selected}
          disabled={disabled}
          onChange={(event) => {
            const next = event.currentTarget.value;
            setDial(next);
            emit(next, national);
          }}
        >
          {countries.map((country) => (
            <option key={country.dial} value={country.dial}>
              {`${country.dial} ${country[language]}`}
            </option>
          ))}
        </select>
        <input
          id={id}
          name={name}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={national}
          onChange={(event) => {
            const typed = event.currentTarget.value.trim();
            // A full '+…' number (autofill, paste) picks its country; anything else is national digits.
            const matched = matchDial(typed, countries);
            if (matched) {
              setDial(matched);
              emit(matched, digitsOf(typed).slice(matched.length - 1));
            } else emit(selected, digitsOf(typed));
          }}
          disabled={disabled}
          required={required}
          aria-invalid={errorMessage ? true : undefined}
          aria-describedby={describedBy(id, hint, errorMessage)}
        />
      </div>
      <FieldNotes id={id} hint={hint} errorMessage={errorMessage} />
    </div>
  );
}
