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
  enterpriseErrors,
  errorCodes,
  factorErrors,
  identifierErrors,
  managementErrors,
  managementResourceErrors,
  openAuthErrors,
  passkeyErrors,
  passwordErrors,
  profileErrors,
  protocolErrors,
  qrErrors,
  redirectErrors,
  secondVerifyErrors,
  thirdPartyErrors,
  waitlistErrors,
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

const protocolErrorTexts = /* @__PURE__ */ defineErrorTexts(protocolErrors, {
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
  // Set-up faults, not the person's: the texts name what the operator must configure.
  ORIGIN_NOT_ALLOWED: [
    '此网站未获准使用该登录服务：需在服务端 ALLOWED_ORIGINS 中加入它',
    "This site may not use this sign-in service: add its origin to the server's ALLOWED_ORIGINS",
  ],
  CSRF_COOKIE_UNREADABLE: [
    '本页读不到登录服务的 Cookie：需将服务端 COOKIE_DOMAIN 设为共同上级域名，或同源部署',
    "This page cannot read the sign-in service's cookie: set the server's COOKIE_DOMAIN to the shared parent domain, or serve both from one origin",
  ],
  CROSS_SITE_PAGE: [
    '本页与登录服务不在同一站点，浏览器不会带上登录服务的 Cookie：需经反向代理将登录服务部署在本站点下',
    'This page is on another site than the sign-in service, so the browser withholds its cookies: serve the sign-in service under this site through a reverse proxy',
  ],
  APP_UNKNOWN: [
    '登录服务不认识此应用的 aid：需在服务端 CLIENT_APPS 中登记它',
    "The sign-in service does not know this app's aid: register it in the server's CLIENT_APPS",
  ],
});

const accountErrorTexts = /* @__PURE__ */ defineErrorTexts(accountErrors, {
  NOT_LOGGED_IN: ['请先登录', 'Please sign in first'],
  WRONG_CREDENTIALS: ['账号或密码错误', 'Incorrect account or password'],
  ACCOUNT_EXISTS: ['该账号已注册，请直接登录', 'This account already exists; sign in instead'],
  ACCOUNT_NOT_FOUND: ['账号不存在', 'No such account'],
  ACCOUNT_FROZEN: ['账号已被冻结', 'This account is frozen'],
  TEMPORARILY_LOCKED: ['尝试次数过多，账号暂时锁定，请稍后再试', 'Too many failed attempts; try again later'],
  INVALID_MOBILE: ['手机号格式不正确', 'The mobile number is not valid'],
  INVALID_EMAIL: ['邮箱格式不正确', 'The e-mail address is not valid'],
  IDENTIFIER_REQUIRED: ['请输入账号', 'Enter your account'],
});

const passwordErrorTexts = /* @__PURE__ */ defineErrorTexts(passwordErrors, {
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
});

const codeErrorTexts = /* @__PURE__ */ defineErrorTexts(codeErrors, {
  CODE_WRONG: ['验证码错误', 'The code is incorrect'],
  CODE_EXPIRED: ['验证码已失效，请重新获取', 'The code has expired; request a new one'],
  CODE_TOO_MANY_ATTEMPTS: ['验证码错误次数过多，请重新获取', 'Too many wrong codes; request a new one'],
  CODE_COOLDOWN: ['发送太频繁，请稍后再试', 'Wait a moment before requesting another code'],
  CODE_SEND_LIMIT: ['今日发送次数已达上限', 'Code sending limit reached; try again later'],
  DELIVERY_FAILED: ['验证码发送失败，请稍后再试', 'The code could not be delivered; try again shortly'],
  TICKET_INVALID: ['验证已失效，请重新验证', 'The verification has expired; verify again'],
  REGION_NOT_ALLOWED: ['暂不支持该地区的手机号', 'Mobile numbers from this region are not supported'],
  CODE_TYPE_INVALID: ['验证码用途不正确', 'The code purpose is not valid here'],
  SEND_COOLDOWN: ['发送太频繁，请稍后再试', 'A message was just sent; wait before sending another'],
  SEND_LIMIT: ['发送次数已达上限，请稍后再试', 'Too many messages sent; try again later'],
});

const challengeErrorTexts = /* @__PURE__ */ defineErrorTexts(challengeErrors, {
  CHALLENGE_REQUIRED: ['请完成安全验证', 'Complete the security check'],
  CHALLENGE_FAILED: ['安全验证未通过', 'The security check failed'],
  CHALLENGE_EXPIRED: ['安全验证已过期，请重试', 'The security check expired; try again'],
  CHALLENGE_POW_INVALID: [
    '浏览器校验未完成或已使用，请重试',
    'The browser check is missing, already used or for another check; try again',
  ],
  CHALLENGE_TOO_EARLY: ['请稍候，校验尚未完成', 'Please wait; the check is not finished yet'],
  CHALLENGE_RATE_LIMITED: ['验证请求过于频繁，请稍后再试', 'Too many security checks; try again later'],
  CHALLENGE_BUSY: ['验证服务繁忙，请稍后再试', 'The security check is busy; try again in a moment'],
  CHALLENGE_PROVIDER_FAILED: ['第三方安全验证未通过', 'The security check provider refused the answer'],
});

const redirectErrorTexts = /* @__PURE__ */ defineErrorTexts(redirectErrors, {
  REDIRECT_NOT_ALLOWED: ['跳转地址不被允许', 'The redirect address is not allowed'],
});

const identifierErrorTexts = /* @__PURE__ */ defineErrorTexts(identifierErrors, {
  IDENTIFIER_TAKEN: ['已绑定其他账号', 'Bound to another account'],
  IDENTIFIER_BOUND: ['已绑定，请更换', 'Already bound; change it'],
  IDENTIFIER_NOT_BOUND: ['尚未绑定', 'Not bound yet'],
  IDENTIFIER_SAME: ['与当前相同', 'Same as the current one'],
  VERIFICATION_REQUIRED: ['请先验证身份', 'Verify it is you first'],
  VERIFICATION_INVALID: ['身份验证已失效', 'Verification expired; verify again'],
  NOT_YOUR_IDENTIFIER: ['不是本账号绑定的', 'Not the one on your account'],
  USERNAME_INVALID: ['用户名格式不正确', 'Username not valid'],
  USERNAME_RESERVED: ['该用户名不可用', 'Username reserved'],
  USERNAME_TAKEN: ['用户名已被占用', 'Username taken'],
  USERNAME_ALREADY_SET: ['已设置过用户名', 'Username already set'],
  MOVE_WOULD_LOCK_OUT: ['另一账号将无法登录', 'The other account would have no way in'],
});

const thirdPartyErrorTexts = /* @__PURE__ */ defineErrorTexts(thirdPartyErrors, {
  OAUTH_NOT_CONFIGURED: ['未开通该登录方式', 'This provider is not configured'],
  OAUTH_STATE_MISMATCH: ['登录已失效，请重新开始', 'This sign-in expired; start again'],
  OAUTH_EXCHANGE_FAILED: ['授权失败，请重试', 'The provider refused; try again'],
  OAUTH_NOT_LINKED: ['该账号尚未关联', 'This account is not linked yet'],
  OAUTH_LINKED_ELSEWHERE: ['该账号已关联其他账号', 'It is linked to another account'],
  OAUTH_ALREADY_LINKED: ['已关联该平台的其他账号', 'Another account of it is linked'],
  OAUTH_LAST_WAY_IN: ['这是唯一的登录方式', 'It is your only way in'],
  OAUTH_NOT_BOUND: ['未关联该平台', 'Not linked'],
  OAUTH_ACCOUNT_EXISTS: ['邮箱已有账号，请登录以关联', 'The e-mail has an account; sign in to link'],
});

const qrErrorTexts = /* @__PURE__ */ defineErrorTexts(qrErrors, {
  QR_EXPIRED: ['二维码已过期，请刷新', 'The QR code has expired; refresh it'],
  QR_CANCELLED: ['已取消登录', 'The sign-in was cancelled'],
  QR_USED: ['二维码已被使用', 'This QR code has already been used'],
  QR_OTHER_BROWSER: ['该二维码不属于当前浏览器', 'This QR code belongs to another browser'],
  QR_ALREADY_SCANNED: ['二维码已被其他设备扫描', 'Another device has already scanned this QR code'],
  QR_NOT_SCANNED: ['请先扫描二维码', 'Scan the QR code first'],
  QR_NOT_YOUR_SCAN: ['只有扫码的账号可以确认', 'Only the account that scanned the code may confirm it'],
  QR_WRONG_NUMBER: ['数字不匹配，本次登录已取消', 'The number did not match; this sign-in was cancelled'],
  QR_ALREADY_DECIDED: ['该登录请求已处理', 'This sign-in request has already been answered'],
  QR_NOT_CONFIRMED: ['请在手机上确认登录', 'Confirm the sign-in on your phone'],
  QR_SECOND_FACTOR_REQUIRED: [
    '确认登录前需要验证手机号',
    'Verify your mobile number before confirming this sign-in',
  ],
});

const profileErrorTexts = /* @__PURE__ */ defineErrorTexts(profileErrors, {
  NAME_INVALID: ['昵称格式不正确', 'Invalid name'],
  NAME_NOT_ALLOWED: ['该昵称不可用', 'Name not allowed'],
  PROFILE_FIELD_INVALID: ['资料格式不正确', 'Invalid profile value'],
  UPDATE_LIMIT_REACHED: ['修改次数已用完', 'No changes left for now'],
  FILE_REQUIRED: ['请选择图片', 'Choose an image'],
  ONE_FILE_ONLY: ['只能上传一张图片', 'One image at a time'],
  IMAGE_TOO_LARGE: ['图片过大', 'Image too large'],
  IMAGE_TYPE_NOT_ALLOWED: ['仅支持 PNG、JPEG、WebP、GIF', 'Only PNG, JPEG, WebP or GIF'],
  IMAGE_INVALID: ['图片无法识别', 'Unreadable image'],
  IMAGE_TOO_MANY_PIXELS: ['图片尺寸过大', 'Image dimensions too large'],
  NOT_AN_OPERATOR: ['没有审核权限', 'Not a reviewer'],
});

const secondVerifyErrorTexts = /* @__PURE__ */ defineErrorTexts(secondVerifyErrors, {
  SECOND_VERIFY: ['当前设备需要二次验证', 'This device needs a second verification'],
  STEP_UP_REQUIRED: ['为了账号安全，请先验证身份', 'Confirm it is you first: this changes how you sign in'],
});

const cancelErrorTexts = /* @__PURE__ */ defineErrorTexts(cancelErrors, {
  CANCEL_BLOCKED: ['暂时无法注销', 'Cannot cancel yet'],
  CANCEL_WAY_UNAVAILABLE: ['该验证方式不可用', 'Verification way unavailable'],
  CANCEL_ALREADY_PENDING: ['已在注销冷静期中', 'Cancellation already pending'],
  CANCEL_NOT_PENDING: ['没有待处理的注销', 'No pending cancellation'],
});

const waitlistErrorTexts = /* @__PURE__ */ defineErrorTexts(waitlistErrors, {
  WAITLIST_REQUIRED: ['注册需要排队，请先加入等候名单', 'Sign-up is by invitation: join the waitlist first'],
  WAITLIST_OFF: ['当前无需排队，可直接注册', 'There is no waitlist now: you can sign up'],
  WAITLIST_ENTRY_NOT_FOUND: ['找不到该排队记录', 'No such waitlist entry'],
  WAITLIST_ALREADY_ADMITTED: ['已获准注册', 'Already admitted'],
  WAITLIST_ACCOUNT_EXISTS: ['该账号已注册，请直接登录', 'This account exists: sign in instead'],
});

const passkeyErrorTexts = /* @__PURE__ */ defineErrorTexts(passkeyErrors, {
  PASSKEY_CHALLENGE_INVALID: [
    '通行密钥请求已过期或已使用，请重试',
    'This passkey request expired or was used: try again',
  ],
  PASSKEY_ORIGIN_MISMATCH: ['通行密钥来自其他网站，已拒绝', 'The passkey answer came from another site'],
  PASSKEY_RP_MISMATCH: ['该通行密钥不属于本网站', 'This passkey belongs to another site'],
  PASSKEY_COUNTER_REGRESSED: [
    '该通行密钥可能已被复制，已拒绝登录',
    'This passkey may have been copied: the sign-in was refused',
  ],
  PASSKEY_VERIFICATION_FAILED: ['通行密钥验证失败', 'The passkey could not be verified'],
  PASSKEY_UNKNOWN: [
    '找不到这个通行密钥，请换一种方式登录',
    'This passkey is not registered here: sign in another way',
  ],
  PASSKEY_NOT_FOUND: ['找不到该通行密钥', 'No such passkey'],
  PASSKEY_LAST_WAY_IN: [
    '这是唯一的登录方式，无法删除',
    'This is your only way to sign in: add another before removing it',
  ],
  PASSKEY_ALREADY_REGISTERED: ['该设备已添加过通行密钥', 'This device already has a passkey here'],
  PASSKEY_LIMIT_REACHED: ['通行密钥数量已达上限', 'You have as many passkeys as allowed'],
});

const openAuthErrorTexts = /* @__PURE__ */ defineErrorTexts(openAuthErrors, {
  OPEN_INTERACTION_EXPIRED: [
    '授权请求已过期，请回到应用重新发起',
    'This request has expired: start again from the app',
  ],
  OPEN_CLIENT_NOT_FOUND: ['应用不存在', 'No such app'],
  OPEN_SCOPE_INVALID: ['请求的权限无效', 'The app asked for a permission that does not exist'],
  OPEN_NOT_AUTHORIZED: ['你没有授权过这个应用', 'You have not authorised this app'],
  OPEN_REDIRECT_URI_INVALID: ['回调地址无效', 'The redirect URI is not valid'],
  OPEN_APP_LIMIT: ['应用数量已达上限', 'You have registered as many apps as allowed'],
  OPEN_TOKEN_INVALID: [
    '访问令牌无效或已过期，请重新授权',
    'The access token is not valid or has expired: ask the person to authorise again',
  ],
  OPEN_TOKEN_IN_QUERY: [
    '访问令牌不能放在地址中，请放在请求体里',
    'Send the access token in the request body, never in the URL',
  ],
});

const factorErrorTexts = /* @__PURE__ */ defineErrorTexts(factorErrors, {
  FACTOR_NOT_ENROLLED: ['尚未设置该验证方式', 'This way of verifying is not set up'],
  FACTOR_ALREADY_ENROLLED: [
    '已设置身份验证器，请先移除',
    'An authenticator app is already set up: remove it first',
  ],
  FACTOR_UNAVAILABLE: ['该账号不能使用这种验证方式', 'This account cannot verify this way'],
  TOTP_CODE_USED: ['该验证码已使用，请等待下一个', 'This code was already used: wait for the next one'],
});

const managementErrorTexts = /* @__PURE__ */ defineErrorTexts(managementErrors, {
  API_KEY_INVALID: ['API 密钥无效、已过期或已吊销', 'The API key is missing, unknown, expired or revoked'],
  INSUFFICIENT_SCOPE: ['此 API 密钥没有该操作所需的权限范围', 'This API key lacks the scope this call needs'],
});

const managementResourceErrorTexts = /* @__PURE__ */ defineErrorTexts(managementResourceErrors, {
  IDEMPOTENCY_KEY_REUSED: [
    '该幂等键已用于另一个请求体',
    'This idempotency key was used with a different request body',
  ],
  IDEMPOTENCY_KEY_IN_USE: [
    '使用该幂等键的请求仍在处理中，请稍后重试',
    'A request with this idempotency key is still being handled: retry later',
  ],
  PRECONDITION_FAILED: [
    '该资源已被修改，与 If-Match 指定的版本不符',
    'The resource has changed since the version If-Match names',
  ],
});

/** Enterprise sign-in's texts (24xx), also for a console showing its refusals in the page's language. */
export const enterpriseErrorTexts = /* @__PURE__ */ defineErrorTexts(enterpriseErrors, {
  DOMAIN_INVALID: ['域名格式不正确', 'This is not a valid domain name'],
  DOMAIN_NOT_FOUND: ['该组织没有添加这个域名', 'This organisation has not added this domain'],
  DOMAIN_EXISTS: ['该组织已添加过这个域名', 'This organisation has already added this domain'],
  DOMAIN_NOT_VERIFIED: [
    '未找到验证用的 TXT 记录；请确认记录已添加并生效后再试',
    'The verification TXT record was not found: check it is published, then try again',
  ],
  DOMAIN_TAKEN: ['该域名已被其他组织验证', 'Another organisation has verified this domain'],
  DOMAIN_LIMIT: ['域名数量已达上限', 'This organisation has as many domains as allowed'],
  CONNECTION_NOT_FOUND: [
    '该组织还没有配置单点登录连接',
    'This organisation has no single sign-on connection',
  ],
  CONNECTION_ISSUER_INVALID: [
    '签发者地址必须是 https 地址',
    'The issuer must be an https address (http only for a server on this machine in development)',
  ],
  CONNECTION_DISCOVERY_FAILED: [
    '无法读取该签发者的 OpenID 配置，请检查地址',
    "The issuer's OpenID configuration could not be read: check the address",
  ],
  CONNECTION_SECRET_REQUIRED: ['请填写客户端密钥', 'Enter the client secret'],
  CONNECTION_METADATA_INVALID: [
    '无法读取身份提供方的 SAML 元数据或证书，请检查后重试',
    "The identity provider's SAML metadata or certificate could not be read: check it and try again",
  ],
  SSO_NOT_AVAILABLE: [
    '该邮箱的域名没有配置企业单点登录，请用其他方式登录',
    "Single sign-on is not set up for this address's domain: sign in another way",
  ],
  SSO_STATE_MISMATCH: [
    '该单点登录已失效或不是在此浏览器发起的，请重新开始',
    'This single sign-on has expired or was started in another browser: start again',
  ],
  SSO_PROVIDER_FAILED: [
    '无法连接组织的身份提供方，或它没有确认这次登录，请重新开始',
    "The organisation's identity provider could not be reached or did not confirm this sign-in: start again",
  ],
  SSO_EMAIL_NOT_VERIFIED: [
    '身份提供方没有确认你的邮箱已验证，无法登录',
    'The identity provider did not confirm your e-mail address as verified',
  ],
  SSO_EMAIL_OUTSIDE_DOMAIN: [
    '你的邮箱不在该组织已验证的域名中',
    "Your e-mail address is not in one of the organisation's verified domains",
  ],
  SSO_REQUIRED: [
    '该组织要求通过单点登录进入，请用工作邮箱登录',
    'This organisation requires single sign-on: sign in with your work e-mail',
  ],
  SAML_SIGNATURE_INVALID: [
    '身份提供方的 SAML 断言没有有效签名，已拒绝，请重新开始',
    "The identity provider's SAML assertion carries no valid signature: start again",
  ],
  SAML_ASSERTION_EXPIRED: [
    'SAML 断言已过期或尚未生效，请重新开始（也请检查服务器时钟）',
    'The SAML assertion has expired or is not valid yet: start again (and check the clocks)',
  ],
  SAML_ASSERTION_REPLAYED: [
    '这份 SAML 断言已经用过，不能再次登录，请重新开始',
    'This SAML assertion has been used already: start again',
  ],
  SAML_RECIPIENT_MISMATCH: [
    '这份 SAML 断言不是发给本服务的（受众或接收地址不符），请检查连接设置',
    'This SAML assertion was not meant for this service (audience or destination): check the connection',
  ],
  SSO_JIT_DISABLED: [
    '该组织只允许已开通的成员通过单点登录进入，请联系组织管理员为你开通',
    'This organisation lets only members it has set up sign in through its connection: ask its administrator to add you',
  ],
});

/**
 * The texts of the ranges a sign-in page meets (protocol, session, passwords, codes, the challenge,
 * redirects, second verification): what account-react's `errorText` carries, so that a sign-in page's
 * first load does not carry the texts of the account centre's ranges. For a code outside them it shows
 * the server's own `description`, which the server renders in the request's language.
 */
export const SIGN_IN_ERROR_TEXTS = [
  protocolErrorTexts,
  accountErrorTexts,
  passwordErrorTexts,
  codeErrorTexts,
  challengeErrorTexts,
  redirectErrorTexts,
  secondVerifyErrorTexts,
] as const;

/** The texts of the SDK's own ranges, in code order (the server's catalogue and docs/protocol.md). */
export const ERROR_TEXTS = [
  protocolErrorTexts,
  accountErrorTexts,
  passwordErrorTexts,
  codeErrorTexts,
  challengeErrorTexts,
  redirectErrorTexts,
  identifierErrorTexts,
  thirdPartyErrorTexts,
  qrErrorTexts,
  profileErrorTexts,
  secondVerifyErrorTexts,
  cancelErrorTexts,
  waitlistErrorTexts,
  passkeyErrorTexts,
  openAuthErrorTexts,
  factorErrorTexts,
  managementErrorTexts,
  managementResourceErrorTexts,
  enterpriseErrorTexts,
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
