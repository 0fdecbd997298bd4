import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { appBridge } from '../bridge';
import { useTranslate } from '../copy';
import { Card } from '../layout';
import { serviceHost } from '../policy';

/**
 * The wap login's last page (spec §2): signed in, it hands back to the caller at once — the native
 * app through the bridge (`close` with `success` and `service`), a plain browser through the
 * passport's redirect rule (`login_success` with `hand_back=1`). "Continue" does the same by hand.
 */
export function Component() {
  const t = useTranslate();
  const [search] = useSearchParams();
  const service = search.get('service') ?? '';
  const host = serviceHost(service);
  const handBack = () => void appBridge().close('success', service || undefined);
  // Hand back once, on arrival.
  useEffect(() => {
    handBack();
  }, []);
  return (
    <Card>
      <h1>{t('success.title')}</h1>
      <p className="auth-subtitle" role="status">
        {host ? t('success.service', { service: host }) : t('success.body')}
      </p>
      <button type="button" className="button button-primary button-block" onClick={handBack}>
        {t('success.continue')}
      </button>
    </Card>
  );
}
