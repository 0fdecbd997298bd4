import { QrConfirmScreen } from '@portico/account-pages';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { appBridge } from '../bridge';
import { Card } from '../layout';
import { BASENAME } from '../policy';

/**
 * The page a scanned QR code opens (docs/qr-login.md): the native app is asked for its session first
 * (the bridge), then the shared confirmation screens; "Done" closes the webview (or goes back).
 */
export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    void appBridge()
      .getSession()
      .finally(() => {
        if (live) setReady(true);
      });
    return () => {
      live = false;
    };
  }, []);
  const here = `${BASENAME}/qr?token=${encodeURIComponent(token)}`;
  return (
    <Card>
      {ready ? (
        <QrConfirmScreen
          token={token}
          signInHref={`/login?next=${encodeURIComponent(here)}`}
          onClose={(result) => void appBridge().close(result)}
        />
      ) : (
        <div className="spinner" aria-hidden="true" />
      )}
    </Card>
  );
}
