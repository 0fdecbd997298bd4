import { safeRedirect as redirectRule } from '../protocol';

/**
 * A redirect target from user input (`next`, `next_url`, `service`) by the one rule in the protocol
 * (`safeRedirect`: same-origin paths after normalisation, or PUBLIC_ORIGIN / ALLOWED_ORIGINS exactly),
 * or the fallback. Never built from Host or X-Forwarded-Host.
 */
export function safeRedirect(
  next: unknown,
  publicOrigin: string,
  allowedOrigins: readonly string[],
  fallback = '/',
): string {
  return redirectRule(next, { origin: publicOrigin, allowedOrigins }) ?? fallback;
}
