import { type AccountInfo, ErrorMessage, usePasskeyAutofill, usePasskeySignIn } from '@portico/account-react';
import { passkeysSupported } from '@portico/account-sdk/passkeys';
import { useState } from 'react';
import { reportFunnel } from '../app/monitoring';
import { useGoOn } from '../routes/navigation';
import { isBrowserError, isCancelled, usePasskeyT } from './passkeys.messages';

/**
 * The sign-in page's passkey part (docs/factors.md): a "Sign in with a passkey" button, and the
 * browser's autofill of the identifier field (`autocomplete="… webauthn"`) started as the page loads.
 * No identifier is asked: the browser offers the passkeys it holds for the site. Loaded lazily by the
 * login screen, so its first load does not carry the WebAuthn code. Nothing shows in a browser without
 * WebAuthn.
 */
export default function PasskeySignIn() {
  const t = usePasskeyT();
  const goOn = useGoOn();
  const signIn = usePasskeySignIn();
  const [supported] = useState(() => passkeysSupported());
  const signedIn = (account: AccountInfo) => {
    reportFunnel('signed_in', { method: 'passkey' });
    goOn(account);
  };
  const autofill = usePasskeyAutofill({ enabled: supported, onSignedIn: signedIn });
  if (!supported) return null;
  const error = signIn.error ?? autofill.error;
  return (
    <section className="passkey-sign-in third-party" aria-label={t('passkey.signIn')}>
      <p className="third-party-divider">{t('passkey.or')}</p>
      <button
        type="button"
        className="button button-secondary button-block"
        aria-busy={signIn.isPending || undefined}
        onClick={() => signIn.mutate(undefined, { onSuccess: signedIn })}
      >
        {signIn.isPending ? t('passkey.signingIn') : t('passkey.signIn')}
      </button>
      {error ? (
        isCancelled(error) ? (
          <p role="status" className="muted">
            {t('passkey.cancelled')}
          </p>
        ) : isBrowserError(error) ? (
          <p role="alert" className="portico-error">
            {t('passkey.browserFailed')}
          </p>
        ) : (
          <ErrorMessage error={error} />
        )
      ) : null}
    </section>
  );
}
