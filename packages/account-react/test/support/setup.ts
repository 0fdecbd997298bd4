import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// CI runs every package's suite at once on two cores: a lazy route's chunk can take seconds to import
// there, so findBy*/waitFor wait up to 10 s (Testing Library's default is 1 s) before they fail.
configure({ asyncUtilTimeout: 10_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
