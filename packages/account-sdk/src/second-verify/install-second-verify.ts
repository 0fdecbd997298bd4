import type { AccountData } from '../calls/define-call';
import { smsLoginContinue } from '../calls/login';
import type { AccountClient, RequestConfig } from '../client/types';
import { type AccountError, isAccountError } from '../errors/account-error';
import type { AfterResponseHook } from '../hooks/types';
import {
  type FailureData,
  failureEnvelope,
  failureOf,
  isSuccess,
  successEnvelope,
} from '../protocol/envelopes';
import { webPaths } from '../protocol/paths';

/** What the second-verification dialog is opened with. */
export interface SecondVerifyRequest {
  /** The key from the 2046 failure; the continuation sends it back with the code. */
  sms_code_key: string;
  /** The account's mobile as the server masked it (the failure's `mobile`), when it sent one. */
  mobileMasked?: string;
  /** The client's language. */
  language: string;
  /** Sends an SMS code to the account's mobile; the dialog's "send code" button calls it. */
  sendCode(): Promise<unknown>;
  /** Why the previous code did not sign in (a wrong or expired code), when the dialog opens again. */
  error?: AccountError;
}

/**
 * The second-verification dialog (account-react renders one). `open` resolves with the code the person
 * entered, or null when they closed the dialog.
 */
export interface SecondVerifyDialog {
  open(request: SecondVerifyRequest): Promise<{ code: string } | null>;
}

/** What the app's `onSecondVerify` callback gets; the call itself rejects with description SECOND_VALID. */
export interface SecondVerifyContext {
  sms_code_key: string;
  mobileMasked?: string;
  /** The 2046 failure data as the server sent it. */
  failure: FailureData;
  /** The request that was answered with 2046. */
  config: RequestConfig;
  /** Sends an SMS code to the account's mobile. */
  sendCode(): Promise<unknown>;
  /** Completes the sign-in with the code the person entered (`smsLoginContinue` with the key). */
  continueSignIn<T = AccountData>(code: string): Promise<T>;
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
   * Sends the SMS code. Default: `send_code` with `sms_code_key` and `type` 24 (`CodeType.mobileLogin`);
   * the server finds the mobile from the key.
   */
  sendCode?: (client: AccountClient, sms_code_key: string) => Promise<unknown>;
  /** Codes the dialog may submit before the call rejects with the continuation's failure. Default 3. */
  maxAttempts?: number;
}

// SECOND_VERIFY_CODE and SECOND_VALID of the protocol, as literals: importing the error module would put the
// whole catalogue in every page that installs this, and split the protocol entry into more shared chunks
// (the tests check they match).
const SECOND_VERIFY_CODE = 2046;
const SECOND_VALID = 'SECOND_VALID';
/** `CodeType.mobileLogin`, a literal for the same reason. */
const MOBILE_LOGIN = 24;

const installed = /* @__PURE__ */ new WeakSet<AccountClient>();

const defaultSendCode = (client: AccountClient, sms_code_key: string) =>
  client.request({ path: webPaths.sendCode, data: { sms_code_key, type: MOBILE_LOGIN } });

/**
 * Answers error 2046 (second verification, with `sms_code_key`) for every call of `client`. With
 * `onSecondVerify`, the app is told and the call rejects with description SECOND_VALID. Otherwise
 * `dialog.open` asks for the SMS code, the sign-in is completed through `smsLoginContinue`
 * (`sms_code_key` + `code`), and the original call resolves with its data; closing the dialog rejects
 * the call with description SECOND_VALID. A 2046 without `sms_code_key` stays a plain failure.
 * Returns a function that uninstalls the hook.
 */
export function installSecondVerify(client: AccountClient, options: SecondVerifyOptions): () => void {
  const { onSecondVerify, dialog, sendCode = defaultSendCode, maxAttempts = 3 } = options ?? {};
  if (typeof onSecondVerify !== 'function' && typeof dialog?.open !== 'function')
    throw new TypeError(
      'installSecondVerify: pass options.onSecondVerify (the app handles it) or options.dialog with open(request)',
    );
  if (installed.has(client))
    throw new TypeError(
      'installSecondVerify: this client already answers second verification; call the uninstall function first',
    );
  installed.add(client);

  const answer: AfterResponseHook = async ({ body, config }) => {
    // The continuation answering 2046 again is a failure of its own, not a new dialog.
    if (isSuccess(config.envelope, body) || config.path === webPaths.smsLoginContinue) return;
    const failure = failureOf(body);
    const key = failure.sms_code_key;
    if (failure.error_code !== SECOND_VERIFY_CODE || typeof key !== 'string' || key === '') return;
    const mobile = typeof failure.mobile === 'string' ? { mobileMasked: failure.mobile } : {};
    const send = () => sendCode(client, key);
    const rejected = failureEnvelope(config.envelope, SECOND_VERIFY_CODE, SECOND_VALID, failure);
    if (onSecondVerify) {
      onSecondVerify({
        sms_code_key: key,
        ...mobile,
        failure,
        config,
        sendCode: send,
        continueSignIn: (code) => smsLoginContinue(client, { sms_code_key: key, code }),
      });
      return rejected;
    }
    let error: AccountError | undefined;
    for (let attempt = 1; ; attempt++) {
      const entered = await dialog!.open({
        sms_code_key: key,
        ...mobile,
        language: client.language,
        sendCode: send,
        ...(error && { error }),
      });
      if (!entered) return rejected;
      try {
        const data = await smsLoginContinue(
          client,
          { sms_code_key: key, code: entered.code },
          config.signal ? { signal: config.signal } : undefined,
        );
        return successEnvelope(config.envelope, data);
      } catch (failed) {
        // A wrong code opens the dialog again; a network failure or the last attempt ends the call.
        if (!isAccountError(failed, 'response') || attempt >= maxAttempts) throw failed;
        error = failed;
      }
    }
  };

  client.hooks.afterResponse.push(answer);
  return () => {
    const hooks = client.hooks.afterResponse;
    if (hooks.includes(answer)) hooks.splice(hooks.indexOf(answer), 1);
    installed.delete(client);
  };
}
