import { existsSync } from 'node:fs';
import { serverMain } from './server';

/** Fails at once, with the fix, when the browser or the built server is missing. */
export default function globalSetup(): void {
  const chromium = process.env.PORTICO_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(
      `${chromium} is missing. Install Debian's Chromium (as root: apt-get update && apt-get install -y chromium), ` +
        'or point PORTICO_CHROMIUM at a Chromium binary. `sh scripts/run.sh test` installs it when it can.',
    );
  }
  if (!existsSync(serverMain)) {
    throw new Error(`${serverMain} is missing: run \`pnpm turbo run build --filter=@portico/e2e...\` first.`);
  }
}
