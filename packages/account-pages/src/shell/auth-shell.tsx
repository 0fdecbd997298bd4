import { useAccountLanguage } from '@portico/account-react';
import { createElement, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAuthT } from '../i18n/auth-messages';
import { useAuthConfig } from '../routes/auth-config';
import type { Copy } from '../routes/auth-options';
import { Interpolate } from '../ui/interpolate';
import { LanguageSwitch } from '../ui/language-switch';

/** Renders a piece of the app's copy: a node as it is, a function as a component of the context. */
export function CopyText({ copy, fallback }: { copy: Copy | undefined; fallback: string }) {
  const language = useAccountLanguage();
  const [search] = useSearchParams();
  if (copy === undefined) return fallback;
  return typeof copy === 'function' ? createElement(copy, { language, search }) : copy;
}

/**
 * The frame of the sign-in, sign-up and reset screens: the app's brand and the language switch, a
 * focused card with no main navigation, the legal line and the way back home.
 */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
  signInTerms = false,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** The "by signing in you agree…" line (sign-up asks for explicit consent instead). */
  signInTerms?: boolean;
}) {
  const auth = useAuthT();
  const { brand, languageStore, legal, home } = useAuthConfig();
  return (
    <div className="auth-page">
      <header className="auth-header">
        {brand}
        {languageStore ? <LanguageSwitch store={languageStore} /> : null}
      </header>
      <main id="main" tabIndex={-1} className="auth-main">
        <div className="auth-card">
          <h1>{title}</h1>
          <p className="auth-subtitle">{subtitle}</p>
          {children}
          {footer ? <div className="auth-card-footer">{footer}</div> : null}
        </div>
        {signInTerms && legal ? (
          <p className="auth-legal">
            <Interpolate
              text={auth('login.agree')}
              values={{
                terms: <Link to={legal.terms}>{auth('legal.terms')}</Link>,
                privacy: <Link to={legal.privacy}>{auth('legal.privacy')}</Link>,
              }}
            />
          </p>
        ) : null}
        {home !== false ? (
          <p className="auth-back">
            <Link to={home}>{auth('auth.back')}</Link>
          </p>
        ) : null}
      </main>
    </div>
  );
}
