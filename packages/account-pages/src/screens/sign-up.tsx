import { useRegister } from '@portico/account-react';
import type { CodeChannel } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CodePasswordForm } from '../forms/code-password-form';
import { useAuthT } from '../i18n/auth-messages';
import { useAuthConfig } from '../routes/auth-config';
import type { AuthRoutesOptions } from '../routes/auth-options';
import { useAuthHref, useGoOn } from '../routes/navigation';
import { screenRoute } from '../routes/screen-route';
import { AuthShell, CopyText } from '../shell/auth-shell';
import { Interpolate } from '../ui/interpolate';
import { Tabs } from '../ui/tabs';
import { type SignUpT as T, useSignUpT } from './sign-up.messages';

/** The passport's WAITLIST_REQUIRED (2151): a number, so the page carries no error table for it. */
const WAITLIST_REQUIRED = 2151;

function Terms({
  t,
  legal,
  checked,
  onChange,
  problem,
}: {
  t: T;
  legal: { terms: string; privacy: string };
  checked: boolean;
  onChange: (value: boolean) => void;
  problem: string | undefined;
}) {
  const auth = useAuthT();
  return (
    <div className="checkbox-field">
      <input
        id="sign-up-terms"
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'sign-up-terms-error' : undefined}
        required
      />
      <label htmlFor="sign-up-terms">
        <Interpolate
          text={t('signUp.agree')}
          values={{
            terms: (
              <Link to={legal.terms} target="_blank">
                {auth('legal.terms')}
              </Link>
            ),
            privacy: (
              <Link to={legal.privacy} target="_blank">
                {auth('legal.privacy')}
              </Link>
            ),
          }}
        />
      </label>
      {problem ? (
        <p id="sign-up-terms-error" role="alert" className="portico-field-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Registration by code (the SDK's flow behind `useRegister`): the code is exchanged for a verify
 * ticket, then the account is created with it and signed in. A refused password (too common, say) is
 * corrected without a new code: the flow keeps the ticket for the same target and code.
 */
function Register({ t, channel }: { t: T; channel: CodeChannel }) {
  const { legal } = useAuthConfig();
  const goOn = useGoOn();
  const [agreed, setAgreed] = useState(false);
  const register = useRegister();
  const navigate = useNavigate();
  // WAITLIST on and not admitted: the passport names the waitlist page; go there with the reason.
  const toWaitlist = (error: unknown) => {
    const failure = error as { error_code?: number; data?: { waitlist?: unknown } } | null;
    if (failure?.error_code === WAITLIST_REQUIRED && typeof failure.data?.waitlist === 'string')
      navigate(`${failure.data.waitlist}?reason=required`);
  };
  return (
    <CodePasswordForm
      channel={channel}
      codeType={CodeType.register}
      passwordLabel={t('signUp.password')}
      submitLabel={t('signUp.submit')}
      extra={
        legal
          ? (problem) => <Terms t={t} legal={legal} checked={agreed} onChange={setAgreed} problem={problem} />
          : undefined
      }
      checkExtra={legal ? () => (agreed ? undefined : t('signUp.needAgree')) : undefined}
      onSubmit={(values) => register.mutate({ ...values, channel }, { onSuccess: goOn, onError: toWaitlist })}
      pending={register.isPending}
      error={register.error}
    />
  );
}

function SignUp() {
  const t = useSignUpT();
  const auth = useAuthT();
  const { copy, paths } = useAuthConfig();
  const href = useAuthHref();
  const [channel, setChannel] = useState<CodeChannel>('mobile');
  return (
    <AuthShell
      title={<CopyText copy={copy.signUp?.title} fallback={t('signUp.title')} />}
      subtitle={<CopyText copy={copy.signUp?.subtitle} fallback={t('signUp.subtitle')} />}
      footer={
        <span>
          {t('signUp.haveAccount')} <Link to={href(paths.login)}>{auth('auth.signIn')}</Link>
        </span>
      }
    >
      <Tabs<CodeChannel>
        label={t('signUp.methods')}
        selected={channel}
        onSelect={setChannel}
        items={[
          { key: 'mobile', label: t('signUp.tab.mobile'), panel: <Register t={t} channel="mobile" /> },
          { key: 'email', label: t('signUp.tab.email'), panel: <Register t={t} channel="email" /> },
        ]}
      />
    </AuthShell>
  );
}

/** Signed in already: nothing to register; go where a sign-in would. */
export const route = (options: AuthRoutesOptions) => screenRoute(options, SignUp, { signedOutOnly: true });
