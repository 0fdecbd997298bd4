import { useAccountClient, useThirdPartyAccounts } from '@portico/account-react';
import { useSearchParams } from 'react-router';
import { useProviderName, useThirdPartyT } from './messages';
import { startThirdParty } from './start';

/**
 * The sign-in page's third-party buttons: only the providers the passport has configured (none: the
 * section is not shown). Loaded lazily by the login and consent screens, so their first load does not
 * carry it. The callback page returns to `next` (the consent page passes its own URL), else to the
 * `?next=` search parameter; the callback page decides by the app's safe-next policy either way.
 */
export default function ThirdPartyButtons({ next: nextProp }: { next?: string }) {
  const t = useThirdPartyT();
  const providerName = useProviderName();
  const client = useAccountClient();
  const [search] = useSearchParams();
  const providers = useThirdPartyAccounts().data?.providers ?? [];
  if (providers.length === 0) return null;
  const next = nextProp ?? search.get('next') ?? '';
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
