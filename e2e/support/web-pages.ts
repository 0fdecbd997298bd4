import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { CodeType, CSRF_COOKIE, CSRF_HEADER } from '@portico/account-sdk/protocol';
import type * as Axe from 'axe-core';
import { clientHeaders } from './client-address';
import { PASSWORD } from './person';
import type { Outbox } from './test';

/** Where the run writes the committed screenshots of the web app (`<page>-<viewport>.png`). */
export const SCREENSHOTS_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** Where the screenshot review writes every route's views (a run's output, not committed). */
export const REVIEW_DIR = fileURLToPath(new URL('../screenshots/review/', import.meta.url));

/**
 * Whether the machine has a font for Chinese (fontconfig's `fc-list :lang=zh`). Without one Chromium
 * draws every Chinese character as a box, and the committed screenshots would show boxes: the run then
 * leaves them alone (`apt-get install -y fonts-noto-cjk` gives Chromium one).
 */
export function hasChineseFont(): boolean {
  try {
    return execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

/** The spec's xs and lg breakpoints (lg starts at 992 px), as a phone and a small laptop. */
export const VIEWPORTS = {
  xs: { width: 360, height: 740 },
  lg: { width: 1024, height: 800 },
} as const;

/**
 * A form POST to the passport through the page's own cookie jar (`page.request` shares the browser
 * context's cookies), with the CSRF header read from the readable token cookie, as the SDK sends it. The
 * first POST of a browser has no token yet: its 403 brings one, and the request is sent once more.
 * It comes from the context's client address unless `headers` name another (`x-forwarded-for`).
 * Expects success; answers the data.
 */
export async function postForm(
  page: Page,
  origin: string,
  path: string,
  form: Record<string, string | number>,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    const cookies = await page.context().cookies(origin);
    const csrf = cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value;
    const response = await page.request.post(`${origin}${path}`, {
      form,
      headers: { ...clientHeaders(page.context()), ...headers, ...(csrf ? { [CSRF_HEADER]: csrf } : {}) },
      failOnStatusCode: false,
    });
    if (response.status() === 403 && attempt === 1) continue;
    const json = (await response.json()) as { message: string; data: Record<string, unknown> };
    expect(json, `POST ${path}`).toMatchObject({ message: 'success' });
    return json.data;
  }
}

/**
 * Registers an account with a password through the real HTTP API (spec §4: send a type-1 code, read it
 * from the outbox, exchange it for a verify ticket, register), which leaves the page's browser context
 * signed in. Sensitive fields travel plain (no `mix_mode`), which the passport accepts.
 */
export async function registerByApi(page: Page, origin: string, outbox: Outbox, mobile: string) {
  const sentAt = Date.now() - 1000;
  await postForm(page, origin, '/passport/web/send_code/', { mobile, type: CodeType.register });
  const code = await outbox.code(mobile, sentAt);
  const { verify_ticket } = await postForm(page, origin, '/passport/web/mobile/check_code/', {
    mobile,
    code,
    type: CodeType.register,
  });
  await postForm(page, origin, '/passport/mobile/register/', {
    mobile,
    verify_ticket: String(verify_ticket),
    password: PASSWORD,
  });
}

/** One axe violation, reduced to what a fix needs. */
export interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** axe-core's script, as @axe-core/playwright evaluates it in a page. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's serious and critical violations on the page as it is now, within `include` (a selector) when
 * given. axe-core's own `axe.run` in the page, its script evaluated once per document: AxeBuilder
 * evaluates the script again for every check and gathers the results in a blank page it opens for
 * each, about 0.55 s of CPU (Chromium's and ours) per check against 0.06 s, and the suites check
 * hundreds of views. The same rules run either way; `resultTypes` leaves out the details of what
 * passed, which nobody reads. A page with frames goes through AxeBuilder, which checks each frame
 * (cross-origin ones too).
 */
export async function seriousViolations(page: Page, include?: string): Promise<Violation[]> {
  let violations: Axe.Result[];
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page });
    if (include) builder.include(include);
    ({ violations } = await builder.analyze());
  } else {
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
    violations = await page.evaluate(async (include) => {
      const { axe } = window as unknown as { axe: typeof Axe };
      const results = await axe.run(include ? { include: [include] } : document, {
        resultTypes: ['violations'],
      });
      return results.violations;
    }, include);
  }
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}
