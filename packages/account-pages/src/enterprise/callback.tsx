import { type AccountInfo, ErrorMessage, useAccountClient } from '@portico/account-react';
import { finishEnterpriseSso } from '@portico/account-sdk';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAuthConfig } from '../routes/auth-config';
import type { AuthRoutesOptions } from '../routes/auth-options';
import { goOnAfterSignIn } from '../routes/navigation';
import { screenRoute } from '../routes/screen-route';
import { AuthShell } from '../shell/auth-shell';
import { SEARCH_KEY, useEnterpriseT } from './messages';

/**
 * `/enterprise-sso-callback`, where the organisation's identity provider sends the browser back: the
 * code, state and issuer (OIDC), or the handle of the SAML response (`saml`), go to the passport once, and a signed-in person goes on where the sign-in page
 * would have sent them (its query kept in this tab while at the provider, else the passport's `next`).
 */
function EnterpriseCallback() {
  const t = useEnterpriseT();
  const client = useAccountClient();
  const config = useAuthConfig();
  const { paths, queryClient } = config;
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const started = useRef(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const kept = sessionStorage.getItem(SEARCH_KEY);
    sessionStorage.removeItem(SEARCH_KEY);
    if (search.get('error')) return;
    // SAML: the assertion consumer service kept the posted response under `saml`; OIDC: the code.
    const saml = search.get('saml');
    finishEnterpriseSso<AccountInfo & { next: string }>(
      client,
      saml
        ? { saml }
        : {
            code: search.get('code') ?? '',
            state: search.get('state') ?? '',
            ...(search.get('iss') ? { iss: search.get('iss') ?? '' } : {}),
          },
    ).then((account) => {
      // Another person may have been signed in in this tab: nothing of theirs stays cached, and the
      // session (with its organisation identity) is read afresh.
      queryClient.clear();
      const query = new URLSearchParams(kept ?? (account.next ? { next: account.next } : {}));
      goOnAfterSignIn(config, navigate, account, query);
    }, setError);
  }, [config, client, navigate, queryClient, search]);

  // The provider's own words (access_denied, its description in its language) are not shown.
  const refused = search.get('error');
  const failure = refused ? t(refused === 'access_denied' ? 'sso.cancelled' : 'sso.refused') : error;

  return (
    <AuthShell title={failure ? t('sso.failed') : t('sso.working')} subtitle="">
      {failure ? (
        <>
          <ErrorMessage error={failure} />
          <Link className="button button-secondary" to={paths.login}>
            {t('sso.retry')}
          </Link>
        </>
      ) : (
        <p aria-live="polite">{t('sso.working')}</p>
      )}
    </AuthShell>
  );
}

export const route = (options: AuthRoutesOptions) => screenRoute(options, EnterpriseCallback);
