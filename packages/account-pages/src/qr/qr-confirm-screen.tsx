import {
  CodeInput,
  ErrorMessage,
  useAccountClient,
  useAccountLanguage,
  useSession,
} from '@portico/account-react';
import {
  type AccountError,
  confirmQrcode,
  confirmQrcodeByTicket,
  isAccountError,
  type QrScanData,
  type QrVerifyScanData,
  scanQrcode,
  verifyScanQrcode,
} from '@portico/account-sdk';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { isCode } from '../forms/validate';
import { useQrConfirmT } from './qr-confirm.messages';

/** QR_WRONG_NUMBER, QR_SECOND_FACTOR_REQUIRED (the "QR sign-in" range). */
const WRONG_NUMBER = 1908;

/**
 * "Chrome on macOS" (the passport's summary of a user agent: browser and system families, proper
 * names) in the page's language: "macOS 上的 Chrome" in zh.
 */
export function browserText(summary: string, language: 'zh' | 'en'): string {
  if (language === 'en') return summary;
  if (summary === 'Unknown device') return '未知设备';
  const parts = /^(.+) on (.+)$/.exec(summary);
  if (!parts) return summary;
  const system = parts[2] === 'unknown system' ? '未知系统' : parts[2];
  return `${system} 上的 ${parts[1] === 'Browser' ? '浏览器' : parts[1]}`;
}

export type QrConfirmResult = 'confirmed' | 'cancelled' | 'wrong' | 'failed';

type Step =
  | { name: 'checking' }
  | { name: 'sign-in' }
  | { name: 'ask'; scan: QrScanData }
  | { name: 'code'; scan: QrVerifyScanData; number: number }
  | { name: 'done'; result: QrConfirmResult; error?: AccountError };

/**
 * The phone's side of QR sign-in (docs/qr-login.md): scan the code of `token`, show what asks (browser,
 * approximate place, time), let the person pick the number the computer shows among three (a wrong
 * pick cancels) or cancel, with an SMS code first when the account must prove its mobile here; then
 * done. Signed out, it asks the person to sign in (`signInHref` comes back here).
 */
export function QrConfirmScreen({
  token,
  signInHref,
  onClose,
}: {
  token: string;
  signInHref: string;
  /** "Done": the app closes the webview, or goes back. */
  onClose: (result: QrConfirmResult) => void;
}) {
  const t = useQrConfirmT();
  const client = useAccountClient();
  const language = useAccountLanguage();
  const session = useSession();
  const [step, setStep] = useState<Step>({ name: 'checking' });
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState('');
  const [codeProblem, setCodeProblem] = useState<string | undefined>();
  const [error, setError] = useState<AccountError | null>(null);
  const scanned = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (session.isPending || scanned.current) return;
    if (!session.data) {
      setStep({ name: 'sign-in' });
      return;
    }
    scanned.current = true;
    scanQrcode(client, { token }).then(
      (scan) => setStep({ name: 'ask', scan }),
      (failure: unknown) => setStep({ name: 'done', result: 'failed', error: failure as AccountError }),
    );
  }, [session.isPending, session.data, client, token]);

  useEffect(() => {
    if (step.name === 'done') heading.current?.focus();
  }, [step.name]);

  const finish = (failure: unknown) => {
    const wrong =
      isAccountError(failure) && failure.kind === 'response' && failure.error_code === WRONG_NUMBER;
    setStep({
      name: 'done',
      result: wrong ? 'wrong' : 'failed',
      error: wrong ? undefined : (failure as AccountError),
    });
  };

  async function pick(scan: QrScanData, number: number) {
    setBusy(true);
    try {
      if (scan.need_second_factor) {
        const twoStep = await verifyScanQrcode(client, { token });
        if (twoStep.need_code) setStep({ name: 'code', scan: twoStep, number });
        else {
          await confirmQrcodeByTicket(client, { ticket: twoStep.ticket, number });
          setStep({ name: 'done', result: 'confirmed' });
        }
      } else {
        await confirmQrcode(client, { token, number });
        setStep({ name: 'done', result: 'confirmed' });
      }
    } catch (failure) {
      finish(failure);
    } finally {
      setBusy(false);
    }
  }

  async function cancel() {
    setBusy(true);
    try {
      if (step.name === 'code') await confirmQrcodeByTicket(client, { ticket: step.scan.ticket, cancel: 1 });
      else await confirmQrcode(client, { token, cancel: 1 });
      setStep({ name: 'done', result: 'cancelled' });
    } catch (failure) {
      finish(failure);
    } finally {
      setBusy(false);
    }
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    if (step.name !== 'code') return;
    if (!isCode(code)) {
      setCodeProblem(t('qrc.code', { mobile: step.scan.mobile }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await confirmQrcodeByTicket(client, { ticket: step.scan.ticket, number: step.number, code });
      setStep({ name: 'done', result: 'confirmed' });
    } catch (failure) {
      // A wrong code leaves the ticket alive: the person may try again.
      if (isAccountError(failure) && failure.kind === 'response' && failure.error_code === 1301)
        setError(failure);
      else finish(failure);
    } finally {
      setBusy(false);
    }
  }

  const placeText = (scan: QrScanData) => t(`qrc.place.${scan.place.kind}`, { network: scan.place.network });
  const timeText = (scan: QrScanData) =>
    new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', {
      dateStyle: 'medium',
      timeStyle: 'medium',
    }).format(scan.created_at);

  return (
    <section className="qr-confirm" aria-labelledby="qr-confirm-title">
      <h1 id="qr-confirm-title" ref={heading} tabIndex={-1}>
        {step.name === 'done' ? t(`qrc.done.${step.result}`) : t('qrc.title')}
      </h1>
      {step.name === 'checking' ? (
        <p className="muted" role="status">
          {t('qrc.checking')}
        </p>
      ) : null}
      {step.name === 'sign-in' ? (
        <>
          <p>{t('qrc.signIn')}</p>
          <Link className="button button-primary button-block" to={signInHref}>
            {t('qrc.signInLink')}
          </Link>
        </>
      ) : null}
      {step.name === 'ask' || step.name === 'code' ? (
        <>
          <p>{t('qrc.asking')}</p>
          <dl className="qr-confirm-request">
            <dt>{t('qrc.browser')}</dt>
            <dd>{browserText(step.scan.browser, language)}</dd>
            <dt>{t('qrc.place')}</dt>
            <dd>{placeText(step.scan)}</dd>
            <dt>{t('qrc.time')}</dt>
            <dd>{timeText(step.scan)}</dd>
          </dl>
        </>
      ) : null}
      {step.name === 'ask' ? (
        <fieldset className="qr-confirm-pick" disabled={busy}>
          <legend>{t('qrc.pick')}</legend>
          <div className="qr-confirm-numbers">
            {step.scan.choices.map((choice) => (
              <button
                key={choice}
                type="button"
                className="button button-large qr-confirm-number"
                onClick={() => void pick(step.scan, choice)}
              >
                {choice}
              </button>
            ))}
          </div>
          <p className="muted">{t('qrc.pickHint')}</p>
        </fieldset>
      ) : null}
      {step.name === 'code' ? (
        <form className="form" onSubmit={submitCode} noValidate>
          <p>{t('qrc.code', { mobile: step.scan.mobile })}</p>
          <CodeInput value={code} onChange={setCode} error={codeProblem} />
          {error ? <ErrorMessage error={error} /> : null}
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            {t('qrc.confirm')}
          </button>
        </form>
      ) : null}
      {step.name === 'ask' || step.name === 'code' ? (
        <button
          type="button"
          className="button button-ghost button-block"
          disabled={busy}
          onClick={() => void cancel()}
        >
          {t('qrc.cancel')}
        </button>
      ) : null}
      {step.name === 'done' ? (
        <>
          {step.error ? <ErrorMessage error={step.error} /> : null}
          <button
            type="button"
            className="button button-primary button-block"
            onClick={() => onClose(step.result)}
          >
            {t('qrc.close')}
          </button>
        </>
      ) : null}
    </section>
  );
}
