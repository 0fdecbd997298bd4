import { AccountError } from '../errors/account-error';
import type { AccountPlugin, AfterResponseHook } from '../hooks/types';
import {
  CHALLENGE_PASS_FIELD,
  DECISION_CONF_FIELD,
  type DecisionConf,
  parseDecisionConf,
  WRONG_DECISION_CONFIG,
} from '../protocol/challenge';
import { type CaptchaShowMode, LOG_ID_HEADER } from '../protocol/defaults';
import { failureOf, isSuccess } from '../protocol/envelopes';
import { accountCall } from '../transport/send';

/** How a shown challenge ended: solved (with the server's one-time pass) or closed by the person. */
export type ChallengeOutcome =
  | { status: 'passed'; challengeId: string; pass?: string }
  | { status: 'closed' };

/** Per-challenge settings handed to `show`. */
export interface ChallengeShowSettings {
  fp?: string;
  showMode?: CaptchaShowMode;
  sideSlide?: boolean;
  language?: string;
}

/**
 * What shows a challenge: `createCaptchaLoader(…)` from `@portico/captcha-loader` fits, or any object
 * with this `show`. It rejects only when the challenge cannot run (the script failed to load).
 */
export interface ChallengeCaptcha {
  show(decision: DecisionConf, settings: ChallengeShowSettings): Promise<ChallengeOutcome>;
}

export interface ChallengeOptions {
  /** Shows the challenge. Required. */
  captcha: ChallengeCaptcha;
  /**
   * The app shows its own captcha: failures with a decision pass through untouched. A function decides
   * per failure. Default false.
   */
  showOwnCaptcha?: boolean | ((error: AccountError) => boolean);
  /**
   * The fingerprint the pass is bound to, sent as `fp` on the resend. Default: the `verifyFp` the failed
   * request carried (the client's `fingerprint`).
   */
  fp?: string | (() => string | Promise<string>);
  /** How the overlay is shown. Default: the captcha's own default ('mask'). */
  showMode?: CaptchaShowMode;
  /** Whether the slide puzzle slides in from the side. Default: the captcha's own default (false). */
  sideSlide?: boolean;
  /** UI language of the challenge. Default: the client's language. */
  language?: string;
  /** Where "wrong desision config!" goes. Default: `console`. */
  logger?: { error(message: string, ...details: unknown[]): void };
  /**
   * Challenges one call may show: when the resent request is answered by yet another decision, the
   * challenge is shown again until this many were shown, then the call rejects with the server's
   * failure. Default 3.
   */
  maxChallenges?: number;
}

/** How many challenges a call has shown; a symbol key rides along in `config.data` but is never sent. */
const SHOWN: unique symbol = /* @__PURE__ */ Symbol('portico.challenges');

/**
 * Answers challenges for every call of a client: `client.use(challengePlugin({ captcha }))`. When a
 * failure carries `verify_center_decision_conf` and the app shows no captcha of its own, the challenge
 * is shown through `options.captcha`; once solved, the original request is resent with `fp`,
 * `isResend: 1` and `challenge_pass` (ky's forced retry), and the call settles as the resend does.
 * Closing the challenge rejects the call with an empty description; an invalid decision logs "wrong
 * desision config!" and the call rejects with the server's failure. One overlay at a time: concurrent
 * failures wait their turn, and closing it also rejects the calls waiting behind it.
 */
export function challengePlugin(options: ChallengeOptions): AccountPlugin {
  const { captcha, showOwnCaptcha = false, logger = console, maxChallenges = 3 } = options ?? {};
  if (typeof captcha?.show !== 'function')
    throw new TypeError(
      'challengePlugin: options.captcha must have a show(decision, settings) function, e.g. createCaptchaLoader({ aid }) from @portico/captcha-loader',
    );
  return {
    name: 'challenge',
    setup(client) {
      // One overlay at a time; `closes` lets a close reject the calls queued behind it.
      let turn: Promise<unknown> = Promise.resolve();
      let closes = 0;
      const inTurn = (show: () => Promise<ChallengeOutcome>): Promise<ChallengeOutcome> => {
        const ticket = closes;
        const run = turn.then(async (): Promise<ChallengeOutcome> => {
          if (closes !== ticket) return { status: 'closed' };
          const outcome = await show();
          if (outcome.status !== 'passed') closes++;
          return outcome;
        });
        turn = run.catch(() => {});
        return run;
      };

      const answer: AfterResponseHook = async (state) => {
        const { request, response } = state;
        const call = accountCall(state);
        const { config } = call;
        const body = await call.body(response);
        if (isSuccess(config.envelope, body)) return;
        const failure = failureOf(body);
        const raw = failure[DECISION_CONF_FIELD];
        if (raw == null) return;
        const init = {
          config,
          log_id: response.headers.get(LOG_ID_HEADER) ?? '',
          status: response.status,
        };
        const error = new AccountError('response', failure, init);
        if (typeof showOwnCaptcha === 'function' ? showOwnCaptcha(error) : showOwnCaptcha) return;
        const decision = parseDecisionConf(raw);
        if (!decision) {
          logger.error(WRONG_DECISION_CONFIG, raw);
          return;
        }
        const shown = (config.data[SHOWN as never] as number | undefined) ?? 0;
        if (shown >= maxChallenges) return;
        // The pass is bound to the fingerprint the failed request carried, unless the app names one.
        const { fp: given } = options;
        const fp =
          typeof given === 'function'
            ? await given()
            : (given ?? new URL(request.url).searchParams.get('verifyFp') ?? '');
        const { showMode, sideSlide, language = client.language } = options;
        const settings: ChallengeShowSettings = { fp, language };
        if (showMode !== undefined) settings.showMode = showMode;
        if (sideSlide !== undefined) settings.sideSlide = sideSlide;
        let outcome: ChallengeOutcome;
        try {
          outcome = await inTurn(() => captcha.show(decision, settings));
        } catch (cause) {
          throw new AccountError('response', failure, {
            ...init,
            cause,
            message: `${error.message}; the challenge could not be shown: ${(cause as Error)?.message ?? cause}`,
          });
        }
        if (outcome.status !== 'passed')
          throw new AccountError(
            'response',
            { ...failure, description: '' },
            { ...init, message: `${error.message}; the challenge was closed` },
          );
        return call.resend({
          data: { fp, isResend: 1, [CHALLENGE_PASS_FIELD]: outcome.pass, [SHOWN]: shown + 1 } as Record<
            string,
            unknown
          >,
        });
      };
      return { afterResponse: [answer] };
    },
  };
}
