/**
 * The server's clock, with an offset end-to-end tests may move forward (TEST_CLOCK=on, /dev/clock).
 * Only the offset is kept, in this process: the test clock is for one test server, never for a fleet.
 */
export interface Clock {
  now(): number;
  /** Moves the clock forward by `ms` (never back). */
  advance(ms: number): void;
}

export function createClock(base: () => number): Clock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance: (ms) => {
      if (ms > 0) offset += ms;
    },
  };
}
