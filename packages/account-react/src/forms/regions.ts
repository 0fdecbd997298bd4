import { getCountries, getCountryCallingCode } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/min/metadata';
import type { CountryCode } from './mobile-input';

/**
 * Every region libphonenumber-js knows, keyed by its region code, with its dial code. Loaded by
 * `import()` only when the region picker is opened: the metadata stays off a page's first load. Where
 * regions share a dial code (+1, +7, +44…) the main region of that code comes first.
 */
export function allRegions(): CountryCode[] {
  const main = new Set(Object.values(metadata.country_calling_codes).map((regions) => regions[0]));
  return getCountries(metadata)
    .map((region) => ({ region, dial: `+${getCountryCallingCode(region, metadata)}` }))
    .sort((a, b) => Number(main.has(b.region)) - Number(main.has(a.region)));
}
