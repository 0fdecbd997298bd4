/**
 * The default user-facing text of every error code, in zh and en, by the code's stable name. Apps
 * translate by code and never parse message strings. The codes themselves are in `error-codes.ts`.
 */
import {
  accountErrors,
  cancelErrors,
  challengeErrors,
  codeErrors,
  type ERROR_RANGES,
  type ErrorCodeEntry,
  type ErrorCodeRow,
  type ErrorName,
  type ErrorRange,
  errorCodes,
  passwordErrors,
  profileErrors,
  protocolErrors,
  redirectErrors,
  secondVerifyErrors,
} from './error-codes';
import { LIMITS } from './limits';

export type Language = 'zh' | 'en';

/** A code with its default texts. */
export interface ErrorEntry extends ErrorCodeEntry {
  readonly zh: string;
  readonly en: string;
}

/** The names of a range's codes. */
type NamesOf<R> = R extends ErrorRange<infer Rows> ? Rows[number][1] : never;

/** A range with its texts: what `errorCatalogue` merges and docs/protocol.md renders. */
export interface ErrorRangeTexts<R extends ErrorRange = ErrorRange> {
  readonly range: R;
  /** [zh, en] by NAME. */
  readonly texts: { readonly [N in NamesOf<R>]: readonly [zh: string, en: string] };
}

/** Gives every code of a range its [zh, en] texts; a missing name is a compile error. */
export const defineErrorTexts = <R extends ErrorRange<readonly ErrorCodeRow[]>>(
  range: R,
  texts: ErrorRangeTexts<R>['texts'],
): ErrorRangeTexts<R> => ({ range, texts });

/** A merged catalogue: entries with texts, looked up by code. */
export interface ErrorCatalogue {
  /** One entry per code, by range, in the order the ranges were given. */
  readonly ranges: readonly {
    readonly title: string;
    readonly first: number;
    readonly last: number;
    readonly entries: readonly ErrorEntry[];
  }[];
  entry(code: number): ErrorEntry | undefined;
  /** The default text for a code; an unknown code falls back to `fallback`'s text. */
  text(code: number, language?: Language): string;
}

/**
 * Merges ranges and their texts into one catalogue, e.g. the server's: the SDK's own
 * `ERROR_TEXTS` plus a package's (`errorCatalogue([...ERROR_TEXTS, organisationTexts])`). A code
 * declared twice throws a TypeError. Unknown codes fall back to the text of `fallback` (default 1009,
 * INTERNAL_ERROR).
 */
export function errorCatalogue(parts: readonly ErrorRangeTexts[], fallback = 1009): ErrorCatalogue {
  const byCode = new Map<number, ErrorEntry>();
  const ranges = parts.map(({ range, texts }) => ({
    title: range.title,
    first: range.first,
    last: range.last,
    entries: Object.values(range.codes as Record<string, ErrorCodeEntry>).map((e) => {
      if (byCode.has(e.code)) throw new TypeError(`errorCatalogue: code ${e.code} is declared twice`);
      const [zh, en] = (texts as Record<string, readonly [string, string]>)[e.name]!;
      const entry: ErrorEntry = { ...e, zh, en };
      byCode.set(e.code, entry);
      return entry;
    }),
  }));
  return {
    ranges,
    entry: (code) => byCode.get(code),
    text: (code, language = 'zh') => (byCode.get(code) ?? byCode.get(fallback))?.[language] ?? '',
  };
}

/** The texts of the SDK's own ranges. */
export const ERROR_TEXTS = [
  defineErrorTexts(protocolErrors, {
    INVALID_PARAM: ['请求参数有误', 'The request is malformed'],
    CSRF_FAILED: [
      '请求来源校验失败，请刷新页面后重试',
      'The request failed its CSRF check; reload the page and try again',
    ],
    PAYLOAD_TOO_LARGE: ['请求内容过大', 'The request is too large'],
    RATE_LIMITED: ['操作过于频繁，请稍后再试', 'Too many attempts; try again later'],
    NOT_FOUND: ['请求的资源不存在', 'Not found'],
    UNSUPPORTED_MEDIA_TYPE: ['不支持的请求格式', 'Unsupported content type'],
    METHOD_NOT_ALLOWED: ['不支持的请求方法', 'Method not allowed'],
    SERVICE_UNAVAILABLE: ['服务暂时不可用，请稍后再试', 'The service is unavailable; try again shortly'],
    INTERNAL_ERROR: ['系统繁忙，请稍后再试', 'Something went wrong; try again later'],
  }),
  defineErrorTexts(accountErrors, {
    NOT_LOGGED_IN: ['请先登录', 'Please sign in first'],
    WRONG_CREDENTIALS: ['账号或密码错误', 'Incorrect account or password'],
    ACCOUNT_EXISTS: ['该账号已注册，请直接登录', 'This account already exists; sign in instead'],
    ACCOUNT_NOT_FOUND: ['账号不存在', 'No such account'],
    ACCOUNT_FROZEN: ['账号已被冻结', 'This account is frozen'],
    TEMPORARILY_LOCKED: [
      '尝试次数过多，账号暂时锁定，请稍后再试',
      'Too many failed attempts; try again later',
    ],
    INVALID_MOBILE: ['手机号格式不正确', 'The mobile number is not valid'],
    INVALID_EMAIL: ['邮箱格式不正确', 'The e-mail address is not valid'],
    IDENTIFIER_REQUIRED: ['请输入账号', 'Enter your account'],
  }),
  defineErrorTexts(passwordErrors, {
    PASSWORD_TOO_SHORT: [
      `密码至少 ${LIMITS.passwordMinLength} 位`,
      `Use at least ${LIMITS.passwordMinLength} characters`,
    ],
    PASSWORD_TOO_LONG: ['密码过长', 'The password is too long'],
    PASSWORD_TOO_COMMON: ['密码过于常见，请换一个', 'This password is too common; choose another'],
    PASSWORD_CONTAINS_CONTEXT: [
      '密码不能包含账号或产品名',
      'The password must not contain your account or the product name',
    ],
    PASSWORD_NOT_SET: ['尚未设置密码', 'No password has been set'],
    PASSWORD_ALREADY_SET: ['已设置过密码', 'A password is already set'],
    CURRENT_PASSWORD_WRONG: ['当前密码错误', 'The current password is incorrect'],
    PASSWORD_TOO_WEAK: [
      '密码太容易被猜到，请换一个更长、更少见的',
      'This password is too easy to guess; choose a longer, less common one',
    ],
  }),
  defineErrorTexts(codeErrors, {
    CODE_WRONG: ['验证码错误', 'The code is incorrect'],
    CODE_EXPIRED: ['验证码已失效，请重新获取', 'The code has expired; request a new one'],
    CODE_TOO_MANY_ATTEMPTS: ['验证码错误次数过多，请重新获取', 'Too many wrong codes; request a new one'],
    CODE_COOLDOWN: ['发送太频繁，请稍后再试', 'Wait a moment before requesting another code'],
    CODE_SEND_LIMIT: ['今日发送次数已达上限', 'Code sending limit reached; try again later'],
    DELIVERY_FAILED: ['验证码发送失败，请稍后再试', 'The code could not be delivered; try again shortly'],
    TICKET_INVALID: ['验证已失效，请重新验证', 'The verification has expired; verify again'],
    REGION_NOT_ALLOWED: ['暂不支持该地区的手机号', 'Mobile numbers from this region are not supported'],
    CODE_TYPE_INVALID: ['验证码用途不正确', 'The code purpose is not valid here'],
  }),
  defineErrorTexts(challengeErrors, {
    CHALLENGE_REQUIRED: ['请完成安全验证', 'Complete the security check'],
    CHALLENGE_FAILED: ['安全验证未通过', 'The security check failed'],
    CHALLENGE_EXPIRED: ['安全验证已过期，请重试', 'The security check expired; try again'],
  }),
  defineErrorTexts(redirectErrors, {
    REDIRECT_NOT_ALLOWED: ['跳转地址不被允许', 'The redirect address is not allowed'],
  }),
  defineErrorTexts(profileErrors, {
    NAME_INVALID: ['昵称格式不正确', 'Invalid name'],
    NAME_NOT_ALLOWED: ['该昵称不可用', 'Name not allowed'],
    PROFILE_FIELD_INVALID: ['资料格式不正确', 'Invalid value'],
    UPDATE_LIMIT_REACHED: ['修改次数已用完', 'No changes left'],
    FILE_REQUIRED: ['请选择图片', 'Choose an image'],
    ONE_FILE_ONLY: ['只能上传一张图片', 'One image at a time'],
    IMAGE_TOO_LARGE: ['图片过大', 'Image too large'],
    IMAGE_TYPE_NOT_ALLOWED: ['仅支持 PNG、JPEG、WebP、GIF', 'PNG, JPEG, WebP or GIF only'],
    IMAGE_INVALID: ['图片无法识别', 'Unreadable image'],
    IMAGE_TOO_MANY_PIXELS: ['图片尺寸过大', 'Too many pixels'],
    NOT_AN_OPERATOR: ['没有审核权限', 'Not a reviewer'],
  }),
  defineErrorTexts(secondVerifyErrors, {
    SECOND_VERIFY: ['当前设备需要二次验证', 'This device needs a second verification'],
  }),
  defineErrorTexts(cancelErrors, {
    CANCEL_BLOCKED: ['暂时无法注销', 'Cannot cancel yet'],
    CANCEL_WAY_UNAVAILABLE: ['该验证方式不可用', 'Way unavailable'],
    CANCEL_ALREADY_PENDING: ['已在注销冷静期中', 'Already pending'],
    CANCEL_NOT_PENDING: ['没有待处理的注销', 'Nothing pending'],
  }),
] as const satisfies { length: (typeof ERROR_RANGES)['length'] };

const catalogue = /* @__PURE__ */ errorCatalogue(ERROR_TEXTS);

/** Every error the SDK's ranges declare, with its texts, by stable name: `errors.secondVerify.en`. */
export const errors = /* @__PURE__ */ (() => {
  const out: Record<string, ErrorEntry> = {};
  for (const [key, { code }] of Object.entries(errorCodes as Record<string, ErrorCodeEntry>))
    out[key] = catalogue.entry(code)!;
  return out as {
    readonly [K in ErrorName]: (typeof errorCodes)[K] & { readonly zh: string; readonly en: string };
  };
})();

/** The catalogue entry for a code, or undefined for an unknown code. */
export const errorEntry = (code: number): ErrorEntry | undefined => catalogue.entry(code);

/** The default text for a code in a language; unknown codes fall back to the generic internal text. */
export const errorText = (code: number, language: Language = 'zh'): string => catalogue.text(code, language);
