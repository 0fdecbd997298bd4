import type { SecondFactorRequest } from '@portico/affiliate-sdk';
import { type FormEvent, useId, useState } from 'react';
import { useLanguageOrDefault } from '../context';
import { ErrorMessage } from '../error-message';
import { useTotpConfirm, useTotpStart } from '../factors/factors';
import { CodeInput } from '../forms/code-input';
import { SubmitButton } from '../forms/submit-button';
import { useRegisterPasskey } from '../passkeys/use-passkeys';
import { CODE_LENGTH } from './dialog-frame';
import { DialogActions, DialogShell } from './dialog-shell';
import type { SecondVerifyController } from './second-verify-controller';

/**
 * The organisation requires a second factor and the account has none (SECOND_FACTOR_REQUIRED, 1621):
 * set up a passkey or an authenticator app here, then the refused calls are sent again (the account's
 * first factor proves it in this session). Setting one up asks for a step-up first, which the same
 * overlay opens above this panel. A module of its own, with its texts, loaded when first needed.
 */

const TEXTS = {
  zh: {
    title: '设置第二验证因素',
    intro: '这个组织要求成员使用通行密钥或身份验证器应用。设置好后即可继续刚才的操作。',
    passkey: '创建通行密钥',
    passkeyHint: '按浏览器提示，用这台设备的指纹、面容或锁屏密码创建。',
    totp: '使用身份验证器应用',
    totpKey: '在身份验证器应用中添加账号，输入这个密钥（只显示这一次）：',
    totpOpen: '在本设备的身份验证器应用中打开',
    totpCode: '身份验证器中的 6 位验证码',
    totpConfirm: '确认并继续',
    needCode: '请输入 6 位验证码',
  },
  en: {
    title: 'Set up a second factor',
    intro:
      'This organisation requires its members to use a passkey or an authenticator app. Set one up to carry on where you were.',
    passkey: 'Create a passkey',
    passkeyHint: 'Your browser asks for this device’s fingerprint, face or screen lock.',
    totp: 'Use an authenticator app',
    totpKey: 'Add an account in your authenticator app with this key (shown only this once):',
    totpOpen: 'Open in an authenticator app on this device',
    totpCode: '6-digit code from your authenticator app',
    totpConfirm: 'Confirm and continue',
    needCode: 'Enter the 6-digit code',
  },
} as const;

export function EnrolPanel({
  request,
  controller,
  covered,
}: {
  request: SecondFactorRequest;
  controller: SecondVerifyController;
  covered: boolean;
}) {
  const t = TEXTS[useLanguageOrDefault()];
  const passkeyHint = useId();
  const register = useRegisterPasskey();
  const start = useTotpStart();
  const confirm = useTotpConfirm();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string>();
  const done = () => controller.enrolled(true);
  const close = () => controller.enrolled(false);
  const started = start.data;

  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) return setProblem(t.needCode);
    setProblem(undefined);
    confirm.mutate({ code }, { onSuccess: done });
  };

  return (
    <DialogShell title={t.title} intro={t.intro} onClose={close} covered={covered}>
      {started ? (
        <form onSubmit={onConfirm} noValidate>
          <p>
            {t.totpKey} <code data-testid="totp-secret">{started.secret}</code>
          </p>
          <p>
            <a href={started.uri}>{t.totpOpen}</a>
          </p>
          <CodeInput
            label={t.totpCode}
            value={code}
            onChange={(next) => {
              setCode(next);
              setProblem(undefined);
            }}
            length={CODE_LENGTH}
            error={problem ?? confirm.error}
            required
          />
          <DialogActions onClose={close}>
            <SubmitButton pending={confirm.isPending}>{t.totpConfirm}</SubmitButton>
          </DialogActions>
        </form>
      ) : (
        <>
          {request.enrol.includes('passkey') ? (
            <p>
              <SubmitButton
                type="button"
                pending={register.isPending}
                aria-describedby={passkeyHint}
                onClick={() => register.mutate({}, { onSuccess: done })}
              >
                {t.passkey}
              </SubmitButton>
              <br />
              <span id={passkeyHint} className="portico-dialog-hint">
                {t.passkeyHint}
              </span>
            </p>
          ) : null}
          <ErrorMessage error={register.error} />
          {request.enrol.includes('totp') ? (
            <p>
              <SubmitButton type="button" pending={start.isPending} onClick={() => start.mutate()}>
                {t.totp}
              </SubmitButton>
            </p>
          ) : null}
          <ErrorMessage error={start.error} />
          <DialogActions onClose={close} />
        </>
      )}
    </DialogShell>
  );
}
