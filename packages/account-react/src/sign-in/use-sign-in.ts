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
import { useAccountMutation } from '../account-mutation';
import { signedIn } from '../session/session-cache';

/** Signs in (or up) with a mobile number and SMS code (`smsLogin`); the answer becomes the session. */
export function useSmsLogin(): UseMutationResult<AccountInfo, AccountError, SmsLoginPayload> {
  return useAccountMutation(
    (client, payload: SmsLoginPayload) => smsLogin<AccountInfo>(client, payload),
    signedIn,
  );
}

/** Signs in with an e-mail address and code (`emailCodeLogin`); the answer becomes the session. */
export function useEmailCodeLogin(): UseMutationResult<AccountInfo, AccountError, EmailCodeLoginPayload> {
  return useAccountMutation(
    (client, payload: EmailCodeLoginPayload) => emailCodeLogin<AccountInfo>(client, payload),
    signedIn,
  );
}

/** Signs in with a password and one of email, username, mobile or account; the answer becomes the session. */
export function usePasswordLogin(): UseMutationResult<AccountInfo, AccountError, PasswordLoginPayload> {
  return useAccountMutation(
    (client, payload: PasswordLoginPayload) => passwordLogin<AccountInfo>(client, payload),
    signedIn,
  );
}
