import { lazy, Suspense, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import type { SecondVerifyController, SecondVerifySnapshot } from './second-verify-controller';

/**
 * Loaded when a second verification first opens, with the dialog frame (Radix Dialog and its focus and
 * scroll locks): sign-in pages never carry it before then.
 */
const SmsPanel = lazy(() => import('./sms-panel').then((module) => ({ default: module.SmsPanel })));

/** Loaded when a step-up first opens: sign-in pages never carry it. */
const StepUpPanel = lazy(() => import('./step-up-panel').then((module) => ({ default: module.StepUpPanel })));
/** Loaded when an account with other factors (an authenticator app, recovery codes) first opens it. */
const FactorPanel = lazy(() => import('./factor-panel').then((module) => ({ default: module.FactorPanel })));
/** Loaded when an organisation first asks this account to set up a second factor. */
const EnrolPanel = lazy(() => import('./enrol-panel').then((module) => ({ default: module.EnrolPanel })));

export interface SecondVerifyDialogProps {
  controller: SecondVerifyController;
  /** Where the overlay is portalled. Default `document.body`. */
  container?: Element;
}

/**
 * The second-verification overlay `<AccountProvider>` renders: opened by the SDK through the
 * controller when a sign-in answers 2046. Shows the masked mobile, a send button with its countdown,
 * the 6-digit code field, submit and close; the SDK's error after a wrong code. Escape or the close
 * button resolves null (the sign-in rejects with SECOND_VALID). The panels draw their frame on Radix
 * Dialog (`./dialog-shell`): focus moves into the dialog, stays in it (Tab wraps), and returns where it
 * was when the dialog goes. Every panel is a module of its own, loaded when first needed.
 *
 * The same overlay answers a step-up (2047: a signed-in person adding or removing a way in must prove
 * it is them again): a code to the account's own mobile or e-mail, typed in full, or its password;
 * the refused call is then sent again. Closing it rejects the call with the 2047 failure.
 *
 * An account with other factors (the 2046 data's `methods`) gets a picker of its ways first
 * (`./factor-panel`, loaded then).
 *
 * An organisation that requires a second factor of an account with none (1621) gets a panel that sets
 * up a passkey or an authenticator app (`./enrol-panel`); the refused calls are then sent again. The
 * step-up that setting one up asks for opens above it.
 */
export function SecondVerifyDialog({ controller, container }: SecondVerifyDialogProps) {
  const { request, stepUp, enrol, id, sendAllowedAt } = useSyncExternalStore(
    controller.subscribe,
    controller.getSnapshot,
    controller.getSnapshot,
  );
  if (!request && !stepUp && !enrol) return null;
  const target = container ?? (typeof document !== 'undefined' ? document.body : null);
  if (!target) return null;
  const queued = request ?? stepUp;
  return createPortal(
    <>
      {enrol ? (
        <Suspense fallback={null}>
          <EnrolPanel request={enrol} controller={controller} covered={Boolean(queued)} />
        </Suspense>
      ) : null}
      {queued ? <QueuedPanel {...{ request, stepUp, id, sendAllowedAt, controller }} /> : null}
    </>,
    target,
  );
}

/** The head of the queue: a sign-in's second verification, or a step-up. */
function QueuedPanel({
  request,
  stepUp,
  id,
  sendAllowedAt,
  controller,
}: Pick<SecondVerifySnapshot, 'request' | 'stepUp' | 'id' | 'sendAllowedAt'> & {
  controller: SecondVerifyController;
}) {
  return request?.methods?.some((method) => method !== 'sms') ? (
    <Suspense fallback={null}>
      <FactorPanel key={id} request={request} sendAllowedAt={sendAllowedAt} controller={controller} />
    </Suspense>
  ) : request ? (
    <Suspense fallback={null}>
      <SmsPanel key={id} request={request} sendAllowedAt={sendAllowedAt} controller={controller} />
    </Suspense>
  ) : (
    <Suspense fallback={null}>
      <StepUpPanel key={id} request={stepUp!} sendAllowedAt={sendAllowedAt} controller={controller} />
    </Suspense>
  );
}
