/** Debian's Chromium headless shell. */
export const HEADLESS_SHELL: string;
/** Debian's full Chromium. */
export const FULL_CHROMIUM: string;
/** PORTICO_CHROMIUM, else the headless shell, else the full browser. */
export function chromiumPath(): string;
