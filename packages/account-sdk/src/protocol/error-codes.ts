/**
 * The error codes shared by the SDK and the server: a stable number, a stable name and the HTTP status
 * the server answers with (200 for a business failure, the envelope tells it; a 4xx for a protocol
 * violation; 5xx only when the server itself cannot serve). The user-facing texts are apart, in
 * `error-texts.ts`, so a page that branches on a code carries no text.
 *
 * The codes come in ranges, one per concern. Another package adds its own with `defineErrorRange`
 * (the organisation SDK 16xx, open authorization 17xx) and its texts with `defineErrorTexts`.
 */

/** One row of a range: [code, NAME, HTTP status]. */
export type ErrorCodeRow = readonly [code: number, name: string, status: number];

/** `INVALID_PARAM` → `invalidParam`. */
export type ErrorKey<N extends string> = N extends `${infer A}_${infer B}`
  ? `${Lowercase<A>}${Capitalize<ErrorKey<B>>}`
  : Lowercase<N>;

export interface ErrorCodeEntry<
  C extends number = number,
  N extends string = string,
  S extends number = number,
> {
  readonly code: C;
  readonly name: N;
  readonly status: S;
}

/** A range's entries by camelCase name: `range.codes.secondVerify.code === 2046`. */
export type ErrorCodesOf<R extends readonly ErrorCodeRow[]> = {
  readonly [Row in R[number] as ErrorKey<Row[1]>]: ErrorCodeEntry<Row[0], Row[1], Row[2]>;
};

/** A block of codes owned by one concern (or one package), rendered as one table in docs/protocol.md. */
export interface ErrorRange<R extends readonly ErrorCodeRow[] = readonly ErrorCodeRow[]> {
  /** What the range is about, e.g. 'One-time codes and tickets'. */
  readonly title: string;
  readonly first: number;
  readonly last: number;
  readonly codes: ErrorCodesOf<R>;
}

const keyOf = (name: string): string =>
  name.toLowerCase().replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * Declares a range of error codes. A code outside `first`…`last`, or a name that is not
 * UPPER_SNAKE_CASE, throws a TypeError at once.
 *
 * ```ts
 * export const organisationErrors = defineErrorRange('Organisations', 1600, 1699, [
 *   [1601, 'NOT_A_MEMBER', 200],
 * ] as const);
 * ```
 */
export function defineErrorRange<const R extends readonly ErrorCodeRow[]>(
  title: string,
  first: number,
  last: number,
  rows: R,
): ErrorRange<R> {
  const codes: Record<string, ErrorCodeEntry> = {};
  for (const [code, name, status] of rows) {
    if (!(code >= first && code <= last) || !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(name))
      throw new TypeError(
        `defineErrorRange('${title}'): ${code} ${name} must lie in ${first}…${last} and be named in UPPER_SNAKE_CASE`,
      );
    codes[keyOf(name)] = { code, name, status };
  }
  return { title, first, last, codes: codes as ErrorCodesOf<R> };
}

/** Protocol violations: each answers its HTTP status and still carries an envelope. */
export const protocolErrors = /* @__PURE__ */ defineErrorRange('Protocol violations', 1000, 1099, [
  [1001, 'INVALID_PARAM', 400],
  [1002, 'CSRF_FAILED', 403],
  [1003, 'PAYLOAD_TOO_LARGE', 413],
  [1004, 'RATE_LIMITED', 429],
  [1005, 'NOT_FOUND', 404],
  [1006, 'UNSUPPORTED_MEDIA_TYPE', 415],
  [1007, 'METHOD_NOT_ALLOWED', 405],
  [1008, 'SERVICE_UNAVAILABLE', 503],
  [1009, 'INTERNAL_ERROR', 500],
  [1010, 'ORIGIN_NOT_ALLOWED', 403],
  [1011, 'CSRF_COOKIE_UNREADABLE', 403],
  [1012, 'CROSS_SITE_PAGE', 403],
  [1090, 'APP_UNKNOWN', 400],
]);

export const accountErrors = /* @__PURE__ */ defineErrorRange('Session and account', 1100, 1199, [
  [1101, 'NOT_LOGGED_IN', 200],
  [1102, 'WRONG_CREDENTIALS', 200],
  [1103, 'ACCOUNT_EXISTS', 200],
  [1104, 'ACCOUNT_NOT_FOUND', 200],
  [1105, 'ACCOUNT_FROZEN', 200],
  [1106, 'TEMPORARILY_LOCKED', 200],
  [1107, 'INVALID_MOBILE', 200],
  [1108, 'INVALID_EMAIL', 200],
  [1109, 'IDENTIFIER_REQUIRED', 200],
]);

export const passwordErrors = /* @__PURE__ */ defineErrorRange('Passwords', 1200, 1299, [
  [1201, 'PASSWORD_TOO_SHORT', 200],
  [1202, 'PASSWORD_TOO_LONG', 200],
  [1203, 'PASSWORD_TOO_COMMON', 200],
  [1204, 'PASSWORD_CONTAINS_CONTEXT', 200],
  [1205, 'PASSWORD_NOT_SET', 200],
  [1206, 'PASSWORD_ALREADY_SET', 200],
  [1207, 'CURRENT_PASSWORD_WRONG', 200],
  [1208, 'PASSWORD_TOO_WEAK', 200],
]);

export const codeErrors = /* @__PURE__ */ defineErrorRange('One-time codes and tickets', 1300, 1399, [
  [1301, 'CODE_WRONG', 200],
  [1302, 'CODE_EXPIRED', 200],
  [1303, 'CODE_TOO_MANY_ATTEMPTS', 200],
  [1304, 'CODE_COOLDOWN', 200],
  [1305, 'CODE_SEND_LIMIT', 200],
  [1306, 'DELIVERY_FAILED', 200],
  [1307, 'TICKET_INVALID', 200],
  [1308, 'REGION_NOT_ALLOWED', 200],
  [1309, 'CODE_TYPE_INVALID', 200],
  // Any outbound message (an invitation, its resend): the recipient's cooldown, then the budgets.
  [1310, 'SEND_COOLDOWN', 429],
  [1311, 'SEND_LIMIT', 429],
]);

export const challengeErrors = /* @__PURE__ */ defineErrorRange('The challenge', 1400, 1499, [
  [1401, 'CHALLENGE_REQUIRED', 200],
  [1402, 'CHALLENGE_FAILED', 200],
  [1403, 'CHALLENGE_EXPIRED', 200],
  [1404, 'CHALLENGE_POW_INVALID', 200],
  [1405, 'CHALLENGE_TOO_EARLY', 200],
  [1406, 'CHALLENGE_RATE_LIMITED', 429],
  [1407, 'CHALLENGE_BUSY', 429],
  [1408, 'CHALLENGE_PROVIDER_FAILED', 200],
]);

export const redirectErrors = /* @__PURE__ */ defineErrorRange('Redirects', 1500, 1599, [
  [1501, 'REDIRECT_NOT_ALLOWED', 400],
]);

export const identifierErrors = /* @__PURE__ */ defineErrorRange('Identifiers and binding', 1800, 1849, [
  [1801, 'IDENTIFIER_TAKEN', 200],
  [1802, 'IDENTIFIER_BOUND', 200],
  [1803, 'IDENTIFIER_NOT_BOUND', 200],
  [1804, 'IDENTIFIER_SAME', 200],
  [1805, 'VERIFICATION_REQUIRED', 200],
  [1806, 'VERIFICATION_INVALID', 200],
  [1807, 'NOT_YOUR_IDENTIFIER', 200],
  [1808, 'USERNAME_INVALID', 200],
  [1809, 'USERNAME_RESERVED', 200],
  [1810, 'USERNAME_TAKEN', 200],
  [1811, 'USERNAME_ALREADY_SET', 200],
  [1812, 'MOVE_WOULD_LOCK_OUT', 200],
]);

/**
 * Third-party sign-in (GitHub, Google, WeChat): the code exchange, the pending profile of an unlinked
 * identity and linked accounts. OAUTH_NOT_LINKED carries `profile_key` in its data.
 */
export const thirdPartyErrors = /* @__PURE__ */ defineErrorRange('Third-party sign-in', 1850, 1899, [
  [1851, 'OAUTH_NOT_CONFIGURED', 200],
  [1852, 'OAUTH_STATE_MISMATCH', 200],
  [1853, 'OAUTH_EXCHANGE_FAILED', 200],
  [1854, 'OAUTH_NOT_LINKED', 200],
  [1856, 'OAUTH_LINKED_ELSEWHERE', 200],
  [1857, 'OAUTH_ALREADY_LINKED', 200],
  [1858, 'OAUTH_LAST_WAY_IN', 200],
  [1859, 'OAUTH_NOT_BOUND', 200],
  [1861, 'OAUTH_ACCOUNT_EXISTS', 200],
]);

/**
 * The spec's fixed code (§8): the failure data carries `sms_code_key`. Beside it STEP_UP_REQUIRED: the
 * session's last verification is too old for what it asked (adding or removing a way in); its data
 * carries the ways to prove it again (`mobile`, `email` masked, `has_password`) and `max_age` in seconds.
 */
export const secondVerifyErrors = /* @__PURE__ */ defineErrorRange('Second verification', 2046, 2049, [
  [2046, 'SECOND_VERIFY', 200],
  [2047, 'STEP_UP_REQUIRED', 200],
]);

/**
 * Authenticator apps and recovery codes (docs/factors.md): enrolment, a code already used, a way of
 * proving it that the account does not have.
 */
export const factorErrors = /* @__PURE__ */ defineErrorRange(
  'Authenticator apps and recovery codes',
  2250,
  2299,
  [
    [2251, 'FACTOR_NOT_ENROLLED', 200],
    [2252, 'FACTOR_ALREADY_ENROLLED', 200],
    [2253, 'FACTOR_UNAVAILABLE', 200],
    [2254, 'TOTP_CODE_USED', 200],
  ],
);

/**
 * The management API (docs/management-api.md): its API keys. A range of its own, so a sign-in page
 * carries none of its texts.
 */
export const managementErrors = /* @__PURE__ */ defineErrorRange('The management API', 2300, 2349, [
  [2301, 'API_KEY_INVALID', 401],
  [2302, 'INSUFFICIENT_SCOPE', 403],
]);

/**
 * The management API's resources (docs/management-api.md): retried creates by their idempotency key;
 * a write whose `If-Match` names a version the resource no longer has (SCIM, docs/scim.md).
 */
export const managementResourceErrors = /* @__PURE__ */ defineErrorRange(
  'The management API’s resources',
  2350,
  2399,
  [
    [2351, 'IDEMPOTENCY_KEY_REUSED', 422],
    [2352, 'IDEMPOTENCY_KEY_IN_USE', 409],
    [2353, 'PRECONDITION_FAILED', 412],
  ],
);

/** QR sign-in (docs/qr-login.md): the code's one-way states and who may move them. */
export const qrErrors = /* @__PURE__ */ defineErrorRange('QR sign-in', 1900, 1949, [
  [1901, 'QR_EXPIRED', 200],
  [1902, 'QR_CANCELLED', 200],
  [1903, 'QR_USED', 200],
  [1904, 'QR_OTHER_BROWSER', 200],
  [1905, 'QR_ALREADY_SCANNED', 200],
  [1906, 'QR_NOT_SCANNED', 200],
  [1907, 'QR_NOT_YOUR_SCAN', 200],
  [1908, 'QR_WRONG_NUMBER', 200],
  [1909, 'QR_ALREADY_DECIDED', 200],
  [1910, 'QR_NOT_CONFIRMED', 200],
  [1911, 'QR_SECOND_FACTOR_REQUIRED', 200],
]);

/** Profiles and uploads (issue 17): profile fields, update quotas, image uploads. */
export const profileErrors = /* @__PURE__ */ defineErrorRange('Profiles and uploads', 1950, 1999, [
  [1951, 'NAME_INVALID', 200],
  [1952, 'NAME_NOT_ALLOWED', 200],
  [1953, 'PROFILE_FIELD_INVALID', 200],
  [1954, 'UPDATE_LIMIT_REACHED', 200],
  [1955, 'FILE_REQUIRED', 400],
  [1956, 'ONE_FILE_ONLY', 400],
  [1957, 'IMAGE_TOO_LARGE', 413],
  [1958, 'IMAGE_TYPE_NOT_ALLOWED', 415],
  [1959, 'IMAGE_INVALID', 400],
  [1960, 'IMAGE_TOO_MANY_PIXELS', 400],
  [1961, 'NOT_AN_OPERATOR', 200],
]);

/** Account cancellation (issue 17): blockers, the cancel ticket, the cooling-off period. */
export const cancelErrors = /* @__PURE__ */ defineErrorRange('Account cancellation', 2100, 2149, [
  [2101, 'CANCEL_BLOCKED', 200],
  [2102, 'CANCEL_WAY_UNAVAILABLE', 200],
  [2103, 'CANCEL_ALREADY_PENDING', 200],
  [2104, 'CANCEL_NOT_PENDING', 200],
]);

/**
 * Monitoring and the waitlist (issue 18): the collector's refusals are protocol violations (1001,
 * 1003, 1004); these are the waitlist's answers. WAITLIST_REQUIRED is what a registration meets while
 * WAITLIST=on and the identifier has not been admitted (its data names the page: `waitlist`).
 */
export const waitlistErrors = /* @__PURE__ */ defineErrorRange('Monitoring and the waitlist', 2150, 2199, [
  [2151, 'WAITLIST_REQUIRED', 200],
  [2152, 'WAITLIST_OFF', 200],
  [2153, 'WAITLIST_ENTRY_NOT_FOUND', 200],
  [2154, 'WAITLIST_ALREADY_ADMITTED', 200],
  [2155, 'WAITLIST_ACCOUNT_EXISTS', 200],
]);

/**
 * Open authorization (issue 16, docs/open-authorization.md): the consent page's interaction, the apps
 * a person authorised and the apps a developer registered, and `auth/token` (an access token that is not
 * a live bearer token is 401; one sent in the URL is 400). The token endpoint itself answers RFC 6749
 * errors (`invalid_grant`, …), not these.
 */
export const openAuthErrors = /* @__PURE__ */ defineErrorRange('Open authorization', 1700, 1799, [
  [1701, 'OPEN_INTERACTION_EXPIRED', 200],
  [1702, 'OPEN_CLIENT_NOT_FOUND', 200],
  [1703, 'OPEN_SCOPE_INVALID', 200],
  [1704, 'OPEN_NOT_AUTHORIZED', 200],
  [1705, 'OPEN_REDIRECT_URI_INVALID', 200],
  [1706, 'OPEN_APP_LIMIT', 200],
  [1707, 'OPEN_TOKEN_INVALID', 401],
  [1708, 'OPEN_TOKEN_IN_QUERY', 400],
]);

/**
 * Passkeys (docs/factors.md): a WebAuthn ceremony the server refuses answers 400 with the reason (its
 * challenge unknown, expired or used; an origin or relying party not this site's; a signature counter
 * that went back, a sign of a cloned authenticator; a proof that does not verify); managing them
 * answers 200 with the envelope's code.
 */
export const passkeyErrors = /* @__PURE__ */ defineErrorRange('Passkeys', 2200, 2249, [
  [2201, 'PASSKEY_CHALLENGE_INVALID', 400],
  [2202, 'PASSKEY_ORIGIN_MISMATCH', 400],
  [2203, 'PASSKEY_RP_MISMATCH', 400],
  [2204, 'PASSKEY_COUNTER_REGRESSED', 400],
  [2205, 'PASSKEY_VERIFICATION_FAILED', 400],
  [2206, 'PASSKEY_UNKNOWN', 400],
  [2207, 'PASSKEY_NOT_FOUND', 200],
  [2208, 'PASSKEY_LAST_WAY_IN', 200],
  [2209, 'PASSKEY_ALREADY_REGISTERED', 200],
  [2210, 'PASSKEY_LIMIT_REACHED', 200],
]);

/**
 * Enterprise sign-in (docs/enterprise-sso.md): an organisation's verified e-mail domains, its
 * single sign-on connections and the sign-in they route to. SSO_REQUIRED is what a sign-in to the
 * identity of an organisation that requires single sign-on meets when it came another way (a password,
 * a code) and the account's e-mail is in one of the organisation's verified domains: its data names the
 * domain, so the page can offer "sign in with your work e-mail".
 */
export const enterpriseErrors = /* @__PURE__ */ defineErrorRange('Enterprise sign-in', 2400, 2449, [
  [2401, 'DOMAIN_INVALID', 200],
  [2402, 'DOMAIN_NOT_FOUND', 200],
  [2403, 'DOMAIN_EXISTS', 200],
  [2404, 'DOMAIN_NOT_VERIFIED', 200],
  [2405, 'DOMAIN_TAKEN', 200],
  [2406, 'DOMAIN_LIMIT', 200],
  [2410, 'CONNECTION_NOT_FOUND', 200],
  [2411, 'CONNECTION_ISSUER_INVALID', 200],
  [2412, 'CONNECTION_DISCOVERY_FAILED', 200],
  [2413, 'CONNECTION_SECRET_REQUIRED', 200],
  [2414, 'CONNECTION_METADATA_INVALID', 200],
  [2420, 'SSO_NOT_AVAILABLE', 200],
  [2421, 'SSO_STATE_MISMATCH', 200],
  [2422, 'SSO_PROVIDER_FAILED', 200],
  [2423, 'SSO_EMAIL_NOT_VERIFIED', 200],
  [2424, 'SSO_EMAIL_OUTSIDE_DOMAIN', 200],
  [2425, 'SSO_REQUIRED', 200],
  [2426, 'SAML_SIGNATURE_INVALID', 400],
  [2427, 'SAML_ASSERTION_EXPIRED', 400],
  [2428, 'SAML_ASSERTION_REPLAYED', 400],
  [2429, 'SAML_RECIPIENT_MISMATCH', 400],
  [2430, 'SSO_JIT_DISABLED', 200],
]);

/** The account SDK's own ranges, in code order. Organisation (16xx) and open auth (17xx) add theirs. */
export const ERROR_RANGES = [
  protocolErrors,
  accountErrors,
  passwordErrors,
  codeErrors,
  challengeErrors,
  redirectErrors,
  identifierErrors,
  thirdPartyErrors,
  qrErrors,
  profileErrors,
  secondVerifyErrors,
  cancelErrors,
  waitlistErrors,
  passkeyErrors,
  openAuthErrors,
  factorErrors,
  managementErrors,
  managementResourceErrors,
  enterpriseErrors,
] as const;

/** Every code the passport answers, by stable name: `errorCodes.secondVerify.status === 200`. */
export const errorCodes = /* @__PURE__ */ (() =>
  Object.assign(
    {},
    protocolErrors.codes,
    accountErrors.codes,
    passwordErrors.codes,
    codeErrors.codes,
    challengeErrors.codes,
    redirectErrors.codes,
    identifierErrors.codes,
    thirdPartyErrors.codes,
    qrErrors.codes,
    secondVerifyErrors.codes,
    profileErrors.codes,
    cancelErrors.codes,
    waitlistErrors.codes,
    passkeyErrors.codes,
    openAuthErrors.codes,
    factorErrors.codes,
    managementErrors.codes,
    managementResourceErrors.codes,
    enterpriseErrors.codes,
  ))() as typeof protocolErrors.codes &
  typeof accountErrors.codes &
  typeof passwordErrors.codes &
  typeof codeErrors.codes &
  typeof challengeErrors.codes &
  typeof redirectErrors.codes &
  typeof identifierErrors.codes &
  typeof thirdPartyErrors.codes &
  typeof qrErrors.codes &
  typeof secondVerifyErrors.codes &
  typeof profileErrors.codes &
  typeof cancelErrors.codes &
  typeof waitlistErrors.codes &
  typeof passkeyErrors.codes &
  typeof openAuthErrors.codes &
  typeof factorErrors.codes &
  typeof managementErrors.codes &
  typeof managementResourceErrors.codes &
  typeof enterpriseErrors.codes;

export type ErrorName = keyof typeof errorCodes;

/**
 * The HTTP status the server answers a code with, or undefined for a code no range declares. It reads
 * the code tables only, so a page that asks carries none of the texts.
 */
export const errorStatus = /* @__PURE__ */ (() => {
  const byCode = new Map(
    Object.values(errorCodes as Record<string, ErrorCodeEntry>).map(({ code, status }) => [code, status]),
  );
  return (code: number): number | undefined => byCode.get(code);
})();

/** Code by stable name: `ErrorCode.secondVerify === 2046`. */
export const ErrorCode = /* @__PURE__ */ (() =>
  Object.fromEntries(
    Object.entries(errorCodes as Record<string, ErrorCodeEntry>).map(([key, e]) => [key, e.code]),
  ))() as { readonly [K in ErrorName]: (typeof errorCodes)[K]['code'] };

/** The second-verification code (spec §8), on its own so a page checking it carries no table. */
export const SECOND_VERIFY_CODE = 2046;
/**
 * The step-up code: the session must prove it is its person again (auth/verify or account/verify) before
 * the call, which then may be sent again. On its own so a page checking it carries no table.
 */
export const STEP_UP_REQUIRED_CODE = 2047;
/** Description of the rejection when the second-verification dialog closes or the app handles it. */
export const SECOND_VALID = 'SECOND_VALID';

/** Network failure kinds the client tells apart (spec §8). They never come from the server. */
export const NetworkErrorKind = {
  status: 'status',
  network: 'network',
  timeout: 'timeout',
  aborted: 'aborted',
} as const;
export type NetworkErrorKind = (typeof NetworkErrorKind)[keyof typeof NetworkErrorKind];
