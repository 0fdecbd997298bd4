import { ErrorMessage, useAccountClient, useThirdPartyAccounts, useUnbindAuth } from '@portico/account-react';
import { Button } from '../ui/button';
import { useProviderName, useThirdPartyT } from './messages';
import { OAUTH_LAST_WAY_IN, startThirdParty } from './start';

/**
 * The account centre's linked accounts: every configured provider, linked (its name; unlink, or use
 * another account of it) or not (link). Unlinking the last way in is refused by the passport and
 * disabled here. `returnTo` is the page the provider's callback comes back to.
 */
export function LinkedAccounts({ returnTo }: { returnTo: string }) {
  const t = useThirdPartyT();
  const providerName = useProviderName();
  const client = useAccountClient();
  const accounts = useThirdPartyAccounts();
  const unbind = useUnbindAuth();
  const data = accounts.data;
  if (accounts.error) return <ErrorMessage error={accounts.error} />;
  if (!data) return null;
  if (data.providers.length === 0) return <p>{t('tp.linked.none')}</p>;
  const lastWayIn =
    unbind.error && (unbind.error as { error_code?: number }).error_code === OAUTH_LAST_WAY_IN;
  return (
    <div className="linked-accounts">
      <ul className="linked-accounts-list">
        {data.providers.map((provider) => {
          const linked = data.linked.find((row) => row.platform === provider);
          const name = providerName(provider);
          return (
            <li key={provider} className="linked-account">
              <div className="linked-account-name">
                <strong>{name}</strong>
                <span>
                  {linked
                    ? t('tp.linked.connected', { name: linked.name || linked.email || name })
                    : t('tp.linked.notConnected')}
                </span>
              </div>
              <div className="linked-account-actions">
                {linked ? (
                  <>
                    <Button
                      variant="secondary"
                      size="small"
                      onClick={() =>
                        startThirdParty(client, provider, { action: 'switch_bind', next: returnTo })
                      }
                    >
                      {t('tp.linked.switch')}
                    </Button>
                    <Button
                      variant="danger-ghost"
                      size="small"
                      aria-disabled={data.can_unbind[provider] === false || undefined}
                      title={data.can_unbind[provider] === false ? t('tp.linked.lastWayIn') : undefined}
                      onClick={() => {
                        if (data.can_unbind[provider] === false) return;
                        unbind.mutate({ platform_app_id: provider });
                      }}
                    >
                      {t('tp.linked.disconnect')}
                      <span className="visually-hidden"> {name}</span>
                    </Button>
                  </>
                ) : (
                  <Button
                    variant="primary"
                    size="small"
                    onClick={() => startThirdParty(client, provider, { action: 'bind', next: returnTo })}
                  >
                    {t('tp.linked.connect', { provider: name })}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {lastWayIn ? (
        <p role="alert" className="portico-error">
          {t('tp.linked.lastWayIn')}
        </p>
      ) : (
        <ErrorMessage error={unbind.error} />
      )}
      {unbind.isSuccess ? <p aria-live="polite">{t('tp.linked.done')}</p> : null}
    </div>
  );
}
