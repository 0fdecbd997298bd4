import type { CookieDocument } from '../client/types';
import { WEB_ID_COOKIE } from '../protocol/defaults';
import { createWebId, isWebId } from '../protocol/web-id';
import { readCookie } from '../transport/cookie';

/** `example.com`, `.example.com`, `a.b.example.co`: labels joined by dots, ending in a letter TLD. */
export const isDottedHostName = (domain: string): boolean =>
  /^\.?([a-z\d]([a-z\d-]*[a-z\d])?\.)+[a-z]{2,}$/i.test(domain);

/**
 * The default fingerprint: the `s_v_web_id` cookie, created with a fresh web id when absent, so a
 * browser keeps one id. The cookie's domain is set only when `domain` looks like a dotted host name.
 */
export function webIdCookie(doc: CookieDocument, domain?: string): () => string {
  return () => {
    let id = readCookie(doc.cookie, WEB_ID_COOKIE);
    if (!isWebId(id)) {
      id = createWebId();
      doc.cookie = `${WEB_ID_COOKIE}=${id}; path=/; max-age=31536000; samesite=lax${
        domain && isDottedHostName(domain) ? `; domain=${domain}` : ''
      }`;
    }
    return id;
  };
}
