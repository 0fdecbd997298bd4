import { cooldownOf, type SecondVerifyRequest, type StepUpRequest } from '@portico/account-sdk';
import { LIMITS } from '@portico/account-sdk/protocol';
import {
  type CSSProperties,
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { createPortal } from 'react-dom';
import { useAccountText } from '../context';
import { ErrorMessage } from '../error-message';
import { CodeInput } from '../forms/code-input';
import { EmailInput } from '../forms/email-input';
import { MobileInput } from '../forms/mobile-input';
import { PasswordInput } from '../forms/password-input';
import { SubmitButton } from '../forms/submit-button';
import type { SecondVerifyController } from './second-verify-controller';
import { useCooldown } from './use-cooldown';

/** The only hard styling of the package: an overlay must cover the page to be an overlay. */
const overlayStyle: CSSProperties = {
  position: 'fixed',
  inset: 0,
  zIndex: 2147483000,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: 16,
  background: 'rgba(0, 0, 0, 0.45)',
};
const panelStyle: CSSProperties = {
  boxSizing: 'border-box',
  width: '100%',
  maxWidth: 420,
  maxHeight: '100%',
  overflow: 'auto',
  padding: 24,
  borderRadius: 8,
  // System colours follow the page's color-scheme (light or dark) without a stylesheet.
  background: 'Canvas',
  color: 'CanvasText',
};

const CODE_LENGTH = LIMITS.codeLength;

export interface SecondVerifyDialogProps {
  controller: SecondVerifyController;
  /** Where the overlay is portalled. Default `document.body`. */
  container?: Element;
}

/**
 * The second-verification overlay `<AccountProvider>` renders: opened by the SDK through the
 * controller when a sign-in answers 2046. Shows the masked mobile, a send button with its countdown,
 * the 6-digit code field, submit and close; the SDK's error after a wrong code. Escape or the close
 * button resolves null (the sign-in rejects with SECOND_VALID). Focus moves into the dialog, stays in
 * it (Tab wraps), and returns where it was when the dialog goes.
 *
 * The same overlay answers a step-up (2047: a signed-in person adding or removing a way in must prove
 * it is them again): a code to the account's own mobile or e-mail, typed in full, or its password;
 * the refused call is then sent again. Closing it rejects the call with the 2047 failure.
 */
export function SecondVerifyDialog({ controller, container }: SecondVerifyDialogProps) {
  const { request, stepUp, id, sendAllowedAt } = useSyncExternalStore(
    controller.subscribe,
    controller.getSnapshot,
    controller.getSnapshot,
  );
  if (!request && !stepUp) return null;
  const target = container ?? (typeof document !== 'undefined' ? document.body : null);
  if (!target) return null;
  return createPortal(
    request ? (
      <DialogPanel key={id} request={request} sendAllowedAt={sendAllowedAt} controller={controller} />
    ) : (
      <StepUpPanel key={id} request={stepUp!} sendAllowedAt={sendAllowedAt} controller={controller} />
    ),
    target,
  );
}

/** Focus into the panel's first field on open, and back where it was on close. */
function useDialogFocus(panel: { current: HTMLDivElement | null }) {
  // The panel is keyed per request, so this runs once per opened request.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>('input, button')?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, [panel]);
}

type StepUpWay = 'mobile' | 'email' | 'password';

/** The step-up form: a way the account has, then a code to it (or the password). */
function StepUpPanel({
  request,
  sendAllowedAt,
  controller,
}: {
  request: StepUpRequest;
  sendAllowedAt: number;
  controller: SecondVerifyController;
}) {
  const t = useAccountText();
  const titleId = useId();
  const introId = useId();
  const wayName = useId();
  const panel = useRef<HTMLDivElement>(null);
  const ways: [StepUpWay, string][] = [];
  if (request.mobileMasked) ways.push(['mobile', t('stepUp.byMobile', { value: request.mobileMasked })]);
  if (request.emailMasked) ways.push(['email', t('stepUp.byEmail', { value: request.emailMasked })]);
  if (request.hasPassword) ways.push(['password', t('stepUp.byPassword')]);
  const [way, setWay] = useState<StepUpWay | undefined>(ways[0]?.[0]);
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<unknown>(null);
  const [problem, setProblem] = useState<string>();
  const { seconds } = useCooldown(sendAllowedAt);
  useDialogFocus(panel);

  const masked = way === 'mobile' ? request.mobileMasked : request.emailMasked;
  const to = () => (way === 'mobile' ? { mobile: target.trim() } : { email: target.trim() });
  const send = async () => {
    if (!target.trim()) return setProblem(t('stepUp.needTarget', { value: masked }));
    setProblem(undefined);
    setSending(true);
    setSendError(null);
    try {
      controller.markSent(cooldownOf(await request.sendCode(to())));
    } catch (error) {
      setSendError(error);
    } finally {
      setSending(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (way === 'password') {
      if (!password) return setProblem(t('stepUp.needPassword'));
      return controller.prove({ password });
    }
    if (!target.trim()) return setProblem(t('stepUp.needTarget', { value: masked }));
    if (code.length !== CODE_LENGTH) return setProblem(t('code.incomplete', { length: CODE_LENGTH }));
    controller.prove({ ...to(), code });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      controller.close();
    } else if (event.key === 'Tab') trapTab(event, panel.current);
  };

  return (
    <div className="portico-dialog-overlay" style={overlayStyle}>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={introId}
        className="portico-dialog"
        style={panelStyle}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="portico-dialog-title">
          {t('stepUp.title')}
        </h2>
        <p id={introId} className="portico-dialog-intro">
          {ways.length ? t('stepUp.intro') : t('stepUp.noWay')}
        </p>
        <form onSubmit={onSubmit} noValidate>
          {ways.length > 1 ? (
            <fieldset className="portico-dialog-ways">
              <legend>{t('stepUp.way')}</legend>
              {ways.map(([value, label]) => (
                <label key={value}>
                  <input
                    type="radio"
                    name={wayName}
                    value={value}
                    checked={way === value}
                    onChange={() => {
                      setWay(value);
                      setTarget('');
                      setCode('');
                      setProblem(undefined);
                    }}
                  />{' '}
                  {label}
                </label>
              ))}
            </fieldset>
          ) : null}
          {way === 'password' ? (
            <PasswordInput
              label={t('stepUp.password')}
              value={password}
              onChange={setPassword}
              autoComplete="current-password"
              error={problem ?? request.error}
              required
            />
          ) : way ? (
            <>
              {way === 'mobile' ? (
                <MobileInput
                  value={target}
                  onChange={setTarget}
                  hint={t('stepUp.targetHint', { value: masked })}
                  required
                />
              ) : (
                <EmailInput
                  value={target}
                  onChange={setTarget}
                  hint={t('stepUp.targetHint', { value: masked })}
                  required
                />
              )}
              <CodeInput
                value={code}
                onChange={(next) => {
                  setCode(next);
                  setProblem(undefined);
                }}
                length={CODE_LENGTH}
                onSend={send}
                sending={sending}
                cooldown={seconds}
                sendError={sendError}
                error={problem ?? request.error}
                required
              />
            </>
          ) : null}
          <div className="portico-dialog-actions">
            {way ? <SubmitButton>{t('stepUp.submit')}</SubmitButton> : null}
            <button type="button" className="portico-dialog-close" onClick={() => controller.close()}>
              {t('secondVerify.close')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

function DialogPanel({
  request,
  sendAllowedAt,
  controller,
}: {
  request: SecondVerifyRequest;
  sendAllowedAt: number;
  controller: SecondVerifyController;
}) {
  const t = useAccountText();
  const titleId = useId();
  const introId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const codeField = useRef<HTMLInputElement | null>(null);
  const [code, setCode] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<unknown>(null);
  const [incomplete, setIncomplete] = useState(false);
  const { seconds } = useCooldown(sendAllowedAt);

  // Focus in on open (the code field after a wrong code or a recent send, else the send button), and back
  // where it was on close. The panel is keyed per request, so this runs once per opened request.
  const focusField = useRef(Boolean(request.error) || sendAllowedAt > Date.now());
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const field = panel.current?.querySelector<HTMLInputElement>('input') ?? null;
    codeField.current = field;
    if (focusField.current) field?.focus();
    else panel.current?.querySelector<HTMLButtonElement>('.portico-code-send')?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);

  const send = async () => {
    setSending(true);
    setSendError(null);
    try {
      controller.markSent(cooldownOf(await request.sendCode()));
      codeField.current?.focus();
    } catch (error) {
      setSendError(error);
    } finally {
      setSending(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      setIncomplete(true);
      codeField.current?.focus();
      return;
    }
    controller.submit(code);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      controller.close();
    } else if (event.key === 'Tab') trapTab(event, panel.current);
  };

  return (
    <div className="portico-dialog-overlay" style={overlayStyle}>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={introId}
        className="portico-dialog"
        style={panelStyle}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="portico-dialog-title">
          {t('secondVerify.title')}
        </h2>
        <p id={introId} className="portico-dialog-intro">
          {request.mobileMasked
            ? t('secondVerify.intro', { mobile: request.mobileMasked })
            : t('secondVerify.introNoMobile')}
        </p>
        <form onSubmit={onSubmit} noValidate>
          <CodeInput
            value={code}
            onChange={(next) => {
              setCode(next);
              setIncomplete(false);
            }}
            length={CODE_LENGTH}
            onSend={send}
            sending={sending}
            cooldown={seconds}
            error={incomplete ? t('code.incomplete', { length: CODE_LENGTH }) : request.error}
            required
          />
          <ErrorMessage error={sendError} />
          <div className="portico-dialog-actions">
            <SubmitButton>{t('secondVerify.submit')}</SubmitButton>
            <button type="button" className="portico-dialog-close" onClick={() => controller.close()}>
              {t('secondVerify.close')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

/** Keeps Tab and Shift+Tab inside the dialog. */
function trapTab(event: KeyboardEvent, root: HTMLElement | null) {
  if (!root) return;
  const focusable = Array.from(
    root.querySelectorAll<HTMLElement>(
      'button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])',
    ),
  ).filter((element) => !(element as HTMLButtonElement).disabled);
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
