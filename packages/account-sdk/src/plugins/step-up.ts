import { reverify } from '../calls/account';
import { sendEmailCode, sendMobileCode } from '../calls/codes';
import { type AccountError, isAccountError } from '../errors/account-error';
import type { AccountPlugin, AfterResponseHook } from '../hooks/types';
import { CodeType } from '../protocol/code-types';
import { failureOf, isSuccess } from '../protocol/envelopes';
import { STEP_UP_REQUIRED_CODE } from '../protocol/error-codes';
import type { SecondFactorMethod, VerifyMethod } from '../protocol/types';
import { accountCall } from '../transport/send';

/** What the step-up dialog is opened with (STEP_UP_REQUIRED, 2047). */
export interface StepUpRequest {
  /** The account's mobile and e-mail as the server masked them; '' when it has none. */
  mobileMasked: string;
  emailMasked: string;
  /** Whether the account has a password to prove it by. */
  hasPassword: boolean;
  /** Seconds a verification counts for the refused call. */
  maxAge: number;
  /**
   * Every way the account can verify, in the server's order ('sms', 'email', 'password', 'totp',
   * 'recovery_code', …), when the account has a factor beyond its mobile, e-mail and password;
   * undefined otherwise (the three fields above tell them).
   */
  methods?: VerifyMethod[];
  /** The client's language. */
  language: string;
  /**
   * Sends a code (type 22) to the account's own mobile or e-mail, as the person typed it in full (the
   * server sends only to the account's own).
   */
  sendCode(to: { mobile: string } | { email: string }): Promise<unknown>;
  /** Why the previous proof did not count (a wrong code or password), when the dialog opens again. */
  error?: AccountError;
}

/**
 * What the person proves it is them with: a code to its own mobile or e-mail, the password, or a code
 * of another factor (its authenticator app, a recovery code).
 */
export type StepUpProof =
  | { mobile: string; code: string }
  | { email: string; code: string }
  | { password: string }
  | { method: SecondFactorMethod; code: string }
  /** One of the account's passkeys: `passkeyFactorCredential(client)`'s answer. */
  | { method: 'passkey'; credential: string };

/**
 * The step-up dialog (account-react's second-verification dialog is one): `stepUp` resolves with the
 * proof the person gave, or null when they closed it.
 */
export interface StepUpDialog {
  stepUp(request: StepUpRequest): Promise<StepUpProof | null>;
}

export interface StepUpOptions {
  dialog: StepUpDialog;
  /** Proofs the dialog may submit before the call rejects with the verification's failure. Default 3. */
  maxAttempts?: number;
}

/**
 * Answers STEP_UP_REQUIRED (2047: adding or removing a way into the account needs a recent
 * verification) for every call of a client: `client.use(stepUpPlugin({ dialog }))`. The dialog asks
 * for a proof (a code to the account's own mobile or e-mail, or its password), `reverify` renews the
 * session with it, and the call is sent again, once, and settles as that resend does. Closing the
 * dialog rejects the call with the 2047 failure; a wrong proof opens it again with the error. Apart
 * from `secondVerifyPlugin` so that a sign-in page does not carry it.
 */
export function stepUpPlugin(options: StepUpOptions): AccountPlugin {
  const { dialog, maxAttempts = 3 } = options ?? {};
  if (typeof dialog?.stepUp !== 'function')
    throw new TypeError('stepUpPlugin: pass options.dialog with stepUp(request)');
  return {
    name: 'step-up',
    setup(client) {
      // Calls already sent again after a step-up: a second 2047 is a failure of its own, not a loop.
      const steppedUp = new WeakSet<object>();
      const answer: AfterResponseHook = async (state) => {
        const call = accountCall(state);
        const { config } = call;
        const body = await call.body(state.response);
        if (isSuccess(config.envelope, body)) return;
        const failure = failureOf(body);
        if (failure.error_code !== STEP_UP_REQUIRED_CODE || steppedUp.has(call)) return;
        steppedUp.add(call);
        const text = (value: unknown) => (typeof value === 'string' ? value : '');
        const signal = config.signal ? { signal: config.signal } : undefined;
        let error: AccountError | undefined;
        for (let attempt = 1; ; attempt++) {
          const proof = await dialog.stepUp({
            mobileMasked: text(failure.mobile),
            emailMasked: text(failure.email),
            hasPassword: failure.has_password === true,
            maxAge: typeof failure.max_age === 'number' ? failure.max_age : 0,
            ...(Array.isArray(failure.methods) && {
              methods: failure.methods.filter((m): m is string => typeof m === 'string'),
            }),
            language: client.language,
            sendCode: (to) =>
              'mobile' in to
                ? sendMobileCode(client, { mobile: to.mobile, type: CodeType.oldMobile }, signal)
                : sendEmailCode(client, { email: to.email, type: CodeType.oldMobile }, signal),
            ...(error && { error }),
          });
          if (!proof) return;
          try {
            await reverify(client, proof, signal);
            return call.resend();
          } catch (failed) {
            // A wrong code or password opens the dialog again; a network failure or the last attempt ends it.
            if (!isAccountError(failed, 'response') || attempt >= maxAttempts) throw failed;
            error = failed;
          }
        }
      };
      return { afterResponse: [answer] };
    },
  };
}
