import type { SecondVerifyRequest } from '@portico/account-sdk';
import { type FormEvent, useState } from 'react';
import { useAccountClient, useAccountText } from '../context';
import { ErrorMessage } from '../error-message';
import { SubmitButton } from '../forms/submit-button';
import { CODE_LENGTH } from './dialog-frame';
import { DialogActions, DialogShell } from './dialog-shell';
import {
  type CodeFactor,
  FactorCodeField,
  factorCodeComplete,
  isCodeFactor,
  useFactorText,
  WayPicker,
} from './factor-fields';
import type { PanelProps } from './second-verify-controller';
import { useSmsCode } from './sms-code';

/**
 * The second-verification panel of an account with factors beyond its mobile (the 2046 data's
 * `methods`: an authenticator app, recovery codes): a picker of the ways, then the SMS code form or the
 * factor's code field. A module of its own, loaded when such a request first opens, so that the
 * sign-in page of an SMS-only account carries none of it.
 */

type SecondWay = 'sms' | 'email' | 'passkey' | CodeFactor;

export function FactorPanel({ request, sendAllowedAt, controller }: PanelProps<SecondVerifyRequest>) {
  const t = useAccountText();
  const f = useFactorText();
  const client = useAccountClient();
  const [ceremonyError, setCeremonyError] = useState<unknown>(null);
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

  // SMS and e-mail answer with the same 6-digit code form; only the channel differs.
  const [panel, codeInput, sendError, submitCode, code, edit, incomplete, setIncomplete, initialFocus] =
    useSmsCode(request, sendAllowedAt, controller, way === 'email' ? 'email' : undefined);

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
    if (way && way !== 'sms' && way !== 'email') {
      if (!factorCodeComplete(way, code)) {
        setIncomplete(true);
        return;
      }
      return controller.submit(code.trim(), way);
    }
    submitCode();
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
      initialFocus={initialFocus}
    >
      <form onSubmit={onSubmit} noValidate>
        {ways.length > 1 ? (
          <WayPicker
            legend={f('secondVerify.way')}
            ways={ways}
            value={way}
            onChange={(next) => {
              setWay(next);
              edit('');
            }}
          />
        ) : null}
        {way === 'passkey' ? (
          <p className="portico-dialog-hint">{f('factor.passkeyHint')}</p>
        ) : way && way !== 'sms' && way !== 'email' ? (
          <FactorCodeField
            method={way}
            value={code}
            onChange={edit}
            error={
              incomplete
                ? way === 'totp'
                  ? t('code.incomplete', { length: CODE_LENGTH })
                  : f('factor.recoveryIncomplete')
                : request.error
            }
          />
        ) : (
          codeInput
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
