import { useAccountClient, useThirdPartyAccounts } from '@portico/account-react';
import { useSearchParams } from 'react-router';
import { useThirdPartyT } from './messages';
import { providerName, startThirdParty } from './start';

/**
 * The sign-in page's third-party buttons: only the providers the passport has configured (none: the
 * section is not shown). Loaded lazily by the login screen, so the first load does not carry it.
 */
export default function ThirdPartyButtons() {
  const t = useThirdPartyT();
  const client = useAccountClient();
  const [search] = useSearchParams();
  const providers = useThirdPartyAccounts().data?.providers ?? [];
  if (providers.length === 0) return null;
  const next = search.get('next') ?? '';
  return (
    <section className="third-party" aria-label={t('tp.or')}>
      <p className="third-party-divider">{t('tp.or')}</p>
      <div className="third-party-buttons">
        {providers.map((provider) => (
          <button
            key={provider}
            type="button"
            className="button button-secondary button-block"
            onClick={() => startThirdParty(client, provider, { next })}
          >
            {t('tp.continue', { provider: providerName(provider) })}
          </button>
        ))}
      </div>
    </section>
  );
}
