import { existsSync } from 'node:fs';
import { chromiumPath, FULL_CHROMIUM } from './chromium';
import { serverMain } from './server';

/** Fails at once, with the fix, when the browser or the built server is missing. */
export default function globalSetup(): void {
  const chromium = chromiumPath();
  if (!existsSync(chromium)) {
    throw new Error(
      `${chromium} is missing. Install Debian's Chromium headless shell (as root: apt-get update && ` +
        'apt-get install -y chromium-headless-shell), or point PORTICO_CHROMIUM at a Chromium binary.',
    );
  }
  if (chromium === FULL_CHROMIUM) {
    console.log(
      `Browser tests in ${FULL_CHROMIUM}: apt-get install -y chromium-headless-shell runs them on less CPU.`,
    );
  }
  if (!existsSync(serverMain)) {
    throw new Error(`${serverMain} is missing: run \`pnpm turbo run build --filter=@portico/e2e...\` first.`);
  }
}
