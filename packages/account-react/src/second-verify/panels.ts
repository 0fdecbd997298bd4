import type { SecondVerifyRequest, StepUpRequest } from '@portico/account-sdk';
import type { SecondFactorRequest } from '@portico/affiliate-sdk';
import { lazyPanel } from './lazy-panel';
import type { PanelProps, SecondVerifyController } from './second-verify-controller';

/**
 * The dialog's panels, each a module of its own (with the dialog frame: Radix Dialog and its focus and
 * scroll locks), so that sign-in pages never carry them in their first load. Tests swap an entry to
 * make its load fail.
 */
export const panels = {
  /** A sign-in's second verification of an SMS-only account: the most common 2046. */
  sms: lazyPanel<PanelProps<SecondVerifyRequest>>(() =>
    import('./sms-panel').then((module) => module.SmsPanel),
  ),
  /** An account with other factors (an authenticator app, recovery codes). */
  factor: lazyPanel<PanelProps<SecondVerifyRequest>>(() =>
    import('./factor-panel').then((module) => module.FactorPanel),
  ),
  /** A step-up: a signed-in person proving it is them again. */
  stepUp: lazyPanel<PanelProps<StepUpRequest>>(() =>
    import('./step-up-panel').then((module) => module.StepUpPanel),
  ),
  /** An organisation asking this account to set up a second factor. */
  enrol: lazyPanel<{ request: SecondFactorRequest; controller: SecondVerifyController; covered: boolean }>(
    () => import('./enrol-panel').then((module) => module.EnrolPanel),
  ),
};

/**
 * Starts loading the SMS panel while a sign-in form is shown, so a 2046 finds it loaded. A failure
 * here is left for the dialog: it tries again when it opens.
 */
export function preloadSecondVerify(): void {
  panels.sms.preload().catch(() => {});
}
