import { useResetPassword, useResetPasswordByEmail } from '@portico/account-react';
import type { CodeChannel } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CodePasswordForm } from '../forms/code-password-form';
import { useAuthT } from '../i18n/auth-messages';
import { useAuthConfig } from '../routes/auth-config';
import type { AuthConfig } from '../routes/auth-options';
import { useAuthHref } from '../routes/navigation';
import { screenRoute } from '../routes/screen-route';
import { AuthShell, CopyText } from '../shell/auth-shell';
import { Tabs } from '../ui/tabs';
import { type ResetT as T, useResetT } from './reset-password.messages';

function Reset({ t, channel, onDone }: { t: T; channel: CodeChannel; onDone: () => void }) {
  const byMobile = useResetPassword();
  const byEmail = useResetPasswordByEmail();
  const reset = channel === 'mobile' ? byMobile : byEmail;
  return (
    <CodePasswordForm
      channel={channel}
      codeType={CodeType.resetPassword}
      passwordLabel={t('reset.password')}
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
function Done({ t, login }: { t: T; login: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="done">
      <h2 ref={heading} tabIndex={-1}>
        {t('reset.done.title')}
      </h2>
      <p>{t('reset.done.body')}</p>
      <Link className="button button-primary button-block" to={login}>
        {t('reset.done.signIn')}
      </Link>
    </div>
  );
}

function ResetPassword() {
  const t = useResetT();
  const auth = useAuthT();
  const { copy, paths } = useAuthConfig();
  const href = useAuthHref();
  const [channel, setChannel] = useState<CodeChannel>('mobile');
  const [done, setDone] = useState(false);
  return (
    <AuthShell
      title={<CopyText copy={copy.resetPassword?.title} fallback={t('reset.title')} />}
      subtitle={<CopyText copy={copy.resetPassword?.subtitle} fallback={t('reset.subtitle')} />}
      footer={
        <span>
          {t('reset.remember')} <Link to={href(paths.login)}>{auth('auth.signIn')}</Link>
        </span>
      }
    >
      {done ? (
        <Done t={t} login={href(paths.login)} />
      ) : (
        <Tabs<CodeChannel>
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

export const route = (config: AuthConfig) => screenRoute(config, ResetPassword);
