/**
 * The error catalogue shared by the SDK and the server: a stable numeric code, a stable name, and the
 * default user-facing text in zh and en. Apps translate by code and never parse message strings.
 * `status` is the HTTP status the server answers with: 200 for a business failure (the envelope tells
 * it), a 4xx for a protocol violation, 5xx only when the server itself cannot serve.
 */
export interface ErrorEntry {
  readonly code: number;
  readonly name: string;
  readonly status: number;
  readonly zh: string;
  readonly en: string;
}

/**
 * The catalogue as rows of [code, NAME, HTTP status, zh, en]. Ranges: 10xx protocol violations,
 * 11xx session and account, 12xx passwords, 13xx one-time codes and tickets, 14xx the challenge,
 * 15xx redirects; 2046 is the spec's second verification.
 */
const table = [
  [1001, 'INVALID_PARAM', 400, '请求参数有误', 'The request is malformed'],
  [
    1002,
    'CSRF_FAILED',
    403,
    '请求来源校验失败，请刷新页面后重试',
    'The request failed its CSRF check; reload the page and try again',
  ],
  [1003, 'PAYLOAD_TOO_LARGE', 413, '请求内容过大', 'The request is too large'],
  [1004, 'RATE_LIMITED', 429, '操作过于频繁，请稍后再试', 'Too many attempts; try again later'],
  [1005, 'NOT_FOUND', 404, '请求的资源不存在', 'Not found'],
  [1006, 'UNSUPPORTED_MEDIA_TYPE', 415, '不支持的请求格式', 'Unsupported content type'],
  [1007, 'METHOD_NOT_ALLOWED', 405, '不支持的请求方法', 'Method not allowed'],
  [
    1008,
    'SERVICE_UNAVAILABLE',
    503,
    '服务暂时不可用，请稍后再试',
    'The service is unavailable; try again shortly',
  ],
  [1009, 'INTERNAL_ERROR', 500, '系统繁忙，请稍后再试', 'Something went wrong; try again later'],
  [1101, 'NOT_LOGGED_IN', 200, '请先登录', 'Please sign in first'],
  [1102, 'WRONG_CREDENTIALS', 200, '账号或密码错误', 'Incorrect account or password'],
  [1103, 'ACCOUNT_EXISTS', 200, '该账号已注册，请直接登录', 'This account already exists; sign in instead'],
  [1104, 'ACCOUNT_NOT_FOUND', 200, '账号不存在', 'No such account'],
  [1105, 'ACCOUNT_FROZEN', 200, '账号已被冻结', 'This account is frozen'],
  [
    1106,
    'TEMPORARILY_LOCKED',
    200,
    '尝试次数过多，账号暂时锁定，请稍后再试',
    'Too many failed attempts; try again later',
  ],
  [1107, 'INVALID_MOBILE', 200, '手机号格式不正确', 'The mobile number is not valid'],
  [1108, 'INVALID_EMAIL', 200, '邮箱格式不正确', 'The e-mail address is not valid'],
  [1109, 'IDENTIFIER_REQUIRED', 200, '请输入账号', 'Enter your account'],
  [1201, 'PASSWORD_TOO_SHORT', 200, '密码至少 8 位', 'Use at least 8 characters'],
  [1202, 'PASSWORD_TOO_LONG', 200, '密码过长', 'The password is too long'],
  [1203, 'PASSWORD_TOO_COMMON', 200, '密码过于常见，请换一个', 'This password is too common; choose another'],
  [
    1204,
    'PASSWORD_CONTAINS_CONTEXT',
    200,
    '密码不能包含账号或产品名',
    'The password must not contain your account or the product name',
  ],
  [1205, 'PASSWORD_NOT_SET', 200, '尚未设置密码', 'No password has been set'],
  [1206, 'PASSWORD_ALREADY_SET', 200, '已设置过密码', 'A password is already set'],
  [1207, 'CURRENT_PASSWORD_WRONG', 200, '当前密码错误', 'The current password is incorrect'],
  [1301, 'CODE_WRONG', 200, '验证码错误', 'The code is incorrect'],
  [1302, 'CODE_EXPIRED', 200, '验证码已失效，请重新获取', 'The code has expired; request a new one'],
  [
    1303,
    'CODE_TOO_MANY_ATTEMPTS',
    200,
    '验证码错误次数过多，请重新获取',
    'Too many wrong codes; request a new one',
  ],
  [1304, 'CODE_COOLDOWN', 200, '发送太频繁，请稍后再试', 'Wait a moment before requesting another code'],
  [1305, 'CODE_SEND_LIMIT', 200, '今日发送次数已达上限', 'Code sending limit reached; try again later'],
  [
    1306,
    'DELIVERY_FAILED',
    200,
    '验证码发送失败，请稍后再试',
    'The code could not be delivered; try again shortly',
  ],
  [1307, 'TICKET_INVALID', 200, '验证已失效，请重新验证', 'The verification has expired; verify again'],
  [
    1308,
    'REGION_NOT_ALLOWED',
    200,
    '暂不支持该地区的手机号',
    'Mobile numbers from this region are not supported',
  ],
  [1309, 'CODE_TYPE_INVALID', 200, '验证码用途不正确', 'The code purpose is not valid here'],
  [1401, 'CHALLENGE_REQUIRED', 200, '请完成安全验证', 'Complete the security check'],
  [1402, 'CHALLENGE_FAILED', 200, '安全验证未通过', 'The security check failed'],
  [1403, 'CHALLENGE_EXPIRED', 200, '安全验证已过期，请重试', 'The security check expired; try again'],
  [2046, 'SECOND_VERIFY', 200, '当前设备需要二次验证', 'This device needs a second verification'],
  [1501, 'REDIRECT_NOT_ALLOWED', 400, '跳转地址不被允许', 'The redirect address is not allowed'],
] as const;

type Row = (typeof table)[number];
/** `INVALID_PARAM` → `invalidParam`. */
type KeyOf<N extends string> = N extends `${infer A}_${infer B}`
  ? `${Lowercase<A>}${Capitalize<KeyOf<B>>}`
  : Lowercase<N>;
type EntryOf<R extends Row> = {
  readonly code: R[0];
  readonly name: R[1];
  readonly status: R[2];
  readonly zh: string;
  readonly en: string;
};

/** Every error the server can answer, by stable name: `errors.secondVerify.code === 2046`. */
export const errors = /* @__PURE__ */ (() => {
  const out: Record<string, ErrorEntry> = {};
  for (const [code, name, status, zh, en] of table) {
    out[name.toLowerCase().replace(/_(\w)/g, (_, c: string) => c.toUpperCase())] = {
      code,
      name,
      status,
      zh,
      en,
    };
  }
  return out as { readonly [R in Row as KeyOf<R[1]>]: EntryOf<R> };
})();

export type ErrorName = keyof typeof errors;

/** Code by stable name: `ErrorCode.secondVerify === 2046`. */
export const ErrorCode = /* @__PURE__ */ Object.fromEntries(
  Object.entries(errors).map(([key, e]) => [key, e.code]),
) as { readonly [K in ErrorName]: (typeof errors)[K]['code'] };

/** The second-verification code (spec §8). */
export const SECOND_VERIFY_CODE = 2046;
/** Description of the rejection when the second-verification dialog closes or the app handles it. */
export const SECOND_VALID = 'SECOND_VALID';

const byCode = /* @__PURE__ */ new Map<number, ErrorEntry>(Object.values(errors).map((e) => [e.code, e]));

/** The catalogue entry for a code, or undefined for an unknown code. */
export function errorEntry(code: number): ErrorEntry | undefined {
  return byCode.get(code);
}

export type Language = 'zh' | 'en';

/** The default text for a code in a language; unknown codes fall back to the generic internal text. */
export function errorText(code: number, language: Language = 'zh'): string {
  return (byCode.get(code) ?? errors.internalError)[language];
}

/** Network failure kinds the client tells apart (spec §8). They never come from the server. */
export const NetworkErrorKind = {
  status: 'status',
  network: 'network',
  timeout: 'timeout',
  aborted: 'aborted',
} as const;
export type NetworkErrorKind = (typeof NetworkErrorKind)[keyof typeof NetworkErrorKind];
