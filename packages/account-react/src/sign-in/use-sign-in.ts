import {
  type AccountError,
  type EmailCodeLoginPayload,
  emailCodeLogin,
  type PasswordLoginPayload,
  passwordLogin,
  type SmsLoginPayload,
  smsLogin,
} from '@portico/account-sdk';
import type { UseMutationResult } from '@tanstack/react-query';
import type { AccountInfo } from '../account-info';
import { useSignInMutation } from '../session/signed-in';

/** Signs in (or up) with a mobile number and SMS code (`smsLogin`); the answer becomes the session. */
export function useSmsLogin(): UseMutationResult<AccountInfo, AccountError, SmsLoginPayload> {
  return useSignInMutation(smsLogin<AccountInfo>);
}

/** Signs in with an e-mail address and code (`emailCodeLogin`); the answer becomes the session. */
export function useEmailCodeLogin(): UseMutationResult<AccountInfo, AccountError, EmailCodeLoginPayload> {
  return useSignInMutation(emailCodeLogin<AccountInfo>);
}

/** Signs in with a password and one of email, username, mobile or account; the answer becomes the session. */
export function usePasswordLogin(): UseMutationResult<AccountInfo, AccountError, PasswordLoginPayload> {
  return useSignInMutation(passwordLogin<AccountInfo>);
}
