import { safeNext } from './safe-next';

/** Pages a signed-in person is sent away from; `next` pointing at one would bounce back and forth. */
const SIGNED_OUT_PAGES = /^\/(login|sign-up|reset-password)(\/|\?|#|$)/i;

/** Where a sign-in (or a signed-in visit to login) goes: a safe `next`, else the workbench. */
export function afterSignIn(next: string | null | undefined): string {
  const safe = safeNext(next);
  return safe && !SIGNED_OUT_PAGES.test(safe) ? safe : '/workbench';
}
