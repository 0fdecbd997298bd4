import { cooldownOf, type SecondVerifyRequest } from '@portico/account-sdk';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useAccountClient, useAccountText } from '../context';
import { ErrorMessage } from '../error-message';
import { CodeInput } from '../forms/code-input';
import { SubmitButton } from '../forms/submit-button';
import { CODE_LENGTH } from './dialog-frame';
import { DialogActions, DialogShell, useCodeSend } from './dialog-shell';
import {
  type CodeFactor,
  FactorCodeField,
  factorCodeComplete,
  isCodeFactor,
  useFactorText,
  WayPicker,
} from './factor-fields';
import type { SecondVerifyController } from './second-verify-controller';
import { useCooldown } from './use-cooldown';

/**
 * The second-verification panel of an account with factors beyond its mobile (the 2046 data's
 * `methods`: an authenticator app, recovery codes): a picker of the ways, then the SMS code form or the
 * factor's code field. A module of its own, loaded when such a request first opens, so that the
 * sign-in page of an SMS-only account carries none of it.
 */

type SecondWay = 'sms' | 'email' | 'passkey' | CodeFactor;

export function FactorPanel({
  request,
  sendAllowedAt,
  controller,
}: {
  request: SecondVerifyRequest;
  sendAllowedAt: number;
  controller: SecondVerifyController;
}) {
  const t = useAccountText();
  const f = useFactorText();
  const client = useAccountClient();
  const [ceremonyError, setCeremonyError] = useState<unknown>(null);
  const panel = useRef<HTMLDivElement>(null);
  const codeField = useRef<HTMLInputElement | null>(null);
  const [code, setCode] = useState('');
  const { sending, sendError, run } = useCodeSend();
  const [incomplete, setIncomplete] = useState(false);
  const { seconds } = useCooldown(sendAllowedAt);
  // The ways the account can answer: the SMS code (when it has a mobile), its authenticator app, a
  // recovery code. An SMS-only account sees the SMS form alone, as before.
  const ways: [SecondWay, string][] = [];
  for (const method of request.methods ?? ['sms']) {
    if (method === 'sms') ways.push(['sms', f('factor.sms', { mobile: request.mobileMasked ?? '' })]);
    else if (method === 'email')
      ways.push(['email', f('factor.email', { email: request.emailMasked ?? '' })]);
    else if (method === 'passkey') ways.push(['passkey', f('factor.passkey')]);
    else if (isCodeFactor(method)) ways.push([method, f(`factor.${method}`)]);
  }
  // A dialog reopened after a wrong code keeps the way the person chose.
  const previous = controller.chosenMethod(request.sms_code_key);
  const [way, setWay] = useState<SecondWay | undefined>(
    ways.find(([value]) => value === previous)?.[0] ?? ways[0]?.[0],
  );

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

  const send = () =>
    run(async () => {
      controller.markSent(cooldownOf(await request.sendCode(way === 'email' ? 'email' : undefined)));
      codeField.current?.focus();
    });

  // The passkey's ceremony (and @simplewebauthn/browser) loads only when the person chooses it.
  const provePasskey = async () => {
    setCeremonyError(null);
    try {
      const { passkeyFactorCredential } = await import('@portico/account-sdk/passkeys');
      const credential = await passkeyFactorCredential(client, { sms_code_key: request.sms_code_key });
      controller.submit(credential, 'passkey');
    } catch (error) {
      setCeremonyError(error);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (way === 'passkey') return void provePasskey();
    if (way === 'email') {
      if (code.length !== CODE_LENGTH) {
        setIncomplete(true);
        codeField.current?.focus();
        return;
      }
      return controller.submit(code, 'email');
    }
    if (way && way !== 'sms') {
      if (!factorCodeComplete(way, code)) {
        setIncomplete(true);
        return;
      }
      return controller.submit(code.trim(), way);
    }
    if (code.length !== CODE_LENGTH) {
      setIncomplete(true);
      codeField.current?.focus();
      return;
    }
    controller.submit(code);
  };

  const close = () => controller.close();

  return (
    <DialogShell
      panel={panel}
      title={t('secondVerify.title')}
      intro={
        ways.length > 1
          ? f('secondVerify.introChoose')
          : request.mobileMasked
            ? t('secondVerify.intro', { mobile: request.mobileMasked })
            : t('secondVerify.introNoMobile')
      }
      onClose={close}
    >
      <form onSubmit={onSubmit} noValidate>
        {ways.length > 1 ? (
          <WayPicker
            legend={f('secondVerify.way')}
            ways={ways}
            value={way}
            onChange={(next) => {
              setWay(next);
              setCode('');
              setIncomplete(false);
            }}
          />
        ) : null}
        {way === 'passkey' ? (
          <p className="portico-dialog-hint">{f('factor.passkeyHint')}</p>
        ) : way && way !== 'sms' && way !== 'email' ? (
          <FactorCodeField
            method={way}
            value={code}
            onChange={(next) => {
              setCode(next);
              setIncomplete(false);
            }}
            error={
              incomplete
                ? way === 'totp'
                  ? t('code.incomplete', { length: CODE_LENGTH })
                  : f('factor.recoveryIncomplete')
                : request.error
            }
          />
        ) : (
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
        )}
        {way === 'passkey' && request.error ? <ErrorMessage error={request.error} /> : null}
        <ErrorMessage error={sendError ?? ceremonyError} />
        <DialogActions onClose={close}>
          <SubmitButton>{t('secondVerify.submit')}</SubmitButton>
        </DialogActions>
      </form>
    </DialogShell>
  );
}
