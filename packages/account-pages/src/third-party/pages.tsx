import type { AuthRoutesOptions } from '../routes/auth-options';
import { callbackRoute } from './callback';
import { route as twiceRedirectRoute } from './twice-redirect';

/** The third-party pages by path: `<provider>-oauth-callback`, and GitHub's relay to a development app. */
export const route = (options: AuthRoutesOptions, page: string) =>
  page === 'github-oauth-twice-redirect'
    ? twiceRedirectRoute(options)
    : callbackRoute(options, page.replace('-oauth-callback', ''));
