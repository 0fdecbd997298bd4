import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { AuthRoutesOptions } from '../routes/auth-options';
import { screenRoute } from '../routes/screen-route';
import { AuthShell } from '../shell/auth-shell';
import { useThirdPartyT } from './messages';

/** A development origin on this machine: http(s)://localhost, 127.0.0.1 or [::1], any port. */
export function loopbackOrigin(relay: string | null): string | null {
  if (!relay) return null;
  try {
    const url = new URL(relay);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    return loopback && /^https?:$/.test(url.protocol) && url.origin === relay ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * `github-oauth-twice-redirect`: a GitHub app has one callback URL, so a development app on this
 * machine (`use_local_host`, its origin allow-listed by the passport when the sign-in started) gets its
 * callback relayed here. Only a loopback origin is relayed to; the exchange there still needs the state
 * of the browser that started.
 */
function TwiceRedirect() {
  const t = useThirdPartyT();
  const [search] = useSearchParams();
  const origin = loopbackOrigin(search.get('relay'));
  useEffect(() => {
    if (!origin) return;
    const target = new URL('/github-oauth-callback', origin);
    for (const name of ['code', 'state', 'error', 'error_description']) {
      const value = search.get(name);
      if (value !== null) target.searchParams.set(name, value);
    }
    window.location.replace(target.href);
  }, [origin, search]);
  return (
    <AuthShell title={origin ? t('tp.relay.title') : t('tp.relay.refused')} subtitle="">
      {origin ? null : (
        <p role="alert" className="portico-error">
          {t('tp.relay.refused')}
        </p>
      )}
    </AuthShell>
  );
}

export const route = (options: AuthRoutesOptions) => screenRoute(options, TwiceRedirect);
