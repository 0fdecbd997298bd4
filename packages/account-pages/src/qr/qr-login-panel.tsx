import { type AccountInfo, ErrorMessage, useQrLogin } from '@portico/account-react';
import { useEffect, useRef } from 'react';
import { useQrT } from './qr.messages';
import { QrImage } from './qr-image';

/**
 * The QR sign-in tab (docs/qr-login.md): the code to scan with a signed-in phone, then the number the
 * phone asks the person to pick, then the sign-in; one click refreshes an expired or cancelled code.
 * Loaded lazily with the tab, so the sign-in page's first load carries neither it nor the QR library.
 */
export default function QrLoginPanel({
  next,
  onSignedIn,
}: {
  next?: string;
  onSignedIn: (account: AccountInfo) => void;
}) {
  const t = useQrT();
  const qr = useQrLogin({ next });
  const done = useRef(false);
  useEffect(() => {
    if (qr.status !== 'signed-in' || !qr.account || done.current) return;
    done.current = true;
    onSignedIn(qr.account);
  }, [qr.status, qr.account, onSignedIn]);

  const refresh = (
    <button type="button" className="button button-primary" onClick={() => void qr.refresh()}>
      {t('qr.refresh')}
    </button>
  );

  return (
    <div className="qr-login">
      <div className="qr-login-status" role="status" aria-live="polite">
        {qr.status === 'idle' || qr.status === 'loading' ? <p className="muted">{t('qr.loading')}</p> : null}
        {qr.status === 'waiting' ? <p>{t('qr.scan')}</p> : null}
        {qr.status === 'scanned' ? (
          <>
            <p className="qr-login-scanned">{t('qr.scanned')}</p>
            <p>
              {t('qr.pick')} <strong className="qr-login-number">{qr.number}</strong>
            </p>
          </>
        ) : null}
        {qr.status === 'signing-in' || qr.status === 'signed-in' ? <p>{t('qr.signingIn')}</p> : null}
        {qr.status === 'cancelled' ? <p>{t('qr.cancelled')}</p> : null}
        {qr.status === 'expired' ? <p>{t('qr.expired')}</p> : null}
        {qr.status === 'failed' ? <p>{t('qr.failed')}</p> : null}
      </div>
      {qr.code && (qr.status === 'waiting' || qr.status === 'scanned') ? (
        <div className={qr.status === 'scanned' ? 'qr-login-code qr-login-code-dim' : 'qr-login-code'}>
          <QrImage value={qr.code.qrcode_index_url} label={t('qr.image')} />
        </div>
      ) : null}
      {qr.status === 'waiting' && qr.code ? (
        <p className="muted">{t('qr.expiresIn', { seconds: qr.code.expires_in })}</p>
      ) : null}
      {qr.status === 'failed' && qr.error ? <ErrorMessage error={qr.error} /> : null}
      {qr.status === 'expired' || qr.status === 'cancelled' || qr.status === 'failed' ? refresh : null}
      <p className="muted qr-login-safety">{t('qr.safety')}</p>
    </div>
  );
}
