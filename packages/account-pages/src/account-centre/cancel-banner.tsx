import { ErrorMessage, SubmitButton, useAbandonCancellation, useSession } from '@portico/account-react';
import { useAccountCentreT } from './account-centre.messages';
import { useDate } from './use-date';

/**
 * Shown while a requested cancellation waits out its cooling-off period (the person signed in again):
 * the date, and the way back. Abandoning restores the account whole.
 */
export function CancelPendingBanner() {
  const t = useAccountCentreT();
  const date = useDate();
  const session = useSession();
  const abandon = useAbandonCancellation();
  const eraseAt = session.data?.cancel_erase_at;
  if (abandon.isSuccess && !eraseAt)
    return (
      <p role="status" className="banner banner-success">
        {t('cancel.abandoned')}
      </p>
    );
  if (!eraseAt) return null;
  return (
    <section className="banner banner-warning" aria-label={t('cancel.title')}>
      <p>{t('cancel.pending', { date: date(eraseAt) })}</p>
      <ErrorMessage error={abandon.error} />
      <SubmitButton
        type="button"
        className="portico-submit button-primary"
        pending={abandon.isPending}
        onClick={() => abandon.mutate()}
      >
        {t('cancel.abandon')}
      </SubmitButton>
    </section>
  );
}
