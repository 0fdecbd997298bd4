import { LanguageSwitch } from '@portico/account-pages';
import { useSaveLanguage, useSession } from '@portico/account-react';
import { Link, NavLink } from 'react-router';
import { languageStore } from '../i18n/language';
import { useT } from '../i18n/messages';
import { Brand } from './brand';

const NAV = [
  { to: '/home', key: 'nav.home' },
  { to: '/community', key: 'nav.community' },
  { to: '/extension', key: 'nav.extension' },
  { to: '/workbench', key: 'nav.workbench' },
] as const;

/** The site header: brand, the main navigation, the account entry and the language switch. */
export function SiteHeader({ nav = true }: { nav?: boolean }) {
  const t = useT();
  const session = useSession();
  const account = session.data;
  const saveLanguage = useSaveLanguage();
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Brand />
        {nav ? (
          <nav aria-label={t('nav.label')} className="site-nav">
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to}>{t(item.key)}</NavLink>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="site-header-tools">
          {account ? (
            <Link to="/workbench" className="account-chip">
              {account.avatar_url ? (
                <img className="avatar" src={account.avatar_url} alt="" width={32} height={32} />
              ) : (
                <span className="avatar" aria-hidden="true">
                  {(account.screen_name || '?').slice(0, 1).toUpperCase()}
                </span>
              )}
              <span className="visually-hidden">{t('nav.account', { name: account.screen_name })}</span>
              <span aria-hidden="true" className="account-chip-name">
                {account.screen_name}
              </span>
            </Link>
          ) : session.isSuccess ? (
            <div className="auth-links">
              <Link to="/login" className="button button-ghost">
                {t('nav.signIn')}
              </Link>
              <Link to="/sign-up" className="button button-primary">
                {t('nav.signUp')}
              </Link>
            </div>
          ) : null}
          <LanguageSwitch
            store={languageStore}
            onChoose={account ? (language) => saveLanguage.mutate(language) : undefined}
          />
        </div>
      </div>
    </header>
  );
}
