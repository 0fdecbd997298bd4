import { type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useAccountText } from '../context';
import { overlayStyle, panelStyle } from './dialog-frame';
import type { LazyPanel } from './lazy-panel';
import { PanelBoundary } from './panel-boundary';
import { panels } from './panels';
import type { SecondVerifyController, SecondVerifySnapshot } from './second-verify-controller';

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
 * was when the dialog goes. Every panel is a module of its own (`./panels`), loaded when first needed
 * (the SMS panel while a sign-in form is shown); until it arrives the overlay says it is loading. A
 * panel that fails to load (or throws) closes its request, as the close button would, and the next
 * opening loads it again.
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
        <Loaded panel={panels.enrol} onError={() => controller.enrolled(false)}>
          <panels.enrol.Panel request={enrol} controller={controller} covered={Boolean(queued)} />
        </Loaded>
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
  const close = () => controller.close();
  const panel = request?.methods?.some((method) => method !== 'sms')
    ? panels.factor
    : request
      ? panels.sms
      : null;
  return panel && request ? (
    <Loaded key={id} panel={panel} onError={close}>
      <panel.Panel request={request} sendAllowedAt={sendAllowedAt} controller={controller} />
    </Loaded>
  ) : (
    <Loaded key={id} panel={panels.stepUp} onError={close}>
      <panels.stepUp.Panel request={stepUp!} sendAllowedAt={sendAllowedAt} controller={controller} />
    </Loaded>
  );
}

/**
 * A panel once its module has loaded; meanwhile a status that says so. A load that fails (or a panel
 * that throws) ends the request with `onError`, and the module is loaded again next time.
 */
function Loaded({
  panel,
  onError,
  children,
}: {
  panel: Pick<LazyPanel<never>, 'reset'>;
  onError: () => void;
  children: ReactNode;
}) {
  return (
    <PanelBoundary
      onError={() => {
        panel.reset();
        onError();
      }}
    >
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </PanelBoundary>
  );
}

/** What the overlay shows while a panel's module loads. */
function Loading() {
  const t = useAccountText();
  return (
    <div className="portico-dialog-overlay" style={overlayStyle}>
      <p role="status" className="portico-dialog" style={panelStyle}>
        {t('secondVerify.loading')}
      </p>
    </div>
  );
}
