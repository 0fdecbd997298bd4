import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CSRF_COOKIE, CSRF_HEADER, paths } from '../../protocol';

/** The script's own version; the served text adds its content hash. */
export const CHALLENGE_SCRIPT_VERSION = '1.0.0';

const PLACEHOLDER = '__PORTICO_CHALLENGE_CONFIG__';

/** src/routes/vc → src/static, or dist → src/static after a build. */
const CANDIDATES = [
  '../../static/challenge-script/challenge.js',
  '../src/static/challenge-script/challenge.js',
];

export interface ChallengeScript {
  text: string;
  etag: string;
  version: string;
}

/**
 * The challenge script as served: the plain JS file with the protocol's names (paths, the CSRF
 * cookie and header) filled in from the one shared source, so the browser code restates none.
 */
export function loadChallengeScript(): ChallengeScript {
  const file = CANDIDATES.map((c) => fileURLToPath(new URL(c, import.meta.url))).find((f) => existsSync(f));
  if (!file) throw new Error(`The challenge script is missing; looked for ${CANDIDATES.join(', ')}`);
  const source = readFileSync(file, 'utf8');
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const version = `${CHALLENGE_SCRIPT_VERSION}+${hash}`;
  const config = {
    version,
    challengePath: paths.vc.challenge,
    verifyPath: paths.vc.verify,
    csrfCookie: CSRF_COOKIE,
    csrfHeader: CSRF_HEADER,
  };
  if (!source.includes(PLACEHOLDER)) throw new Error(`The challenge script has no ${PLACEHOLDER} to fill in`);
  const text = source.replace(PLACEHOLDER, JSON.stringify(config));
  return { text, etag: `"${hash}"`, version };
}
