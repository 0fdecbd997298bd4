import { createServer, type Socket } from 'node:net';
import { expect, type Locator, type Page, type Route } from '@playwright/test';
import { withClientAddress } from './client-address';
import { call } from './fixture-page';
import { PROMPTLY, uniqueMobile } from './test';

export type PuzzleKind = 'slide' | 'text' | '3d' | 'whirl';

/** What `POST /vc/challenge` answered: the puzzle as the overlay shows it (never its answer). */
export interface Puzzle {
  challenge_id: string;
  subtype: PuzzleKind;
  width: number;
  height: number;
  piece_width?: number;
  prompt?: string;
}

export type PuzzleAnswer =
  | { kind: 'slide'; x: number }
  | { kind: 'text'; text: string }
  | { kind: 'whirl'; angle: number }
  | { kind: '3d'; x: number; y: number; r: number };

/** The challenge overlay: a modal dialog named by its heading, in zh or en. */
export function overlay(page: Page): Locator {
  return page.getByRole('dialog', { name: /^(Security check|安全验证)$/ });
}

/** Records every puzzle the overlay draws, so a test can ask for the newest one. */
export function watchPuzzles(page: Page): { next(): Promise<Puzzle>; all: Puzzle[] } {
  const all: Puzzle[] = [];
  let taken = 0;
  page.on('response', async (response) => {
    if (new URL(response.url()).pathname !== '/vc/challenge') return;
    const json = (await response.json().catch(() => null)) as { message?: string; data?: Puzzle } | null;
    if (json?.message === 'success' && json.data) all.push(json.data);
  });
  return {
    all,
    async next() {
      await expect
        .poll(() => all.length, { message: 'the overlay drew a puzzle', ...PROMPTLY })
        .toBeGreaterThan(taken);
      taken = all.length;
      return all[all.length - 1] as Puzzle;
    },
  };
}

/** The current puzzle's expected answer, from the dev-only endpoint (exists only with the dev outbox). */
export async function answerOf(origin: string, challengeId: string): Promise<PuzzleAnswer> {
  const response = await fetch(
    `${origin}/dev/challenge/answer?challenge_id=${encodeURIComponent(challengeId)}`,
  );
  const json = (await response.json()) as { message: string; data: { answer: PuzzleAnswer } };
  if (json.message !== 'success') throw new Error(`no answer for ${challengeId}: ${JSON.stringify(json)}`);
  return json.data.answer;
}

/** The slider's value as it announces it. */
async function valueNow(slider: Locator): Promise<number> {
  return Number(await slider.getAttribute('aria-valuenow'));
}

/**
 * Drags a slider handle with the mouse until it reads `target` (in its own units), as a person does:
 * press, move in small steps over a few hundred ms, look, correct, release.
 */
export async function dragSlider(page: Page, slider: Locator, target: number): Promise<void> {
  const max = Number(await slider.getAttribute('aria-valuemax'));
  const handle = await slider.boundingBox();
  const track = await slider.locator('..').boundingBox();
  if (!handle || !track) throw new Error('the slider is not on screen');
  const perPixel = max / (track.width - handle.width);
  const y = handle.y + handle.height / 2;
  const startX = handle.x + handle.width / 2;
  await page.mouse.move(startX, y);
  await page.mouse.down();
  const distance = target / perPixel;
  const steps = 16;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(startX + (distance * i) / steps, y + (i % 3) - 1);
    await page.waitForTimeout(20);
  }
  // Look at where it landed and nudge, as a person lining the piece up would.
  let x = startX + distance;
  for (let i = 0; i < 3; i++) {
    const off = target - (await valueNow(slider));
    if (Math.abs(off) < 1) break;
    x += off / perPixel;
    await page.mouse.move(x, y);
    await page.waitForTimeout(20);
  }
  await page.mouse.up();
}

/** Solves the overlay's current puzzle with the mouse and keyboard, reading the answer from the dev endpoint. */
export async function solveAsPerson(page: Page, origin: string, puzzle: Puzzle): Promise<void> {
  const dialog = overlay(page);
  const answer = await answerOf(origin, puzzle.challenge_id);
  expect(answer.kind).toBe(puzzle.subtype);
  if (answer.kind === 'slide') {
    await dragSlider(page, dialog.getByRole('slider', { name: /^(Piece position|拼图位置)$/ }), answer.x);
  } else if (answer.kind === 'whirl') {
    // The picture is shown turned by `angle`; turning it back clockwise by 360 - angle makes it upright.
    await dragSlider(page, dialog.getByRole('slider', { name: /^(Rotation|旋转角度)$/ }), 360 - answer.angle);
  } else if (answer.kind === 'text') {
    const input = dialog.getByRole('textbox', { name: /^(Characters in the picture|图中的字符)$/ });
    await input.pressSequentially(answer.text.toLowerCase(), { delay: 30 });
    await input.press('Enter');
  } else {
    const picture = dialog.getByRole('img', { name: /^(Puzzle picture|验证图片)$/ });
    const box = await picture.boundingBox();
    if (!box) throw new Error('the puzzle picture is not on screen');
    const k = box.width / puzzle.width;
    await page.mouse.click(box.x + answer.x * k, box.y + answer.y * k);
  }
}

/** A TCP port that accepts connections and never answers: a script address that hangs. */
export async function hangingServer(): Promise<{ url(path: string): string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Rewrites only the `/vc/setting` answer: the real response with its script addresses replaced, as a
 * server whose primary host is down would still name it.
 */
export async function rewriteSettings(
  page: Page,
  origin: string,
  addresses: { primary: string; backups: string[] },
): Promise<() => Promise<void>> {
  const matches = (url: URL) => url.origin === origin && url.pathname === '/vc/setting';
  const handler = async (route: Route) => {
    try {
      const response = await route.fetch({ headers: withClientAddress(page.context(), route.request()) });
      const json = (await response.json()) as { data: Record<string, unknown> };
      json.data.sdk_url = addresses.primary;
      json.data.backup_urls = addresses.backups;
      await route.fulfill({ response, json });
    } catch (error) {
      if (!endedWithTest(error)) throw error;
    }
  };
  await page.route(matches, handler);
  return () => page.unroute(matches, handler);
}

/**
 * Holds the answer to the overlay's first picture draw (`POST /vc/challenge` without `mode`) for `ms`
 * after the server gave it, as a slow network or a loaded server would: what a person does while the
 * picture is on its way is then tested every time, not only when the machine happens to be slow.
 */
export async function holdFirstPicture(page: Page, origin: string, ms: number): Promise<void> {
  let held = false;
  await page.route(
    (url) => url.origin === origin && url.pathname === '/vc/challenge',
    async (route) => {
      if (held || new URLSearchParams(route.request().postData() ?? '').has('mode')) return route.fallback();
      held = true;
      try {
        const response = await route.fetch({ headers: withClientAddress(page.context(), route.request()) });
        await new Promise((resolve) => setTimeout(resolve, ms));
        await route.fulfill({ response });
      } catch (error) {
        // The test may finish without the held picture (the person took the check without one) while
        // a loaded server is still drawing it: the page's routes end with the test, and so does this.
        if (!endedWithTest(error)) throw error;
      }
    },
  );
}

/** Playwright's refusal of a route's work once its test or page is over: nothing left to answer. */
const endedWithTest = (error: unknown) =>
  error instanceof Error && /Test ended|Target page, context or browser has been closed/.test(error.message);

/** Code sends from one address (and device) that go through before the sendCode rule demands a challenge. */
export const SENDS_BEFORE_CHALLENGE = 5;

/** Five code sends to fresh numbers that go through, so the page's next send is challenged. */
export async function sendUpToThreshold(page: Page): Promise<void> {
  for (let i = 0; i < SENDS_BEFORE_CHALLENGE; i++) {
    const result = await call(page, 'sendMobileCode', { mobile: uniqueMobile(), type: 24 });
    expect(result, `send ${i + 1} goes through without a challenge`).toMatchObject({ ok: true });
  }
}
