import { useAccountClient, useRegisterByEmail, useRegisterByMobile } from '@portico/account-react';
import { checkMobileCode, verifyEmailRegisterCode } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, type LoaderFunctionArgs, redirect, useNavigate, useSearchParams } from 'react-router';
import { AuthShell } from '../components/auth-shell';
import { CodePasswordForm, type CodePasswordValues } from '../components/code-password-form';
import { Interpolate } from '../components/interpolate';
import { Tabs } from '../components/tabs';
import { useAuthT } from '../i18n/auth-messages';
import { useT } from '../i18n/messages';
import { afterSignIn } from '../lib/after-sign-in';
import { loadSession } from '../lib/session';
import { type SignUpT as T, useSignUpT } from './sign-up.messages';

type Channel = 'mobile' | 'email';

/** Signed in already: nothing to register; go where a sign-in would. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (await loadSession()) throw redirect(afterSignIn(new URL(request.url).searchParams.get('next')));
  return null;
}

function Terms({
  t,
  checked,
  onChange,
  problem,
}: {
  t: T;
  checked: boolean;
  onChange: (value: boolean) => void;
  problem: string | undefined;
}) {
  const core = useT();
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
              <Link to="/terms-of-service" target="_blank">
                {core('footer.terms')}
              </Link>
            ),
            privacy: (
              <Link to="/privacy-policy" target="_blank">
                {core('footer.privacy')}
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
 * Registration as the passport runs it (spec §4: send code, verify code with type 1, register): the
 * code is exchanged for a verify ticket, then the account is created with the ticket and the password,
 * which signs the browser in. The ticket is kept for the same target and code, so a refused password
 * (too common, say) can be corrected without a new code.
 */
function Register({ t, channel }: { t: T; channel: Channel }) {
  const auth = useAuthT();
  const client = useAccountClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [agreed, setAgreed] = useState(false);
  const ticket = useRef<{ key: string; value: string } | null>(null);
  const byMobile = useRegisterByMobile();
  const byEmail = useRegisterByEmail();
  const register = channel === 'mobile' ? byMobile : byEmail;
  const flow = useMutation({
    mutationFn: async ({ target, code, password }: CodePasswordValues) => {
      const key = `${target}\n${code}`;
      if (ticket.current?.key !== key) {
        const answer =
          channel === 'mobile'
            ? await checkMobileCode<{ verify_ticket: string }>(client, {
                mobile: target,
                code,
                type: CodeType.register,
              })
            : await verifyEmailRegisterCode<{ verify_ticket: string }>(client, { email: target, code });
        ticket.current = { key, value: answer.verify_ticket };
      }
      const verify_ticket = ticket.current.value;
      if (channel === 'mobile') await byMobile.mutateAsync({ mobile: target, verify_ticket, password });
      else await byEmail.mutateAsync({ email: target, verify_ticket, password });
    },
    onSuccess: () => navigate(afterSignIn(params.get('next')), { replace: true }),
  });
  return (
    <CodePasswordForm
      channel={channel}
      codeType={CodeType.register}
      passwordLabel={t('signUp.password')}
      passwordHint={auth('password.hint')}
      submitLabel={t('signUp.submit')}
      extra={(problem) => <Terms t={t} checked={agreed} onChange={setAgreed} problem={problem} />}
      checkExtra={() => (agreed ? undefined : t('signUp.needAgree'))}
      onSubmit={(values) => flow.mutate(values)}
      pending={flow.isPending || register.isPending}
      error={flow.error}
    />
  );
}

export function Component() {
  const t = useSignUpT();
  const auth = useAuthT();
  const [params] = useSearchParams();
  const next = params.get('next');
  const [channel, setChannel] = useState<Channel>('mobile');
  return (
    <AuthShell
      title={t('signUp.title')}
      subtitle={t('signUp.subtitle')}
      footer={
        <span>
          {t('signUp.haveAccount')}{' '}
          <Link to={next ? `/login?next=${encodeURIComponent(next)}` : '/login'}>{auth('auth.signIn')}</Link>
        </span>
      }
    >
      <Tabs<Channel>
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
