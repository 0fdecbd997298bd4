import {
  CodeInput,
  EmailInput,
  ErrorMessage,
  MobileInput,
  PasswordInput,
  SubmitButton,
  useEmailCodeLogin,
  usePasswordLogin,
  useSendCode,
  useSmsLogin,
} from '@portico/account-react';
import { CodeType } from '@portico/account-sdk/protocol';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Tabs } from '../components/tabs';
import { type AuthT as T, useAuthT } from '../i18n/auth-messages';
import { afterSignIn } from '../lib/after-sign-in';
import { isCode, isEmail, isMobile } from '../lib/validate';

type Method = 'sms' | 'email' | 'password';

/** Sends the browser on once a sign-in resolved (the session is already in the cache by then). */
function useGoOn() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return () => navigate(afterSignIn(params.get('next')), { replace: true });
}

function SmsLogin({ t }: { t: T }) {
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<{ mobile?: string; code?: string }>({});
  const sender = useSendCode({ channel: 'mobile', type: CodeType.mobileLogin });
  const login = useSmsLogin();
  const goOn = useGoOn();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(isMobile(mobile) ? {} : { mobile: t('login.needMobile') }),
      ...(isCode(code) ? {} : { code: t('login.needCode') }),
    };
    setProblem(found);
    if (found.mobile || found.code) return;
    login.mutate({ mobile, code, type: CodeType.mobileLogin }, { onSuccess: goOn });
  }

  return (
    <form noValidate onSubmit={submit} className="form">
      <MobileInput
        value={mobile}
        onChange={setMobile}
        error={problem.mobile ?? sender.error}
        hint={t('login.smsHint')}
        required
      />
      <CodeInput
        value={code}
        onChange={setCode}
        error={problem.code}
        onSend={() => {
          if (!isMobile(mobile)) return setProblem({ mobile: t('login.needMobile') });
          setProblem({});
          return sender.send(mobile);
        }}
        sending={sender.isPending}
        cooldown={sender.cooldown}
        required
      />
      <ErrorMessage error={login.error} />
      <SubmitButton pending={login.isPending}>{t('login.submit')}</SubmitButton>
    </form>
  );
}

function EmailLogin({ t }: { t: T }) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<{ email?: string; code?: string }>({});
  const sender = useSendCode({ channel: 'email', type: CodeType.emailLogin });
  const login = useEmailCodeLogin();
  const goOn = useGoOn();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(isEmail(email) ? {} : { email: t('login.needEmail') }),
      ...(isCode(code) ? {} : { code: t('login.needCode') }),
    };
    setProblem(found);
    if (found.email || found.code) return;
    login.mutate({ email, code, type: CodeType.emailLogin }, { onSuccess: goOn });
  }

  return (
    <form noValidate onSubmit={submit} className="form">
      <EmailInput value={email} onChange={setEmail} error={problem.email ?? sender.error} required />
      <CodeInput
        value={code}
        onChange={setCode}
        error={problem.code}
        onSend={() => {
          if (!isEmail(email)) return setProblem({ email: t('login.needEmail') });
          setProblem({});
          return sender.send(email);
        }}
        sending={sender.isPending}
        cooldown={sender.cooldown}
        required
      />
      <ErrorMessage error={login.error} />
      <SubmitButton pending={login.isPending}>{t('login.submit')}</SubmitButton>
    </form>
  );
}

function PasswordLogin({ t }: { t: T }) {
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<{ account?: string; password?: string }>({});
  const login = usePasswordLogin();
  const goOn = useGoOn();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(account.trim() ? {} : { account: t('login.needAccount') }),
      ...(password ? {} : { password: t('login.needPassword') }),
    };
    setProblem(found);
    if (found.account || found.password) return;
    // `account` is read by the passport as an e-mail, a mobile number or a username.
    login.mutate({ account: account.trim(), password }, { onSuccess: goOn });
  }

  return (
    <form noValidate onSubmit={submit} className="form">
      <div className="portico-field">
        <label htmlFor="login-account">{t('login.account')}</label>
        <input
          id="login-account"
          name="username"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={account}
          onChange={(event) => setAccount(event.target.value)}
          aria-invalid={problem.account ? true : undefined}
          aria-describedby={problem.account ? 'login-account-error' : undefined}
          required
        />
        {problem.account ? (
          <p id="login-account-error" role="alert" className="portico-field-error">
            {problem.account}
          </p>
        ) : null}
      </div>
      <PasswordInput
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        error={problem.password}
        required
      />
      <ErrorMessage error={login.error} />
      <SubmitButton pending={login.isPending}>{t('login.submit')}</SubmitButton>
    </form>
  );
}

/** The login index: SMS code, e-mail code and password as tabs. */
export function Component() {
  const t = useAuthT();
  const [method, setMethod] = useState<Method>('sms');
  return (
    <Tabs<Method>
      label={t('login.methods')}
      selected={method}
      onSelect={setMethod}
      items={[
        { key: 'sms', label: t('login.tab.sms'), panel: <SmsLogin t={t} /> },
        { key: 'email', label: t('login.tab.email'), panel: <EmailLogin t={t} /> },
        { key: 'password', label: t('login.tab.password'), panel: <PasswordLogin t={t} /> },
      ]}
    />
  );
}
