/**
 * `@portico/account-react`: the thin React layer over `@portico/account-sdk` shared by Portico's apps —
 * a provider, TanStack Query hooks for the session and every sign-in, the second-verification dialog,
 * error texts by code, and accessible form parts. No layout: apps bring their own.
 */
export type { AccountInfo, SendCodeData } from './account-info';
export { AccountProvider, type AccountProviderProps } from './account-provider';
export {
  type AccountT,
  useAccountClient,
  useAccountLanguage,
  useAccountText,
} from './context';
export { ErrorMessage, type ErrorMessageProps } from './error-message';
export { errorText } from './error-text';
export { CodeInput, type CodeInputProps } from './forms/code-input';
export { EmailInput, type EmailInputProps } from './forms/email-input';
export type { FieldProps } from './forms/field';
export {
  COUNTRY_CODES,
  type CountryCode,
  MobileInput,
  type MobileInputProps,
  splitMobile,
} from './forms/mobile-input';
export { PasswordInput, type PasswordInputProps } from './forms/password-input';
export { SubmitButton, type SubmitButtonProps } from './forms/submit-button';
export {
  type AccountLanguage,
  type AccountTextKey,
  accountMessages,
  accountText,
  toAccountLanguage,
} from './messages';
export {
  useChangePassword,
  useEmailCodeLogin,
  useForgetDevice,
  useLogout,
  usePasswordLogin,
  useRegisterByEmail,
  useRegisterByMobile,
  useResetPassword,
  useResetPasswordByEmail,
  useSetPassword,
  useSmsLogin,
} from './mutations';
export { isSignedOutError, useDevices, useHasPassword, useSession } from './queries';
export {
  ACCOUNT_QUERY_RETRIES,
  accountRetry,
  accountRetryDelay,
  createAccountQueryClient,
  isTransientError,
  refetchOnFocusThrottled,
} from './query-client';
export { accountQueryKeys, sessionQueryKey } from './query-keys';
export {
  createSecondVerifyController,
  type SecondVerifyController,
  type SecondVerifySnapshot,
} from './second-verify/second-verify-controller';
export { SecondVerifyDialog, type SecondVerifyDialogProps } from './second-verify/second-verify-dialog';
export {
  DEFAULT_CODE_COOLDOWN,
  type UseSendCodeOptions,
  type UseSendCodeResult,
  useSendCode,
} from './use-send-code';
