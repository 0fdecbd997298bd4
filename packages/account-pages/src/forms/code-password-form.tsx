import {
  CodeInput,
  EmailInput,
  ErrorMessage,
  MobileInput,
  SubmitButton,
  useSendCode,
} from '@portico/account-react';
import type { CodeChannel } from '@portico/account-sdk';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useAuthT } from '../i18n/auth-messages';
import { NewPasswordFields, otherThanPasswordRefusal, useNewPassword } from './new-password-fields';
import { isCode, isEmail, isMobile } from './validate';

export interface CodePasswordValues {
  target: string;
  code: string;
  password: string;
}

interface Problems {
  target?: string;
  code?: string;
  extra?: string;
}

/**
 * A mobile number or e-mail address, a one-time code sent to it, and a new password (typed twice):
 * the shape of both sign-up and password reset. `onSubmit` does the flow's calls; its failure is shown
 * by code through the account package's texts.
 */
export function CodePasswordForm({
  channel,
  codeType,
  passwordLabel,
  submitLabel,
  extra,
  checkExtra,
  onSubmit,
  pending,
  error,
}: {
  channel: CodeChannel;
  codeType: number;
  passwordLabel: string;
  submitLabel: string;
  /** More fields (the terms checkbox), rendered above the submit button. */
  extra?: (problem: string | undefined) => ReactNode;
  /** A message when the extra fields are not filled in, else undefined. */
  checkExtra?: () => string | undefined;
  onSubmit: (values: CodePasswordValues) => void;
  pending: boolean;
  error: unknown;
}) {
  const t = useAuthT();
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const newPassword = useNewPassword();
  const [problem, setProblem] = useState<Problems>({});
  const sender = useSendCode({ channel, type: codeType });
  const validTarget = channel === 'mobile' ? isMobile : isEmail;
  const targetProblem = channel === 'mobile' ? t('login.needMobile') : t('login.needEmail');

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Problems = {};
    if (!validTarget(target)) found.target = targetProblem;
    if (!isCode(code)) found.code = t('login.needCode');
    const extraProblem = checkExtra?.();
    if (extraProblem) found.extra = extraProblem;
    setProblem(found);
    const passwordOk = newPassword.check();
    if (Object.keys(found).length || !passwordOk) return;
    onSubmit({ target, code, password: newPassword.password });
  }

  const send = () => {
    if (!validTarget(target)) return setProblem({ target: targetProblem });
    setProblem({});
    return sender.send(target);
  };

  return (
    <form noValidate onSubmit={submit} className="form">
      {channel === 'mobile' ? (
        <MobileInput value={target} onChange={setTarget} error={problem.target ?? sender.error} required />
      ) : (
        <EmailInput value={target} onChange={setTarget} error={problem.target ?? sender.error} required />
      )}
      <CodeInput
        value={code}
        onChange={setCode}
        error={problem.code}
        onSend={send}
        sending={sender.isPending}
        cooldown={sender.cooldown}
        sendError={sender.error}
        required
      />
      <NewPasswordFields state={newPassword} label={passwordLabel} refusal={error} />
      {extra?.(problem.extra)}
      <ErrorMessage error={otherThanPasswordRefusal(error)} />
      <SubmitButton pending={pending}>{submitLabel}</SubmitButton>
    </form>
  );
}
