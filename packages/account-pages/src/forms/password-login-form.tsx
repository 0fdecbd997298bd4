import {
  type AccountInfo,
  ErrorMessage,
  PasswordInput,
  SubmitButton,
  usePasswordLogin,
} from '@portico/account-react';
import { type FormEvent, useEffect, useState } from 'react';
import { reportFunnel } from '../app/monitoring';
import { useAuthT } from '../i18n/auth-messages';
import { errorCodeOf } from './code-login-form';

/** Sign-in by password, with a mobile number, an e-mail address or a username. */
export function PasswordLoginForm({ onSignedIn }: { onSignedIn: (account: AccountInfo) => void }) {
  const t = useAuthT();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<{ account?: string; password?: string }>({});
  const login = usePasswordLogin();
  useEffect(() => reportFunnel('method_shown', { method: 'password' }), []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(account.trim() ? {} : { account: t('login.needAccount') }),
      ...(password ? {} : { password: t('login.needPassword') }),
    };
    setProblem(found);
    if (found.account || found.password) return;
    // `account` is read by the passport as an e-mail, a mobile number or a username.
    login.mutate(
      { account: account.trim(), password },
      {
        onSuccess: (signedIn) => {
          reportFunnel('signed_in', { method: 'password' });
          onSignedIn(signedIn);
        },
        onError: (error) => reportFunnel('failed', { method: 'password', ...errorCodeOf(error) }),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="form">
      <div className="portico-field">
        <label htmlFor="login-account">{t('login.account')}</label>
        <input
          id="login-account"
          name="username"
          type="text"
          // `webauthn`: the browser's passkeys join the field's autofill (the passkey part of the page
          // starts the request; without it the token is ignored).
          autoComplete="username webauthn"
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
