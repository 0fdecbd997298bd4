import { useEffect, useId, useMemo, useState } from 'react';
import { useAccountText, useDefaultRegion, useLanguageOrDefault } from '../context';
import type { AccountLanguage } from '../messages';
import { describedBy, FieldNotes, type FieldProps, useFieldError } from './field';

/**
 * A country or region the mobile field offers: its region code (ISO 3166, named with
 * `Intl.DisplayNames` in the page language) and its dial code. `zh`/`en` are only for entries without
 * a region code.
 */
export interface CountryCode {
  /** '+86' */
  dial: string;
  /** 'CN'. Several regions share a dial code (+1, +7, +44): the choice is keyed by this. */
  region?: string;
  zh?: string;
  en?: string;
}

/**
 * The short list shown on first render (no phone metadata on a page's first load); the full list of
 * every region libphonenumber-js knows is loaded when the picker is opened. The first entry is the
 * default unless `defaultRegion` says otherwise.
 */
export const COUNTRY_CODES: readonly CountryCode[] = [
  { region: 'CN', dial: '+86' },
  { region: 'HK', dial: '+852' },
  { region: 'MO', dial: '+853' },
  { region: 'TW', dial: '+886' },
  { region: 'US', dial: '+1' },
  { region: 'CA', dial: '+1' },
  { region: 'GB', dial: '+44' },
  { region: 'SG', dial: '+65' },
  { region: 'JP', dial: '+81' },
  { region: 'KR', dial: '+82' },
  { region: 'MY', dial: '+60' },
  { region: 'AU', dial: '+61' },
  { region: 'DE', dial: '+49' },
  { region: 'FR', dial: '+33' },
];

const displayNames = new Map<AccountLanguage, Intl.DisplayNames | null>();

/** A region's name in the page language from `Intl.DisplayNames` (region names only, no other labels). */
export function regionName(country: CountryCode, language: AccountLanguage): string {
  if (country.region) {
    if (!displayNames.has(language)) {
      let names: Intl.DisplayNames | null = null;
      try {
        names = new Intl.DisplayNames([language === 'zh' ? 'zh-Hans' : 'en'], { type: 'region' });
      } catch {}
      displayNames.set(language, names);
    }
    const name = displayNames.get(language)?.of(country.region);
    if (name) return name;
  }
  return country[language] ?? country.region ?? country.dial;
}

const keyOf = (country: CountryCode) => country.region ?? country.dial;

/** The entries whose name (page language), region code or dial code contains `query`. */
export function filterCountries(
  countries: readonly CountryCode[],
  query: string,
  language: AccountLanguage,
): CountryCode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...countries];
  const digits = q.replace(/^\+/, '');
  return countries.filter(
    (country) =>
      regionName(country, language).toLowerCase().includes(q) ||
      country.region?.toLowerCase() === q ||
      (/^\d+$/.test(digits) && country.dial.slice(1).startsWith(digits)),
  );
}

let everyRegion: Promise<CountryCode[]> | undefined;
/** Every region libphonenumber-js knows (imported on demand, once). */
export function loadAllRegions(): Promise<CountryCode[]> {
  everyRegion ??= import('./regions').then((module) => module.allRegions());
  return everyRegion;
}

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
  /**
   * The regions offered. Default: `COUNTRY_CODES` on first render, then every region libphonenumber-js
   * knows once the picker is opened. A list passed here is offered as it is.
   */
  countries?: readonly CountryCode[];
  /** The region selected while `value` is empty ('GB'). Default: the provider's `defaultRegion`, else the first of `countries`. */
  defaultRegion?: string;
  /** The dial code selected while `value` is empty (older form of `defaultRegion`). */
  defaultDial?: string;
}

/**
 * A mobile number field: a country-code select and the national number, controlled as one E.164
 * string. Typing or autofilling a full '+…' number into the number field picks its country, so
 * `autocomplete="tel"` works.
 */
export function MobileInput(props: MobileInputProps) {
  const { value, onChange, label, error, hint, name, disabled, required } = props;
  const t = useAccountText();
  const language: AccountLanguage = useLanguageOrDefault();
  const providerRegion = useDefaultRegion();
  const [loaded, setLoaded] = useState<readonly CountryCode[] | null>(null);
  const countries = props.countries ?? loaded ?? COUNTRY_CODES;
  const generated = useId();
  const id = props.id ?? generated;
  const searchId = `${id}-region-search`;
  const pickerId = `${id}-region`;
  const errorMessage = useFieldError(error);
  const [query, setQuery] = useState('');
  const loadAll = () => {
    if (props.countries || loaded) return;
    void loadAllRegions().then(setLoaded, () => {});
  };
  const wantedRegion = (props.defaultRegion ?? providerRegion)?.toUpperCase();
  const initialKey = () => {
    if (value) return keyFor(splitMobile(value, countries).dial, countries, wantedRegion);
    // A default region outside the short list is kept as the key until the full list has loaded.
    if (wantedRegion && (props.countries === undefined || countries.some((c) => c.region === wantedRegion)))
      return wantedRegion;
    const byDial = props.defaultDial && countries.find((country) => country.dial === props.defaultDial);
    return keyOf(byDial || countries[0] || { dial: '+86' });
  };
  // The selected region survives an empty value (nothing to derive it from).
  const [key, setKey] = useState(initialKey);
  useEffect(() => {
    if (value) setKey((current) => keyFor(splitMobile(value, countries).dial, countries, current));
  }, [value, countries]);
  // A default region or a typed number outside the short list needs the full list.
  const needsAll =
    !countries.some((country) => keyOf(country) === key) ||
    (value.trim().startsWith('+') && !matchDial(value, countries));
  useEffect(() => {
    if (needsAll) loadAll();
  }, [needsAll]);
  const parsed = splitMobile(value, countries);
  const selectedKey = value ? keyFor(parsed.dial, countries, key) : key;
  const selected = countries.find((country) => keyOf(country) === selectedKey) ?? countries[0];
  const dial = selected?.dial ?? parsed.dial;
  const national = value ? parsed.national : '';
  const emit = (nextDial: string, nextNational: string) =>
    onChange(nextNational ? nextDial + nextNational : '');
  const choose = (country: CountryCode) => {
    setKey(keyOf(country));
    emit(country.dial, national);
  };

  const sorted = useMemo(() => {
    if (!loaded || props.countries) return countries;
    const collator = new Intl.Collator(language === 'zh' ? 'zh-Hans-u-co-pinyin' : 'en');
    return [...countries].sort((a, b) => collator.compare(regionName(a, language), regionName(b, language)));
  }, [countries, loaded, props.countries, language]);
  const shown = filterCountries(sorted, query, language);
  // The selected region stays in the list whatever the search says (a select shows its value).
  if (selected && !shown.includes(selected)) shown.unshift(selected);

  return (
    <div className={props.className ?? 'portico-field'}>
      <label htmlFor={id}>{label ?? t('mobile.label')}</label>
      <input
        id={searchId}
        className="portico-mobile-search"
        type="search"
        aria-label={t('mobile.search')}
        aria-controls={pickerId}
        placeholder={t('mobile.search')}
        autoComplete="off"
        value={query}
        disabled={disabled}
        onFocus={loadAll}
        onChange={(event) => setQuery(event.currentTarget.value)}
        onKeyDown={(event) => {
          // Enter picks the first match instead of submitting the form.
          if (event.key !== 'Enter') return;
          event.preventDefault();
          const first = filterCountries(sorted, query, language)[0];
          if (first) choose(first);
        }}
      />
      <div className="portico-mobile">
        <select
          id={pickerId}
          aria-label={t('mobile.country')}
          autoComplete="tel-country-code"
          value={selected ? keyOf(selected) : ''}
          disabled={disabled}
          onFocus={loadAll}
          onPointerDown={loadAll}
          onChange={(event) => {
            const next = countries.find((country) => keyOf(country) === event.currentTarget.value);
            if (next) choose(next);
          }}
        >
          {shown.map((country) => (
            <option key={keyOf(country)} value={keyOf(country)}>
              {`${regionName(country, language)} ${country.dial}`}
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
            // A full '+…' number (autofill, paste) picks its region; anything else is national digits.
            const matched = matchDial(typed, countries);
            if (matched) {
              setKey(keyFor(matched, countries, key));
              emit(matched, digitsOf(typed).slice(matched.length - 1));
            } else if (typed.startsWith('+') && !props.countries && !loaded) {
              // A region outside the short list: keep the number as typed while the full list loads.
              loadAll();
              onChange(digitsOf(typed) ? `+${digitsOf(typed)}` : '');
            } else emit(dial, digitsOf(typed));
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

/** The key of the region for `dial`: `preferred` when it has that dial code, else the first that does. */
function keyFor(dial: string, countries: readonly CountryCode[], preferred?: string): string {
  const same = countries.filter((country) => country.dial === dial);
  const kept = same.find((country) => keyOf(country) === preferred);
  return keyOf(kept ?? same[0] ?? { dial });
}
