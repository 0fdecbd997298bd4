// The browser the suite drives: PORTICO_CHROMIUM, else Debian's headless shell, else its Chromium
// (scripts/chromium.mjs, shared with the test command and the bench).
export { chromiumPath, FULL_CHROMIUM, HEADLESS_SHELL } from '../../scripts/chromium.mjs';
