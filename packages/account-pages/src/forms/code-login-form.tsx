import {
  type AccountInfo,
  CodeInput,
  EmailInput,
  ErrorMessage,
  MobileInput,
  SubmitButton,
  useEmailCodeLogin,
  useSendCode,
  useSmsLogin,
} from '@portico/account-react';
import type { CodeChannel } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { reportFunnel } from '../app/monitoring';
import { useAuthT } from '../i18n/auth-messages';
import { LongWait, type OtherMethods, sendProblem } from './long-wait';
import { isCode, isEmail, isMobile } from './validate';

/** The passport's error code of a failed call, when it has one. */
export function errorCodeOf(error: unknown): { error_code?: number } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && Number.isInteger(code) ? { error_code: code } : {};
}

/** Per channel: the code's purpose, how a target is checked, and the text when it is missing. */
const CHANNELS = {
  mobile: { type: CodeType.mobileLogin, valid: isMobile, need: 'login.needMobile' },
  email: { type: CodeType.emailLogin, valid: isEmail, need: 'login.needEmail' },
} as const;

/**
 * Sign-in by a one-time code, by SMS or by e-mail: the target, the code (with its send button and
 * cooldown) and submit. A mobile number without an account gets one (the passport's SMS rule). When a
 * send is refused with a long wait (`longWaitOf`), the form says how long and offers `others`' password
 * and other code channel instead.
 */
export function CodeLoginForm({
  channel,
  onSignedIn,
  others,
}: {
  channel: CodeChannel;
  /** Called with the account once the sign-in resolved (the session is in the cache by then). */
  onSignedIn: (account: AccountInfo) => void;
  /** The page's sign-in methods and how to switch to one, offered when a code is long in coming. */
  others?: OtherMethods;
}) {
  const t = useAuthT();
  const { type, valid, need } = CHANNELS[channel];
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<{ target?: string; code?: string }>({});
  const sender = useSendCode({ channel, type });
  const sms = useSmsLogin();
  const email = useEmailCodeLogin();
  const login = channel === 'mobile' ? sms : email;
  const method = channel === 'mobile' ? 'mobile_code' : 'email_code';
  // The funnel: the method shown, a code sent (the cooldown starts without a failure: after
  // CODE_COOLDOWN it is a wait, no code), a failed sign-in (its code).
  useEffect(() => reportFunnel('method_shown', { method }), [method]);
  const cooling = sender.cooldown > 0 && !sender.error;
  const wasCooling = useRef(false);
  useEffect(() => {
    if (cooling && !wasCooling.current) reportFunnel('code_sent', { method });
    wasCooling.current = cooling;
  }, [cooling, method]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(valid(target) ? {} : { target: t(need) }),
      ...(isCode(code) ? {} : { code: t('login.needCode') }),
    };
    setProblem(found);
    if (found.target || found.code) return;
    const done = {
      onSuccess: (account: AccountInfo) => {
        reportFunnel('signed_in', { method });
        onSignedIn(account);
      },
      onError: (error: unknown) => reportFunnel('failed', { method, ...errorCodeOf(error) }),
    };
    if (channel === 'mobile') sms.mutate({ mobile: target, code, type }, done);
    else email.mutate({ email: target, code, type }, done);
  }

  const targetError = problem.target ?? sendProblem(sender);
  return (
    <form noValidate onSubmit={submit} className="form">
      {channel === 'mobile' ? (
        <MobileInput
          value={target}
          onChange={setTarget}
          error={targetError}
          hint={t('login.smsHint')}
          required
        />
      ) : (
        <EmailInput
          value={target}
          onChange={setTarget}
          error={targetError}
          // The browser's passkeys join the field's autofill when the page offers passkeys.
          autoComplete="email webauthn"
          required
        />
      )}
      <CodeInput
        value={code}
        onChange={setCode}
        error={problem.code}
        onSend={() => {
          if (!valid(target)) return setProblem({ target: t(need) });
          setProblem({});
          return sender.send(target);
        }}
        sending={sender.isPending}
        cooldown={sender.cooldown}
        sendError={sender.error}
        required
      />
      <LongWait sender={sender} channel={channel} others={others} />
      <ErrorMessage error={login.error} />
      <SubmitButton pending={login.isPending}>{t('login.submit')}</SubmitButton>
    </form>
  );
}
