import { safeNext } from './safe-next';

/**
 * Where a sign-in goes when the app's policy is "back to `next`": a safe `next`, else `fallback`. A
 * `next` pointing at one of the signed-out pages (`avoid`: login, sign-up, reset) would bounce back
 * and forth, so it counts as none.
 */
export function nextOrFallback(next: string | null | undefined, fallback: string, avoid: readonly string[]) {
  const safe = safeNext(next);
  if (!safe) return fallback;
  const path = safe
    .replace(/[?#].*$/, '')
    .replace(/\/$/, '')
    .toLowerCase();
  const avoided = avoid.some((page) => {
    const base = page.replace(/\/$/, '').toLowerCase();
    return path === base || path.startsWith(`${base}/`);
  });
  return avoided ? fallback : safe;
}
