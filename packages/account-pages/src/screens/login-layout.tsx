import { Link, Outlet } from 'react-router';
import { useAuthT } from '../i18n/auth-messages';
import { useAuthConfig } from '../routes/auth-config';
import type { AuthConfig } from '../routes/auth-options';
import { useAuthHref } from '../routes/navigation';
import { screenRoute } from '../routes/screen-route';
import { AuthShell, CopyText } from '../shell/auth-shell';

/** login has its own layout in the spec's table: the sign-in card; its index holds the methods. */
function LoginLayout() {
  const t = useAuthT();
  const { copy, paths } = useAuthConfig();
  const href = useAuthHref();
  return (
    <AuthShell
      title={<CopyText copy={copy.login?.title} fallback={t('login.title')} />}
      subtitle={<CopyText copy={copy.login?.subtitle} fallback={t('login.subtitle')} />}
      signInTerms
      footer={
        paths.resetPassword || paths.signUp ? (
          <>
            {paths.resetPassword ? <Link to={href(paths.resetPassword)}>{t('login.forgot')}</Link> : null}
            {paths.signUp ? (
              <span>
                {t('login.noAccount')} <Link to={href(paths.signUp)}>{t('login.signUp')}</Link>
              </span>
            ) : null}
          </>
        ) : undefined
      }
    >
      <Outlet />
    </AuthShell>
  );
}

/** The route: a signed-in visit goes straight on (the app's after-sign-in policy). */
export const route = (config: AuthConfig) => screenRoute(config, LoginLayout, { signedOutOnly: true });
