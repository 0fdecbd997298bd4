import { LIMITS } from '@portico/account-sdk/protocol';

/** An E.164 number as MobileInput gives it: '+', a country code and enough digits to be a number. */
export const isMobile = (value: string) => /^\+\d{7,15}$/.test(value);
const CODE = new RegExp(`^\\d{${LIMITS.codeLength}}$`);
/** A one-time code as the passport issues it: `LIMITS.codeLength` digits. */
export const isCode = (value: string) => CODE.test(value);
/** Enough of an address to send a code to; the passport judges the rest. */
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
/** The passport's minimum; its other rules (common passwords, context words) come back as errors. */
export const MIN_PASSWORD = LIMITS.passwordMinLength;
