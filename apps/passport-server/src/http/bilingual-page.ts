/** The server's own pages (the sso error page, the logout confirmation) speak zh and en. */
export type PageLanguage = 'zh' | 'en';

export const HTML_LANG = { zh: 'zh-CN', en: 'en' } as const;

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
