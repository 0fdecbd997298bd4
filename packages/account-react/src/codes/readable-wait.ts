/**
 * How a wait reads to a person: whole minutes (rounded up) from 2 minutes on, seconds below, so a long
 * cooldown says "29 minutes", not "1740 s". The answer is the placeholder values of the text showing it
 * (`{minutes}` or `{seconds}`).
 */
export function readableWait(seconds: number): { minutes: number } | { seconds: number } {
  return seconds >= 120 ? { minutes: Math.ceil(seconds / 60) } : { seconds };
}
