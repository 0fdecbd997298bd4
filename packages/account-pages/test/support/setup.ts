import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// CI runs every package's suite at once on two cores: a lazy route's chunk can take seconds to import
// there, so findBy*/waitFor wait up to 10 s (Testing Library's default is 1 s) before they fail.
configure({ asyncUtilTimeout: 10_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  // happy-dom follows a navigation (jsdom did not): the next file starts at the configured address.
  (window as unknown as { happyDOM?: { setURL(url: string): void } }).happyDOM?.setURL(
    'http://localhost:3000/',
  );
});

// happy-dom has no `window.confirm` (a browser's modal); the screens that still ask through it are
// tested by spying on it, so it must exist. It declines unless a test says otherwise.
if (typeof window.confirm !== 'function') window.confirm = () => false;
