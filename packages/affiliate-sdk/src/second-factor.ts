import {
  type AccountPlugin,
  type AfterResponseHook,
  accountCall,
  type SecondFactorMethod,
} from '@portico/account-sdk';
import { failureOf, isSuccess } from '@portico/account-sdk/protocol';

/**
 * OrganisationErrorCode.secondFactorRequired, written out: the provider attaches this plugin on every
 * page, and importing the organisation range's table would put it in each page's first load
 * (test/second-factor.test.ts answers with OrganisationErrorCode's value and expects the dialog).
 */
const SECOND_FACTOR_REQUIRED_CODE = 1621;

/** What the enrolment dialog is opened with (SECOND_FACTOR_REQUIRED, 1621). */
export interface SecondFactorRequest {
  /** The factors the organisation accepts, in the server's order ('passkey', 'totp'). */
  enrol: SecondFactorMethod[];
  /** The client's language. */
  language: string;
}

/**
 * The dialog that takes a member to set up a second factor (account-react's second-verification
 * dialog is one): `enrol` resolves true once the account has one (enrolled in this session, which
 * proves it), false when the person closed it.
 */
export interface SecondFactorDialog {
  enrol(request: SecondFactorRequest): Promise<boolean>;
}

export interface SecondFactorOptions {
  dialog: SecondFactorDialog;
}

/** The 1621 data's `enrol`, or both factors an organisation accepts when the server named none. */
function enrolOf(value: unknown): SecondFactorMethod[] {
  const named = Array.isArray(value) ? value.filter((m): m is string => typeof m === 'string') : [];
  return named.length ? named : ['passkey', 'totp'];
}

/**
 * Answers SECOND_FACTOR_REQUIRED (1621: the organisation requires its members to use a second factor
 * and the account has none) for every call of a client: `client.use(secondFactorPlugin({ dialog }))`.
 * The dialog takes the person to set up a passkey or an authenticator app; once they have, the call is
 * sent again, once (the account's first factor proves it in the session that enrolled it), and settles
 * as that resend does. Closing the dialog rejects the call with the 1621 failure.
 */
export function secondFactorPlugin(options: SecondFactorOptions): AccountPlugin {
  const { dialog } = options ?? {};
  if (typeof dialog?.enrol !== 'function')
    throw new TypeError('secondFactorPlugin: pass options.dialog with enrol(request)');
  return {
    name: 'second-factor',
    setup(client) {
      // Calls already sent again after an enrolment: a second 1621 is a failure of its own, not a loop.
      const resent = new WeakSet<object>();
      const answer: AfterResponseHook = async (state) => {
        const call = accountCall(state);
        const body = await call.body(state.response);
        if (isSuccess(call.config.envelope, body)) return;
        const failure = failureOf(body);
        if (failure.error_code !== SECOND_FACTOR_REQUIRED_CODE || resent.has(call)) return;
        resent.add(call);
        const enrolled = await dialog.enrol({ enrol: enrolOf(failure.enrol), language: client.language });
        if (enrolled) return call.resend();
      };
      return { afterResponse: [answer] };
    },
  };
}
