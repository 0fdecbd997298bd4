import { Link, type LoaderFunctionArgs, Outlet, redirect, useSearchParams } from 'react-router';
import { AuthShell } from '../components/auth-shell';
import { useAuthT } from '../i18n/auth-messages';
import { afterSignIn } from '../lib/after-sign-in';
import { loadSession } from '../lib/session';

/** A signed-in visit goes straight on: to a safe `next`, else the workbench. */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await loadSession();
  if (session) throw redirect(afterSignIn(new URL(request.url).searchParams.get('next')));
  return null;
}

/** login has its own layout in the spec's table: the sign-in card; its index page holds the methods. */
export function Component() {
  const t = useAuthT();
  const [params] = useSearchParams();
  const next = params.get('next');
  return (
    <AuthShell
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      signInTerms
      footer={
        <>
          <Link to={next ? `/reset-password?next=${encodeURIComponent(next)}` : '/reset-password'}>
            {t('login.forgot')}
          </Link>
          <span>
            {t('login.noAccount')}{' '}
            <Link to={next ? `/sign-up?next=${encodeURIComponent(next)}` : '/sign-up'}>
              {t('login.signUp')}
            </Link>
          </span>
        </>
      }
    >
      <Outlet />
    </AuthShell>
  );
}
