import { useId } from 'react';
import { useLanguageOrDefault } from '../context';
import { CodeInput } from '../forms/code-input';
import { describedBy, FieldNotes, useFieldError } from '../forms/field';
import { CODE_LENGTH } from './dialog-frame';

/**
 * The factor picker of the second-verification and step-up dialogs: a radio group of the ways the
 * server named (`methods`), and the code field of an authenticator app or a recovery code. A passkey
 * brings its own ceremony (loaded only when chosen); a way this package does not know is left out.
 */

const TEXTS = {
  zh: {
    'secondVerify.introChoose': '你正在新设备上登录。请选择一种方式验证身份。',
    'secondVerify.way': '验证方式',
    'factor.sms': '短信验证码 {mobile}',
    'factor.email': '邮箱验证码 {email}',
    'factor.passkey': '通行密钥',
    'factor.passkeyHint': '点击“验证并登录”后，按浏览器提示使用此账号的通行密钥。',
    'factor.totp': '身份验证器应用',
    'factor.recovery_code': '恢复码',
    'factor.totpLabel': '身份验证器中的 6 位验证码',
    'factor.recoveryLabel': '输入恢复码',
    'factor.recoveryHint': '输入保存的任一恢复码，如 abcde-fghjk；每个只能用一次',
    'factor.recoveryIncomplete': '请输入恢复码',
  },
  en: {
    'secondVerify.introChoose': 'You are signing in on a new device. Choose how to prove it’s you.',
    'secondVerify.way': 'Verify with',
    'factor.sms': 'Text message to {mobile}',
    'factor.email': 'Code by e-mail to {email}',
    'factor.passkey': 'Passkey',
    'factor.passkeyHint':
      'Select Verify and sign in, then use this account’s passkey when your browser asks.',
    'factor.totp': 'Authenticator app',
    'factor.recovery_code': 'Recovery code',
    'factor.totpLabel': '6-digit code from your authenticator app',
    'factor.recoveryLabel': 'Your recovery code',
    'factor.recoveryHint': 'Enter one of your saved recovery codes, like abcde-fghjk; each works once',
    'factor.recoveryIncomplete': 'Enter a recovery code',
  },
} as const;

type FactorTextKey = keyof (typeof TEXTS)['en'];

/** The factor texts in the provider's language (kept here, out of the sign-in page's first load). */
export function useFactorText() {
  const texts = TEXTS[useLanguageOrDefault()];
  return (key: FactorTextKey, values: Record<string, string> = {}) =>
    texts[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Factors whose proof is a code typed here (beside the SMS and e-mail codes, which are sent first). */
export const CODE_FACTORS = ['totp', 'recovery_code'] as const;
export type CodeFactor = (typeof CODE_FACTORS)[number];
export const isCodeFactor = (method: string): method is CodeFactor =>
  (CODE_FACTORS as readonly string[]).includes(method);

/** A radio group of ways; `label(way)` is its visible name. */
export function WayPicker<W extends string>({
  legend,
  ways,
  value,
  onChange,
}: {
  legend: string;
  ways: readonly (readonly [W, string])[];
  value: W | undefined;
  onChange(way: W): void;
}) {
  const name = useId();
  return (
    <fieldset className="portico-dialog-ways">
      <legend>{legend}</legend>
      {ways.map(([way, label]) => (
        <label key={way}>
          <input
            type="radio"
            name={name}
            value={way}
            checked={value === way}
            onChange={() => onChange(way)}
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** The code field of an authenticator app (6 digits) or of a recovery code (letters and digits). */
export function FactorCodeField({
  method,
  value,
  onChange,
  error,
}: {
  method: CodeFactor;
  value: string;
  onChange(value: string): void;
  error?: unknown;
}) {
  const t = useFactorText();
  const id = useId();
  const errorMessage = useFieldError(error);
  if (method === 'totp')
    return (
      <CodeInput
        label={t('factor.totpLabel')}
        value={value}
        onChange={onChange}
        length={CODE_LENGTH}
        error={error}
        required
      />
    );
  const hint = t('factor.recoveryHint');
  return (
    <div className="portico-field">
      <label htmlFor={id}>{t('factor.recoveryLabel')}</label>
      <input
        id={id}
        type="text"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={16}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        required
        aria-invalid={errorMessage ? true : undefined}
        aria-describedby={describedBy(id, hint, errorMessage)}
      />
      <FieldNotes id={id} hint={hint} errorMessage={errorMessage} />
    </div>
  );
}

/** Whether a typed code is complete enough to send for `method`. */
export const factorCodeComplete = (method: CodeFactor, code: string): boolean =>
  method === 'totp' ? /^[0-9]{6}$/.test(code) : code.replace(/[\s-]/g, '').length >= 10;
