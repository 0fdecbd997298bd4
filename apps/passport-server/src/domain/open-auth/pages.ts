import { createHash } from 'node:crypto';
import { bilingualPage, escapeHtml, type PageLanguage } from '../../http/bilingual-page';
import { preferredLanguage } from '../../lib/language';

/**
 * The pages the provider itself renders (the RP-initiated logout question, the page after a logout
 * with no redirect back, its error page), in zh and en: the request's `ui_locales` first, then the
 * browser's Accept-Language, zh otherwise (lib/language). No script; a style allowed by its hash.
 */

/** What the provider's page sources receive (a Koa context); only what these pages read. */
export interface ProviderPageContext {
  type: string;
  body: string;
  get(header: string): string;
  set(header: string, value: string): void;
  oidc?: {
    params?: Record<string, unknown>;
    client?: { clientName?: string; clientId: string };
  };
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2328}section+section{margin-top:2rem;padding-top:1rem;border-top:1px solid #ddd;color:#57606a}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}button{font:inherit;padding:.6rem 1.2rem;border-radius:.5rem;border:1px solid #8c959f;background:#fff;cursor:pointer}button.primary{background:#1f6feb;border-color:#1f6feb;color:#fff}button:focus-visible{outline:3px solid #0969da;outline-offset:2px}code{word-break:break-all}';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Never framed; a form may post here and be redirected to `redirectTo` (a registered post-logout URI). */
function csp(redirectTo?: string, style = STYLE): string {
  let formAction = "'self'";
  try {
    if (redirectTo) formAction += ` ${new URL(redirectTo).origin}`;
  } catch {}
  return [
    "default-src 'none'",
    `style-src ${hashOf(style)}`,
    "img-src 'self' https:",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const languageOf = (ctx: ProviderPageContext): PageLanguage =>
  preferredLanguage(ctx.oidc?.params?.ui_locales, ctx.get('accept-language')) ?? 'zh';

const appName = (ctx: ProviderPageContext) => ctx.oidc?.client?.clientName ?? ctx.oidc?.client?.clientId;

const LOGOUT = {
  zh: {
    title: '退出登录？',
    body: (app?: string) =>
      app ? `「${app}」请求让你退出 Portico 账号。` : '有一个应用请求让你退出 Portico 账号。',
    detail: '退出后，在这个浏览器上需要重新登录。你授权给应用的权限不受影响，可在「已授权的应用」中撤销。',
    yes: '退出登录',
    no: '保持登录',
  },
  en: {
    title: 'Sign out?',
    body: (app?: string) =>
      app
        ? `${app} asks to sign you out of your Portico account.`
        : 'An app asks to sign you out of your Portico account.',
    detail:
      'You will need to sign in again in this browser. What you allowed apps to do stays; revoke it under "Authorised apps".',
    yes: 'Sign out',
    no: 'Stay signed in',
  },
} as const;

/** features.rpInitiatedLogout.logoutSource: the question, with the provider's form (its xsrf field). */
export async function logoutSource(ctx: ProviderPageContext, form: string): Promise<void> {
  const app = appName(ctx);
  ctx.type = 'html';
  ctx.set('content-security-policy', csp(ctx.oidc?.params?.post_logout_redirect_uri as string | undefined));
  ctx.body = bilingualPage({
    first: languageOf(ctx),
    title: (language) => LOGOUT[language].title,
    section: (language, heading) => {
      const copy = LOGOUT[language];
      return `<${heading}>${escapeHtml(copy.title)}</${heading}>
<p>${escapeHtml(copy.body(app))}</p>
<p>${escapeHtml(copy.detail)}</p>
<div class="actions">
<button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(copy.yes)}</button>
<button type="submit" form="op.logoutForm">${escapeHtml(copy.no)}</button>
</div>`;
    },
    head: `<meta name="referrer" content="no-referrer">\n<style>${STYLE}</style>\n`,
    tail: `${form}\n`,
  });
}

const SIGNED_OUT = {
  zh: { title: '已退出登录', body: '你已退出 Portico 账号。现在可以关闭本页。' },
  en: { title: 'Signed out', body: 'You are signed out of your Portico account. You may close this page.' },
} as const;

/** features.rpInitiatedLogout.postLogoutSuccessSource: a logout without a registered way back. */
export async function postLogoutSuccessSource(ctx: ProviderPageContext): Promise<void> {
  ctx.type = 'html';
  ctx.set('content-security-policy', csp());
  ctx.body = bilingualPage({
    first: languageOf(ctx),
    title: (language) => SIGNED_OUT[language].title,
    section: (language, heading) =>
      `<${heading}>${escapeHtml(SIGNED_OUT[language].title)}</${heading}>\n<p>${escapeHtml(SIGNED_OUT[language].body)}</p>`,
    head: `<style>${STYLE}</style>\n`,
  });
}

const FAILED = {
  zh: { title: '授权失败', body: '应用发来的请求无效，或已经过期。请回到应用重新开始。' },
  en: {
    title: 'Authorization failed',
    body: 'The app’s request is invalid or has expired. Go back to the app and start again.',
  },
} as const;

/** renderError: the provider's error page (the OAuth error and its description, escaped). */
export async function renderError(
  ctx: ProviderPageContext,
  out: { error: string; error_description?: string },
): Promise<void> {
  ctx.type = 'html';
  ctx.set('content-security-policy', csp());
  ctx.body = bilingualPage({
    first: languageOf(ctx),
    title: (language) => FAILED[language].title,
    section: (language, heading) =>
      `<${heading}>${escapeHtml(FAILED[language].title)}</${heading}>\n<p>${escapeHtml(FAILED[language].body)}</p>`,
    head: `<style>${STYLE}</style>\n`,
    tail: `<p><code>${escapeHtml(out.error)}</code> ${escapeHtml(out.error_description ?? '')}</p>\n`,
  });
}

/**
 * A provider page with a form: the form (with its fields) once, in the first language's section; the
 * other language repeats the words. Buttons outside the form name it by its id.
 */
function formPage(
  ctx: ProviderPageContext,
  copy: Record<PageLanguage, { title: string; lines: string[] }>,
  form: (language: PageLanguage) => string,
): string {
  const first = languageOf(ctx);
  return bilingualPage({
    first,
    title: (language) => copy[language].title,
    section: (language, heading) =>
      [
        `<${heading}>${escapeHtml(copy[language].title)}</${heading}>`,
        ...copy[language].lines.map((line) => `<p>${line}</p>`),
        language === first ? form(language) : '',
      ].join('\n'),
    head: `<meta name="referrer" content="no-referrer">\n<style>${STYLE}${DEVICE_STYLE}</style>\n`,
  });
}

const DEVICE_STYLE =
  'label{display:block;font-weight:600;margin:1rem 0 .25rem}input[name=user_code]{font:inherit;font-size:1.5rem;letter-spacing:.15em;text-transform:uppercase;text-align:center;width:100%;padding:.5rem;border:1px solid #8c959f;border-radius:.5rem}.code{font:700 2rem/1.2 ui-monospace,monospace;letter-spacing:.15em;text-align:center;padding:1rem;border:2px dashed #8c959f;border-radius:.5rem}.error{color:#cf222e}';

/** The attribute value of `name` in the provider's form markup (its action, its xsrf token). */
const fieldOf = (html: string, pattern: RegExp) => html.match(pattern)?.[1] ?? '';

const DEVICE_INPUT = {
  zh: {
    title: '连接设备',
    ask: '请输入设备（命令行、电视、智能助手）上显示的代码。',
    wrong: '代码不正确，请再试一次。',
    aborted: '这次登录已被取消。',
    failed: '处理请求时出错，请再试一次。',
    label: '设备上的代码',
    next: '继续',
  },
  en: {
    title: 'Connect a device',
    ask: 'Enter the code your device (a command line, a TV, an assistant) shows.',
    wrong: 'That code is not right. Try again.',
    aborted: 'This sign-in was cancelled.',
    failed: 'Something went wrong. Try again.',
    label: 'The code on your device',
    next: 'Continue',
  },
} as const;

/** features.deviceFlow.userCodeInputSource: where the person types the device's code. */
export async function userCodeInputSource(
  ctx: ProviderPageContext,
  form: string,
  _out: unknown,
  err?: { name?: string; userCode?: string },
): Promise<void> {
  const action = fieldOf(form, /action="([^"]+)"/);
  const xsrf = fieldOf(form, /name="xsrf" value="([^"]+)"/);
  const problem = (language: PageLanguage) => {
    const copy = DEVICE_INPUT[language];
    if (!err) return undefined;
    if (err.userCode || err.name === 'NoCodeError') return copy.wrong;
    return err.name === 'AbortedError' ? copy.aborted : copy.failed;
  };
  const lines = (language: PageLanguage) => {
    const error = problem(language);
    return [
      escapeHtml(DEVICE_INPUT[language].ask),
      ...(error ? [`<span class="error" role="alert">${escapeHtml(error)}</span>`] : []),
    ];
  };
  ctx.type = 'html';
  ctx.set('content-security-policy', csp(undefined, STYLE + DEVICE_STYLE));
  ctx.body = formPage(
    ctx,
    {
      zh: { title: DEVICE_INPUT.zh.title, lines: lines('zh') },
      en: { title: DEVICE_INPUT.en.title, lines: lines('en') },
    },
    (language) => `<form method="post" action="${action}">
<input type="hidden" name="xsrf" value="${xsrf}">
<label for="user_code">${escapeHtml(DEVICE_INPUT[language].label)}</label>
<input id="user_code" type="text" name="user_code" autocomplete="off" autocapitalize="characters" spellcheck="false" required autofocus>
<div class="actions"><button class="primary" type="submit">${escapeHtml(DEVICE_INPUT[language].next)}</button></div>
</form>`,
  );
}

const DEVICE_CONFIRM = {
  zh: {
    title: '确认这台设备',
    asks: (app: string) => `「${escapeHtml(app)}」想在一台设备上使用你的 Portico 账号。`,
    compare: '请核对：设备上显示的代码必须与下面的代码完全一致。不一致，或者不是你发起的，请选择「取消」。',
    yes: '代码一致，继续',
    no: '取消',
  },
  en: {
    title: 'Confirm this device',
    asks: (app: string) => `${escapeHtml(app)} wants to use your Portico account on a device.`,
    compare:
      'Check that your device shows exactly the code below. If it does not, or you did not start this, cancel.',
    yes: 'The codes match, continue',
    no: 'Cancel',
  },
} as const;

/** features.deviceFlow.userCodeConfirmSource: the code again, to compare with the device's screen. */
export async function userCodeConfirmSource(
  ctx: ProviderPageContext,
  form: string,
  client: { clientName?: string; clientId: string },
  _deviceInfo: unknown,
  userCode: string,
): Promise<void> {
  const app = client.clientName ?? client.clientId;
  const lines = (language: PageLanguage) => [
    DEVICE_CONFIRM[language].asks(app),
    escapeHtml(DEVICE_CONFIRM[language].compare),
  ];
  ctx.type = 'html';
  ctx.set('content-security-policy', csp(undefined, STYLE + DEVICE_STYLE));
  ctx.body = formPage(
    ctx,
    {
      zh: { title: DEVICE_CONFIRM.zh.title, lines: lines('zh') },
      en: { title: DEVICE_CONFIRM.en.title, lines: lines('en') },
    },
    (
      language,
    ) => `<p class="code" aria-label="${escapeHtml(userCode.split('').join(' '))}">${escapeHtml(userCode)}</p>
${form}
<div class="actions">
<button class="primary" type="submit" form="op.deviceConfirmForm">${escapeHtml(DEVICE_CONFIRM[language].yes)}</button>
<button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">${escapeHtml(DEVICE_CONFIRM[language].no)}</button>
</div>`,
  );
}

const DEVICE_DONE = {
  zh: {
    title: '设备已连接',
    body: (app: string) => `「${app}」已获得你的授权。回到设备上继续即可，本页可以关闭。`,
  },
  en: {
    title: 'Device connected',
    body: (app: string) => `${app} has your permission. Carry on on your device; you may close this page.`,
  },
} as const;

/** features.deviceFlow.successSource: the person is done here; the device gets its tokens. */
export async function deviceSuccessSource(ctx: ProviderPageContext): Promise<void> {
  const app = appName(ctx) ?? '';
  ctx.type = 'html';
  ctx.set('content-security-policy', csp());
  ctx.body = bilingualPage({
    first: languageOf(ctx),
    title: (language) => DEVICE_DONE[language].title,
    section: (language, heading) =>
      `<${heading}>${escapeHtml(DEVICE_DONE[language].title)}</${heading}>\n<p>${escapeHtml(DEVICE_DONE[language].body(app))}</p>`,
    head: `<style>${STYLE}</style>\n`,
  });
}
