// Which Chromium this machine's browser work drives (the browser tests, the challenge bench): the one
// place for the rule, so a machine set up by the test command serves every one of them.
import { existsSync } from 'node:fs';

/**
 * Debian's headless shell (`apt-get install -y chromium-headless-shell`): the same Chromium (same
 * version, same Blink, fonts and DevTools protocol) without the full browser around the page, which
 * is what Playwright itself runs for headless Chromium. It spends markedly less CPU per page than
 * the full browser in headless mode (docs/testing.md, "What the browser suite no longer repeats").
 */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** Debian's Chromium (`apt-get install -y chromium`), used when the headless shell is not installed. */
export const FULL_CHROMIUM = '/usr/bin/chromium';

/** PORTICO_CHROMIUM, else the headless shell, else the full browser. */
export function chromiumPath() {
  return process.env.PORTICO_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);
}
