/**
 * The purpose of a one-time code, sent as `type` with every code request (spec §7). The server binds
 * each code to its purpose and target: a code sent for one purpose never serves another.
 */
export const CodeType = {
  register: 1,
  resetPassword: 4,
  resetPasswordAlt: 6,
  /** Mobile login; also "new e-mail" in the bind flows. */
  login: 7,
  bind: 8,
  /** Change password; also e-mail verify. */
  changePassword: 11,
  emailLogin: 13,
  notLoggedInEmail: 15,
  /** Mobile register; also e-mail quick login. */
  mobileRegister: 16,
  bindAlt: 17,
  newMobile: 20,
  /** The old mobile, or any verify step while signed in. */
  oldMobile: 22,
  mobileLogin: 24,
  smsAuthorize: 26,
  openAuth: 27,
  anotherMobile: 28,
  notLoggedInMobile: 34,
  newManager: 101,
} as const;

export type CodeTypeName = keyof typeof CodeType;
export type CodeTypeValue = (typeof CodeType)[CodeTypeName];

/** E-mail code constants: register uses type 1; the sso flavour sends `ect_type` 13 for e-mail code login. */
export const EmailCodeType = {
  register: 1,
  ssoCodeLogin: 13,
} as const;

/** `user_login_version` sent with account verify. */
export const USER_LOGIN_VERSION = 1;

const codeTypeValues = /* @__PURE__ */ new Set<number>(/* @__PURE__ */ Object.values(CodeType));

/** True when `value` is one of the spec's code purposes. */
export function isCodeType(value: unknown): value is CodeTypeValue {
  return typeof value === 'number' && codeTypeValues.has(value);
}

/** The first name for a code-type value (4 and 6 both read "resetPassword"…). */
export function codeTypeName(value: CodeTypeValue): CodeTypeName {
  for (const [name, v] of Object.entries(CodeType)) if (v === value) return name as CodeTypeName;
  throw new TypeError(`unknown code type ${value}`);
}
