import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

export interface NormalisedMobile {
  e164: string;
  country: CountryCode | undefined;
}

/**
 * The numbers reserved for fiction that libphonenumber's metadata does not count as valid, so that
 * development can use numbers that can never reach anyone: the UK's drama range 07700 900000–900999
 * (Ofcom). NANP's 555-0100–0199 and Australia's 0491 570 xxx ranges are valid numbers to
 * libphonenumber already and need nothing here. Accepted only with `fictional` (a loopback
 * PUBLIC_ORIGIN, config.fictionalNumbers); in production they stay INVALID_MOBILE.
 */
export const FICTIONAL_RANGES: readonly { country: CountryCode; e164: RegExp; example: string }[] = [
  { country: 'GB', e164: /^\+447700900\d{3}$/, example: '+44 7700 900123' },
];

export interface MobileOptions {
  /** Accept FICTIONAL_RANGES (development only). */
  fictional?: boolean;
}

/**
 * A mobile number in E.164, or null when it is not a valid number. A number without +country is read
 * in `region`; `00` and `+` prefixes, spaces, dashes and brackets are accepted.
 */
export function normaliseMobile(
  input: string,
  region: CountryCode,
  options: MobileOptions = {},
): NormalisedMobile | null {
  const text = input.trim();
  if (text.length === 0 || text.length > 32 || !/^[+0-9()\-.\s]+$/.test(text)) return null;
  const international = text.startsWith('00') ? `+${text.slice(2)}` : text;
  const parsed = parsePhoneNumberFromString(international, region);
  if (parsed?.isValid()) return { e164: parsed.number, country: parsed.country };
  if (options.fictional && parsed) {
    const range = FICTIONAL_RANGES.find((r) => r.e164.test(parsed.number));
    if (range) return { e164: parsed.number, country: range.country };
  }
  return null;
}

const EMAIL =
  /^[^\s@"(),:;<>[\\\]]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** An e-mail address trimmed and lower-cased, or null when it does not look like one. */
export function normaliseEmail(input: string): string | null {
  const email = input.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}

/** A username NFKC-normalised and lower-cased, or null when it is not a plausible username. */
export function normaliseUsername(input: string): string | null {
  const name = input.normalize('NFKC').trim().toLowerCase();
  return name.length >= 2 && name.length <= 64 && !/[\s@]/.test(name) ? name : null;
}

/** Masks a mobile or e-mail for display: +86******8000, a***@example.com. */
export function mask(value: string): string {
  const at = value.indexOf('@');
  if (at > 0) return `${value[0]}***${value.slice(at)}`;
  return value.length > 6 ? `${value.slice(0, 3)}${'*'.repeat(value.length - 7)}${value.slice(-4)}` : '****';
}
