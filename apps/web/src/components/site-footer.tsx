import { Link } from 'react-router';
import { useT } from '../i18n/messages';

export function SiteFooter() {
  const t = useT();
  return (
    <footer className="site-footer">
      <div className="container site-footer-inner">
        <p>{t('footer.copy')}</p>
        <nav aria-label={t('footer.legal')}>
          <ul>
            <li>
              <Link to="/privacy-policy">{t('footer.privacy')}</Link>
            </li>
            <li>
              <Link to="/terms-of-service">{t('footer.terms')}</Link>
            </li>
            <li>
              <Link to="/legal/open-source-notice">{t('footer.notice')}</Link>
            </li>
            <li>
              {/* Served by the passport server itself, outside this app's routes. */}
              <a href="/docs" rel="external">
                {t('footer.api')}
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
