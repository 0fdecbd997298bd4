import { ErrorMessage, useFactors, useGenerateRecoveryCodes } from '@portico/account-react';
import { useId, useMemo } from 'react';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import { useFactorsT } from './factors.messages';

/**
 * The account security page's recovery codes (docs/factors.md): ten codes, each usable once, for when
 * the phone or the authenticator app is out of reach. Generating (a step-up first) shows the new set
 * once, with a text file to download; generating again ends the old set, so it is confirmed.
 */
export function RecoveryCodesSection() {
  const t = useFactorsT();
  const headingId = useId();
  const listId = useId();
  const factors = useFactors();
  const generate = useGenerateRecoveryCodes();
  const status = factors.data?.recovery_codes;
  const codes = generate.data?.codes ?? null;
  const file = useMemo(
    () =>
      codes
        ? `data:text/plain;charset=utf-8,${encodeURIComponent(`${t('recovery.fileHeader')}\n\n${codes.join('\n')}\n`)}`
        : '',
    [codes, t],
  );

  return (
    <section className="card portico-security-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('recovery.title')}</h2>
      <p className="muted">{t('recovery.intro')}</p>
      {codes ? (
        <div className="portico-recovery-codes">
          <p role="status">{t('recovery.shown')}</p>
          <ol id={listId} aria-label={t('recovery.list')} data-testid="recovery-codes">
            {codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
          <p>
            <a href={file} download="portico-recovery-codes.txt" className="button">
              {t('recovery.download')}
            </a>{' '}
            <Button variant="secondary" onClick={() => generate.reset()}>
              {t('recovery.done')}
            </Button>
          </p>
        </div>
      ) : (
        <>
          <p>
            {status
              ? status.total > 0
                ? t('recovery.status', { total: status.total, remaining: status.remaining })
                : t('recovery.none')
              : ''}
          </p>
          {status && status.total > 0 ? (
            <ConfirmButton
              title={t('recovery.regenerateTitle')}
              description={t('recovery.regenerateDescription')}
              disabled={generate.isPending}
              onConfirm={() => generate.mutate()}
            >
              {t('recovery.regenerate')}
            </ConfirmButton>
          ) : (
            <Button
              variant="secondary"
              disabled={generate.isPending || !status}
              aria-busy={generate.isPending || undefined}
              onClick={() => generate.mutate()}
            >
              {t('recovery.generate')}
            </Button>
          )}
          <ErrorMessage error={generate.error} />
        </>
      )}
    </section>
  );
}
