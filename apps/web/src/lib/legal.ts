import { isAccountError } from '@portico/account-sdk';
import { ErrorCode } from '@portico/account-sdk/protocol';
import { data } from 'react-router';
import { accountClient } from './account';

export type LegalKind = 'privacy-policy' | 'terms-of-service';

export interface LegalVersion {
  id: string;
  published_at: number;
}

/** A versioned legal document as `GET /passport/web/legal/{kind}/{id|latest}/` answers it. */
export interface LegalDocument extends LegalVersion {
  kind: LegalKind;
  title: { zh: string; en: string };
  /** Markdown-ish text: `## heading`, `- item` lines, blank lines between paragraphs. */
  body: { zh: string; en: string };
  /** Every published version of this kind, newest first. */
  versions: LegalVersion[];
}

/**
 * The documents are content of this site, not an account SDK call, so their path lives here and in the
 * server's route (apps/passport-server/src/routes/site/legal.ts), not in the protocol tables.
 */
export const LEGAL_PATH = '/passport/web/legal/';

const VERSION_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Loads one version (the latest without an id); an unknown version is a 404 for the route. */
export async function loadLegal(kind: LegalKind, id: string | undefined, signal: AbortSignal) {
  if (id !== undefined && !VERSION_ID.test(id)) throw data(null, { status: 404 });
  try {
    return await accountClient.request<LegalDocument>({
      path: `${LEGAL_PATH}${kind}/${encodeURIComponent(id ?? 'latest')}/`,
      method: 'GET',
      signal,
    });
  } catch (error) {
    if (isAccountError(error, 'response') && error.error_code === ErrorCode.notFound)
      throw data(null, { status: 404 });
    throw error;
  }
}
