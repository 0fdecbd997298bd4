import { createHash } from 'node:crypto';

/** The server's own pages (the sso error page, the logout confirmation) speak zh and en. */
export type PageLanguage = 'zh' | 'en';

export const HTML_LANG = { zh: 'zh-CN', en: 'en' } as const;

/**
 * The look of the server's own pages, in the apps' colours (account-pages' sheet): a card, the
 * apps' primary and secondary buttons (a link with `class="button"` looks like one), the other
 * language quieter below. Static, so a page's CSP allows exactly it by hash (`PAGE_STYLE_HASH`).
 */
export const PAGE_STYLE =
  ':root{color-scheme:light dark;--bg:#f7f8fa;--surface:#fff;--text:#1b1f24;--muted:#5a6472;--border:#d9dee5;--brand:#3b5bdb;--on-brand:#fff;--focus:#f08c00}' +
  '@media (prefers-color-scheme:dark){:root{--bg:#101318;--surface:#171b22;--text:#e8ebf0;--muted:#a3acb9;--border:#2e3541;--brand:#7c93ff;--on-brand:#0b1020}}' +
  'body{margin:0;background:var(--bg);color:var(--text);font:16px/1.6 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif}' +
  'main{max-width:30rem;margin:3rem auto;padding:1.5rem;background:var(--surface);border:1px solid var(--border);border-radius:10px}' +
  '@media (max-width:575px){main{margin:0;border:0;border-radius:0}}' +
  'h1{font-size:1.5rem;margin:0 0 .75rem}h2{font-size:1.1rem;margin:0 0 .5rem}' +
  'section+section{margin-top:2rem;padding-top:1rem;border-top:1px solid var(--border);color:var(--muted);font-size:.9rem}' +
  'form{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center}' +
  'button,.button{display:inline-flex;align-items:center;justify-content:center;min-height:40px;padding:8px 16px;border-radius:8px;border:1px solid var(--border);background:var(--surface);color:var(--text);font:inherit;font-weight:600;text-decoration:none;cursor:pointer}' +
  'button{background:var(--brand);border-color:var(--brand);color:var(--on-brand)}' +
  ':focus-visible{outline:3px solid var(--focus);outline-offset:2px}' +
  '[role=alert]{flex-basis:100%;color:#c92a2a}small{color:var(--muted)}';

/** A static script or style as a CSP source: its hash. */
export const cspHashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export const PAGE_STYLE_HASH = cspHashOf(PAGE_STYLE);

/**
 * The CSP of a page whose one static script posts its form to this site: nothing but that script and
 * PAGE_STYLE, never framed.
 */
export const formPageCsp = (script: string) =>
  [
    "default-src 'none'",
    `script-src ${cspHashOf(script)}`,
    `style-src ${PAGE_STYLE_HASH}`,
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A page in both languages, the asked one first (the server cannot see the language a person picked in
 * an app): one section per language, the first under an h1, the other under an h2. `head` and `tail`
 * are trusted markup of the page's own (a style, a script).
 */
export function bilingualPage(page: {
  first: PageLanguage;
  title: (language: PageLanguage) => string;
  section: (language: PageLanguage, heading: 'h1' | 'h2') => string;
  head?: string;
  tail?: string;
}): string {
  const { first } = page;
  const second = first === 'zh' ? 'en' : 'zh';
  const section = (language: PageLanguage, heading: 'h1' | 'h2') =>
    `<section lang="${HTML_LANG[language]}">\n${page.section(language, heading)}\n</section>`;
  return `<!doctype html>
<html lang="${HTML_LANG[first]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${page.head ?? ''}<title>${escapeHtml(page.title(first))}</title>
</head>
<body>
<main>
${section(first, 'h1')}
${section(second, 'h2')}
</main>
${page.tail ?? ''}</body>
</html>
`;
}
