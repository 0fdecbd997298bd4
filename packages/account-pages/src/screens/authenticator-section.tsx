import {
  CodeInput,
  ErrorMessage,
  SubmitButton,
  useFactors,
  useTotpConfirm,
  useTotpRemove,
  useTotpStart,
} from '@portico/account-react';
import { type FormEvent, useId, useState } from 'react';
import { useDate } from '../account-centre/use-date';
import { QrImage } from '../qr/qr-image';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import { useFactorsT } from './factors.messages';

/**
 * The account security page's authenticator app (docs/factors.md): set one up (a step-up first; the
 * QR code and the key shown once; the app's first code turns it on), or remove it (confirmed).
 */
export function AuthenticatorSection() {
  const t = useFactorsT();
  const date = useDate();
  const headingId = useId();
  const factors = useFactors();
  const start = useTotpStart();
  const confirm = useTotpConfirm();
  const remove = useTotpRemove();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<'enabled' | 'removed' | null>(null);
  const totp = factors.data?.totp;
  const started = start.data && !confirm.isSuccess ? start.data : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^[0-9]{6}$/.test(code)) return setProblem(t('totp.needCode'));
    setProblem(undefined);
    confirm.mutate(
      { code },
      {
        onSuccess: () => {
          setDone('enabled');
          setCode('');
          start.reset();
        },
      },
    );
  }

  return (
    <section className="card portico-security-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('totp.title')}</h2>
      <p className="muted">{t('totp.intro')}</p>
      <p role="status" className="success">
        {done === 'enabled' ? t('totp.enabled') : done === 'removed' ? t('totp.removed') : ''}
      </p>
      {totp?.enabled ? (
        <>
          <p>{t('totp.on', { date: totp.confirmed_at ? date(totp.confirmed_at) : '' })}</p>
          <ConfirmButton
            title={t('totp.removeTitle')}
            description={t('totp.removeDescription')}
            disabled={remove.isPending}
            onConfirm={() => remove.mutate(undefined, { onSuccess: () => setDone('removed') })}
          >
            {t('totp.remove')}
          </ConfirmButton>
          <ErrorMessage error={remove.error} />
        </>
      ) : started ? (
        <form noValidate onSubmit={submit} className="form portico-totp-setup">
          <p>{t('totp.scan')}</p>
          <QrImage value={started.uri} label={t('totp.qr')} />
          <p>
            {t('totp.secret')}: <code data-testid="totp-secret">{started.secret}</code>
          </p>
          <CodeInput
            label={t('totp.code')}
            value={code}
            onChange={(next) => {
              setCode(next);
              setProblem(undefined);
            }}
            length={6}
            error={problem ?? confirm.error}
            required
          />
          <SubmitButton pending={confirm.isPending}>{t('totp.confirm')}</SubmitButton>{' '}
          <Button variant="secondary" onClick={() => start.reset()}>
            {t('totp.cancel')}
          </Button>
        </form>
      ) : (
        <>
          <p>{factors.data ? t('totp.off') : ''}</p>
          <Button
            variant="secondary"
            disabled={start.isPending || !factors.data}
            aria-busy={start.isPending || undefined}
            onClick={() => {
              setDone(null);
              confirm.reset();
              start.mutate();
            }}
          >
            {t('totp.start')}
          </Button>
          <ErrorMessage error={start.error} />
        </>
      )}
    </section>
  );
}
