import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuthT } from '../i18n/auth-messages';
import { useT } from '../i18n/messages';
import { Brand } from './brand';
import { Interpolate } from './interpolate';
import { LanguageSwitch } from './language-switch';

/** The frame of the sign-in, sign-up and reset pages: a focused card with no main navigation. */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
  signInTerms = false,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
  /** The "by signing in you agree…" line (sign-up asks for explicit consent instead). */
  signInTerms?: boolean;
}) {
  const t = useT();
  const auth = useAuthT();
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Brand />
        <LanguageSwitch />
      </header>
      <main id="main" tabIndex={-1} className="auth-main">
        <div className="auth-card">
          <h1>{title}</h1>
          <p className="auth-subtitle">{subtitle}</p>
          {children}
          {footer ? <div className="auth-card-footer">{footer}</div> : null}
        </div>
        {signInTerms ? (
          <p className="auth-legal">
            <Interpolate
              text={auth('login.agree')}
              values={{
                terms: <Link to="/terms-of-service">{t('footer.terms')}</Link>,
                privacy: <Link to="/privacy-policy">{t('footer.privacy')}</Link>,
              }}
            />
          </p>
        ) : null}
        <p className="auth-back">
          <Link to="/">{auth('auth.back')}</Link>
        </p>
      </main>
    </div>
  );
}
