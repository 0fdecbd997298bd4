import { useResetPassword, useResetPasswordByEmail } from '@portico/account-react';
import { CodeType } from '@portico/account-sdk/protocol';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthShell } from '../components/auth-shell';
import { CodePasswordForm } from '../components/code-password-form';
import { Tabs } from '../components/tabs';
import { useAuthT } from '../i18n/auth-messages';
import { type ResetT as T, useResetT } from './reset-password.messages';

type Channel = 'mobile' | 'email';

function Reset({ t, channel, onDone }: { t: T; channel: Channel; onDone: () => void }) {
  const auth = useAuthT();
  const byMobile = useResetPassword();
  const byEmail = useResetPasswordByEmail();
  const reset = channel === 'mobile' ? byMobile : byEmail;
  return (
    <CodePasswordForm
      channel={channel}
      codeType={CodeType.resetPassword}
      passwordLabel={t('reset.password')}
      passwordHint={auth('password.hint')}
      submitLabel={t('reset.submit')}
      onSubmit={({ target, code, password }) =>
        channel === 'mobile'
          ? byMobile.mutate({ mobile: target, code, password }, { onSuccess: onDone })
          : byEmail.mutate({ email: target, code, password }, { onSuccess: onDone })
      }
      pending={reset.isPending}
      error={reset.error}
    />
  );
}

/** A reset ends every session of the account (the passport's rule), so the next step is a fresh sign-in. */
function Done({ t, next }: { t: T; next: string | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="done">
      <h2 ref={heading} tabIndex={-1}>
        {t('reset.done.title')}
      </h2>
      <p>{t('reset.done.body')}</p>
      <Link
        className="button button-primary button-block"
        to={next ? `/login?next=${encodeURIComponent(next)}` : '/login'}
      >
        {t('reset.done.signIn')}
      </Link>
    </div>
  );
}

export function Component() {
  const t = useResetT();
  const auth = useAuthT();
  const [params] = useSearchParams();
  const next = params.get('next');
  const [channel, setChannel] = useState<Channel>('mobile');
  const [done, setDone] = useState(false);
  return (
    <AuthShell
      title={t('reset.title')}
      subtitle={t('reset.subtitle')}
      footer={
        <span>
          {t('reset.remember')}{' '}
          <Link to={next ? `/login?next=${encodeURIComponent(next)}` : '/login'}>{auth('auth.signIn')}</Link>
        </span>
      }
    >
      {done ? (
        <Done t={t} next={next} />
      ) : (
        <Tabs<Channel>
          label={t('reset.methods')}
          selected={channel}
          onSelect={setChannel}
          items={[
            {
              key: 'mobile',
              label: t('reset.tab.mobile'),
              panel: <Reset t={t} channel="mobile" onDone={() => setDone(true)} />,
            },
            {
              key: 'email',
              label: t('reset.tab.email'),
              panel: <Reset t={t} channel="email" onDone={() => setDone(true)} />,
            },
          ]}
        />
      )}
    </AuthShell>
  );
}
