import { PasswordInput } from '@portico/account-react';
import { useState } from 'react';
import { useAuthT } from '../i18n/auth-messages';
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
 * A new password and its repeat, with the passport's rules as a hint. The passport's other refusals
 * (too common, contains the account) come back from the call as errors.
 */
export function NewPasswordFields({ state, label }: { state: NewPassword; label: string }) {
  const t = useAuthT();
  return (
    <>
      <PasswordInput
        label={label}
        value={state.password}
        onChange={state.setPassword}
        autoComplete="new-password"
        minLength={MIN_PASSWORD}
        hint={t('password.hint')}
        error={state.problem.password}
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
