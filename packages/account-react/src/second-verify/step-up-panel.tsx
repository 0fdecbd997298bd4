import { cooldownOf, type StepUpRequest } from '@portico/account-sdk';
import { type FormEvent, useId, useState } from 'react';
import { useAccountClient, useAccountText, useLanguageOrDefault } from '../context';
import { errorText } from '../error-text';
import { CodeInput } from '../forms/code-input';
import { EmailInput } from '../forms/email-input';
import { MobileInput } from '../forms/mobile-input';
import { PasswordInput } from '../forms/password-input';
import { SubmitButton } from '../forms/submit-button';
import { CODE_LENGTH } from './dialog-frame';
import { DialogActions, DialogShell, useCodeSend } from './dialog-shell';
import { type CodeFactor, FactorCodeField, factorCodeComplete, isCodeFactor } from './factor-fields';
import type { PanelProps } from './second-verify-controller';
import { useCooldown } from './use-cooldown';

/**
 * The step-up panel of the second-verification overlay (STEP_UP_REQUIRED, 2047): a signed-in person
 * adding or removing a way in proves it is them again by a code to the account's own mobile or e-mail
 * (typed in full: the account only shows it masked) or its password. A module of its own, loaded when
 * a step-up first opens, with its texts, so that sign-in pages carry none of it.
 */

const TEXTS = {
  zh: {
    title: '确认是你本人',
    intro: '添加或更改登录方式前，请先验证身份，以免账号被他人控制。',
    noWay: '这个账号暂时没有可用于验证的方式。请退出后重新登录，再进行此操作。',
    way: '验证方式',
    byMobile: '手机号 {value}',
    byEmail: '邮箱 {value}',
    byPassword: '密码',
    totp: '身份验证器应用',
    recovery_code: '恢复码',
    passkey: '通行密钥',
    passkeyHint: '点击“验证并继续”后，按浏览器提示使用此账号的通行密钥。',
    needFactorCode: '请输入验证码或恢复码',
    password: '当前密码',
    targetHint: '请输入完整的 {value}',
    needPassword: '请输入密码',
    submit: '验证并继续',
  },
  en: {
    title: 'Confirm it’s you',
    intro:
      'Before adding or changing a way to sign in, prove it’s you, so nobody else can take over your account.',
    noWay: 'This account has no way to verify here. Sign out, sign in again, then try again.',
    way: 'Verify with',
    byMobile: 'Mobile number {value}',
    byEmail: 'E-mail {value}',
    byPassword: 'Password',
    totp: 'Authenticator app',
    recovery_code: 'Recovery code',
    passkey: 'Passkey',
    passkeyHint: 'Select Verify and continue, then use this account’s passkey when your browser asks.',
    needFactorCode: 'Enter the code',
    password: 'Current password',
    targetHint: 'Enter {value} in full',
    needPassword: 'Enter your password',
    submit: 'Verify and continue',
  },
} as const;

type StepUpText = keyof (typeof TEXTS)['en'];

function useStepUpText() {
  const texts = TEXTS[useLanguageOrDefault()];
  return (key: StepUpText, value = '') => texts[key].replace('{value}', value);
}

type StepUpWay = 'mobile' | 'email' | 'password' | 'passkey' | CodeFactor;

/** The step-up form: a way the account has, then a code to it (or the password). */
export function StepUpPanel({ request, sendAllowedAt, controller }: PanelProps<StepUpRequest>) {
  const t = useStepUpText();
  const common = useAccountText();
  const wayName = useId();
  const ways: [StepUpWay, string][] = [];
  if (request.mobileMasked) ways.push(['mobile', t('byMobile', request.mobileMasked)]);
  if (request.emailMasked) ways.push(['email', t('byEmail', request.emailMasked)]);
  if (request.hasPassword) ways.push(['password', t('byPassword')]);
  // An account with an authenticator app or recovery codes (the server lists them in `methods`).
  for (const method of request.methods ?? []) {
    if (isCodeFactor(method)) ways.push([method, t(method)]);
    else if (method === 'passkey') ways.push(['passkey', t('passkey')]);
  }
  const client = useAccountClient();
  const language = useLanguageOrDefault();
  const [way, setWay] = useState<StepUpWay | undefined>(ways[0]?.[0]);
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const { sending, sendError, run } = useCodeSend();
  const [problem, setProblem] = useState<string>();
  const { seconds } = useCooldown(sendAllowedAt);

  const masked = way === 'mobile' ? request.mobileMasked : request.emailMasked;
  const to = () => (way === 'mobile' ? { mobile: target.trim() } : { email: target.trim() });
  const send = async () => {
    if (!target.trim()) return setProblem(t('targetHint', masked));
    setProblem(undefined);
    await run(async () => controller.markSent(cooldownOf(await request.sendCode(to()))));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (way === 'password') {
      if (!password) return setProblem(t('needPassword'));
      return controller.prove({ password });
    }
    if (way === 'passkey') {
      // The ceremony (and @simplewebauthn/browser) loads only when the person chooses a passkey.
      setProblem(undefined);
      void import('@portico/account-sdk/passkeys')
        .then(({ passkeyFactorCredential }) => passkeyFactorCredential(client))
        .then((credential) => controller.prove({ method: 'passkey', credential }))
        .catch((error: unknown) => setProblem(errorText(error, language) || undefined));
      return;
    }
    if (way && isCodeFactor(way)) {
      if (!factorCodeComplete(way, code)) return setProblem(t('needFactorCode'));
      return controller.prove({ method: way, code: code.trim() });
    }
    if (!target.trim()) return setProblem(t('targetHint', masked));
    if (code.length !== CODE_LENGTH) return setProblem(common('code.incomplete', { length: CODE_LENGTH }));
    controller.prove({ ...to(), code });
  };
  const close = () => controller.close();

  return (
    <DialogShell title={t('title')} intro={ways.length ? t('intro') : t('noWay')} onClose={close}>
      <form onSubmit={onSubmit} noValidate>
        {ways.length > 1 ? (
          <fieldset className="portico-dialog-ways">
            <legend>{t('way')}</legend>
            {ways.map(([value, label]) => (
              <label key={value}>
                <input
                  type="radio"
                  name={wayName}
                  value={value}
                  checked={way === value}
                  onChange={() => {
                    setWay(value);
                    setTarget('');
                    setCode('');
                    setProblem(undefined);
                  }}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
        ) : null}
        {way === 'passkey' ? (
          <>
            <p className="portico-dialog-hint">{t('passkeyHint')}</p>
            {problem || request.error ? (
              <p role="alert" className="portico-error">
                {problem ?? errorText(request.error, language)}
              </p>
            ) : null}
          </>
        ) : way === 'password' ? (
          <PasswordInput
            label={t('password')}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            error={problem ?? request.error}
            required
          />
        ) : way && isCodeFactor(way) ? (
          <FactorCodeField
            method={way}
            value={code}
            onChange={(next) => {
              setCode(next);
              setProblem(undefined);
            }}
            error={problem ?? request.error}
          />
        ) : way ? (
          <>
            {way === 'mobile' ? (
              <MobileInput value={target} onChange={setTarget} hint={t('targetHint', masked)} required />
            ) : (
              <EmailInput value={target} onChange={setTarget} hint={t('targetHint', masked)} required />
            )}
            <CodeInput
              value={code}
              onChange={(next) => {
                setCode(next);
                setProblem(undefined);
              }}
              length={CODE_LENGTH}
              onSend={send}
              sending={sending}
              cooldown={seconds}
              sendError={sendError}
              error={problem ?? request.error}
              required
            />
          </>
        ) : null}
        <DialogActions onClose={close}>
          {way ? <SubmitButton>{t('submit')}</SubmitButton> : null}
        </DialogActions>
      </form>
    </DialogShell>
  );
}
