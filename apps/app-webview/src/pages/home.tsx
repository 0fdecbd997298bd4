import { Link, useNavigate } from 'react-router';
import { appBridge } from '../bridge';
import { useTranslate } from '../copy';
import { Card } from '../layout';
import { qrTokenOf } from '../policy';

/** The app flavour's start page: scan (with the app's scanner) or sign in. */
export function Component() {
  const t = useTranslate();
  const navigate = useNavigate();
  const bridge = appBridge();
  async function scan() {
    const text = await bridge.scan();
    if (text === null) return;
    const token = qrTokenOf(text);
    if (token) navigate(`/qr?token=${encodeURIComponent(token)}`);
    else await bridge.toast(t('scan.notOurs'), 'error');
  }
  return (
    <Card>
      <h1>{t('home.title')}</h1>
      <p className="auth-subtitle">{t('home.body')}</p>
      {bridge.native ? (
        <button type="button" className="button button-primary button-block" onClick={() => void scan()}>
          {t('home.scan')}
        </button>
      ) : (
        <p className="muted">{t('home.noScanner')}</p>
      )}
      <Link className="button button-block" to="/login">
        {t('home.signIn')}
      </Link>
    </Card>
  );
}
