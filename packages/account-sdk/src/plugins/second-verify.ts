import { smsLoginContinue } from '../calls/login';
import type { AccountClient, RequestConfig } from '../client/types';
import { type AccountError, isAccountError } from '../errors/account-error';
import type { AccountPlugin, AfterResponseHook } from '../hooks/types';
import { CodeType } from '../protocol/code-types';
import {
  type FailureData,
  failureEnvelope,
  failureOf,
  isSuccess,
  successEnvelope,
} from '../protocol/envelopes';
import { SECOND_VALID, SECOND_VERIFY_CODE } from '../protocol/error-codes';
import type { AccountInfo, SecondFactorMethod } from '../protocol/types';
import { accountCall } from '../transport/send';

/** The continuation's path: its own 2046 is a failure, not a new dialog. */
const CONTINUE_PATH = '/passport/web/sms_login_continue/';

/** What the second-verification dialog is opened with. */
export interface SecondVerifyRequest {
  /** The key from the 2046 failure; the continuation sends it back with the code. */
  sms_code_key: string;
  /** The account's mobile as the server masked it (the failure's `mobile`), when it sent one. */
  mobileMasked?: string;
  /** The account's e-mail as the server masked it (the failure's `email`), when it offers 'email'. */
  emailMasked?: string;
  /**
   * The ways the account can answer, in the server's order: 'sms' (a code to `mobileMasked`), 'email'
   * (a code to `emailMasked`), 'totp' (its authenticator app), 'recovery_code', 'passkey'… `['sms']`
   * when the server named none (an account whose one second factor is its mobile).
   */
  methods: SecondFactorMethod[];
  /** The client's language. */
  language: string;
  /**
   * Sends a code to the account's mobile, or with 'email' to its e-mail; the dialog's "send code"
   * button calls it.
   */
  sendCode(method?: 'sms' | 'email'): Promise<unknown>;
  /** Why the previous code did not sign in (a wrong or expired code), when the dialog opens again. */
  error?: AccountError;
}

/**
 * The second-verification dialog (account-react renders one). `open` resolves with the code the person
 * entered, or null when they closed the dialog.
 */
export interface SecondVerifyDialog {
  open(request: SecondVerifyRequest): Promise<SecondVerifyAnswer | null>;
}

/**
 * What the person answered: a code, and the method it is of ('sms' when left out); for 'passkey' the
 * browser's answer as `credential` (`passkeyFactorCredential` of `@portico/account-sdk/passkeys`).
 */
export interface SecondVerifyAnswer {
  code?: string;
  method?: SecondFactorMethod;
  credential?: string;
}

/** What the app's `onSecondVerify` callback gets; the call itself rejects with description SECOND_VALID. */
export interface SecondVerifyContext {
  sms_code_key: string;
  mobileMasked?: string;
  /** The ways the account can answer (see `SecondVerifyRequest.methods`). */
  methods: SecondFactorMethod[];
  /** The 2046 failure data as the server sent it. */
  failure: FailureData;
  /** The request that was answered with 2046. */
  config: RequestConfig;
  /** Sends a code to the account's mobile, or with 'email' to its e-mail. */
  sendCode(method?: 'sms' | 'email'): Promise<unknown>;
  /**
   * Completes the sign-in with the code the person entered (`smsLoginContinue` with the key), of
   * `method` (default 'sms'); for 'passkey', `code` is the browser's answer (`credential`).
   */
  continueSignIn<T = AccountInfo>(code: string, method?: SecondFactorMethod): Promise<T>;
}

export interface SecondVerifyOptions {
  /**
   * The app handles second verification itself: called with the context, and the call rejects with
   * description SECOND_VALID (error_code 2046). Takes precedence over `dialog`. Default: none.
   */
  onSecondVerify?: (context: SecondVerifyContext) => void;
  /** Asks the person for the SMS code when there is no `onSecondVerify`. Default: none. */
  dialog?: SecondVerifyDialog;
  /**
   * Sends the code. Default: `send_code` with `sms_code_key` and `type` 24 (`CodeType.mobileLogin`),
   * and `method: 'email'` for the e-mail's; the server finds the mobile or e-mail from the key.
   */
  sendCode?: (client: AccountClient, sms_code_key: string, method?: 'sms' | 'email') => Promise<unknown>;
  /** Codes the dialog may submit before the call rejects with the continuation's failure. Default 3. */
  maxAttempts?: number;
}

const defaultSendCode = (client: AccountClient, sms_code_key: string, method?: 'sms' | 'email') =>
  client.request({
    path: '/passport/web/send_code/',
    data: { sms_code_key, type: CodeType.mobileLogin, ...(method === 'email' && { method }) },
  });

/** The continuation's fields for an answer: an SMS-only account's are sent as they always were. */
const proofOf = (answer: SecondVerifyAnswer) =>
  answer.method === 'passkey'
    ? { method: 'passkey', credential: answer.credential ?? answer.code ?? '' }
    : {
        code: answer.code ?? '',
        ...(answer.method && answer.method !== 'sms' && { method: answer.method }),
      };

/** The 2046 data's `methods`, or `['sms']` when the server named none. */
function methodsOf(value: unknown): SecondFactorMethod[] {
  const methods = Array.isArray(value) ? value.filter((m): m is string => typeof m === 'string') : [];
  return methods.length ? methods : ['sms'];
}

/** A response carrying `envelope` instead of what the server said (ky's afterResponse contract). */
const answerWith = (response: Response, envelope: unknown) =>
  new Response(JSON.stringify(envelope), { status: 200, headers: response.headers });

/**
 * Answers error 2046 (second verification, with `sms_code_key`) for every call of a client:
 * `client.use(secondVerifyPlugin({ dialog }))`. With `onSecondVerify`, the app is told and the call
 * rejects with description SECOND_VALID. Otherwise `dialog.open` asks for the SMS code, the sign-in is
 * completed through `smsLoginContinue` (`sms_code_key` + `code`), and the original call resolves with
 * its data; closing the dialog rejects the call with description SECOND_VALID. A 2046 without
 * `sms_code_key` stays a plain failure.
 */
export function secondVerifyPlugin(options: SecondVerifyOptions): AccountPlugin {
  const { onSecondVerify, dialog, sendCode = defaultSendCode, maxAttempts = 3 } = options ?? {};
  if (typeof onSecondVerify !== 'function' && typeof dialog?.open !== 'function')
    throw new TypeError(
      'secondVerifyPlugin: pass options.onSecondVerify (the app handles it) or options.dialog with open(request)',
    );
  return {
    name: 'second-verify',
    setup(client) {
      const answer: AfterResponseHook = async (state) => {
        const { response } = state;
        const call = accountCall(state);
        const { config } = call;
        const body = await call.body(response);
        // The continuation answering 2046 again is a failure of its own, not a new dialog.
        if (isSuccess(config.envelope, body) || config.path === CONTINUE_PATH) return;
        const failure = failureOf(body);
        const key = failure.sms_code_key;
        if (failure.error_code !== SECOND_VERIFY_CODE || typeof key !== 'string' || key === '') return;
        const mobile =
          typeof failure.mobile === 'string' && failure.mobile !== '' ? { mobileMasked: failure.mobile } : {};
        const email =
          typeof failure.email === 'string' && failure.email !== '' ? { emailMasked: failure.email } : {};
        const methods = methodsOf(failure.methods);
        const send = (method?: 'sms' | 'email') =>
          method === 'email' ? sendCode(client, key, method) : sendCode(client, key);
        const rejected = answerWith(
          response,
          failureEnvelope(config.envelope, SECOND_VERIFY_CODE, SECOND_VALID, failure),
        );
        if (onSecondVerify) {
          onSecondVerify({
            sms_code_key: key,
            ...mobile,
            ...email,
            methods,
            failure,
            config,
            sendCode: send,
            continueSignIn: (code, method) =>
              smsLoginContinue(client, {
                sms_code_key: key,
                ...proofOf({ code, ...(method && { method }) }),
              }),
          });
          return rejected;
        }
        let error: AccountError | undefined;
        for (let attempt = 1; ; attempt++) {
          const entered = await dialog!.open({
            sms_code_key: key,
            ...mobile,
            ...email,
            methods,
            language: client.language,
            sendCode: send,
            ...(error && { error }),
          });
          if (!entered) return rejected;
          try {
            const data = await smsLoginContinue(
              client,
              // 'sms' is the default: an SMS-only account's continuation is sent as it always was.
              { sms_code_key: key, ...proofOf(entered) },
              config.signal ? { signal: config.signal } : undefined,
            );
            return answerWith(response, successEnvelope(config.envelope, data));
          } catch (failed) {
            // A wrong code opens the dialog again; a network failure or the last attempt ends the call.
            if (!isAccountError(failed, 'response') || attempt >= maxAttempts) throw failed;
            error = failed;
          }
        }
      };
      return { afterResponse: [answer] };
    },
  };
}
