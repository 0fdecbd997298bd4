import { PasswordInput, useAccountLanguage } from '@portico/account-react';
import { useState } from 'react';
import { useAuthT } from '../i18n/auth-messages';
import { feedbackTexts, isPasswordRefusal, passwordFeedbackOf } from './password-feedback';
import { MIN_PASSWORD } from './validate';

export interface NewPassword {
  password: string;
  confirm: string;
  setPassword(value: string): void;
  setConfirm(value: string): void;
  problem: { password?: string; confirm?: string };
  /** Checks the minimum length and the repeat, shows what is wrong, and says whether all is well. */
  check(): boolean;
  /** Empties both fields (after a successful change). */
  clear(): void;
}

/** The state of a new password typed twice: for `<NewPasswordFields>` and the form's submit. */
export function useNewPassword(): NewPassword {
  const t = useAuthT();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<NewPassword['problem']>({});
  return {
    password,
    confirm,
    setPassword,
    setConfirm,
    problem,
    check() {
      const found =
        [...password].length < MIN_PASSWORD
          ? { password: t('password.tooShort') }
          : confirm !== password
            ? { confirm: t('password.mismatch') }
            : {};
      setProblem(found);
      return !found.password && !found.confirm;
    },
    clear() {
      setPassword('');
      setConfirm('');
      setProblem({});
    },
  };
}

/**
 * A new password and its repeat, with the passport's rules as a hint. `refusal` is the failure of the
 * form's call: when the passport refused the password (too short, too common, contains the account, too
 * easy to guess) its reason shows on the password field, and the estimator's feedback takes the hint's
 * place. The form shows its other failures with `otherThanPasswordRefusal(error)`.
 */
export function NewPasswordFields({
  state,
  label,
  refusal,
}: {
  state: NewPassword;
  label: string;
  refusal?: unknown;
}) {
  const t = useAuthT();
  const language = useAccountLanguage();
  const feedback = passwordFeedbackOf(refusal);
  const advice = feedback ? feedbackTexts(feedback, language) : [];
  return (
    <>
      <PasswordInput
        label={label}
        value={state.password}
        onChange={state.setPassword}
        autoComplete="new-password"
        minLength={MIN_PASSWORD}
        hint={
          advice.length
            ? advice.map((sentence) => (
                <span key={sentence} className="password-advice">
                  {sentence}{' '}
                </span>
              ))
            : t('password.hint')
        }
        error={state.problem.password ?? (isPasswordRefusal(refusal) ? refusal : undefined)}
        required
      />
      <PasswordInput
        label={t('password.confirm')}
        value={state.confirm}
        onChange={state.setConfirm}
        autoComplete="new-password"
        error={state.problem.confirm}
        required
      />
    </>
  );
}

/** A call's failure for the form's foot: nothing when it is a password refusal the fields show. */
export const otherThanPasswordRefusal = (error: unknown): unknown =>
  isPasswordRefusal(error) ? null : error;
