import { ErrorMessage, SubmitButton, useSession } from '@portico/account-react';
import { cancelConfirm } from '@portico/account-sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountClient } from '../../lib/account';
import { useAccountT } from './messages';
import { useDate } from './use-date';

/**
 * Shown while a requested cancellation waits out its cooling-off period (the person signed in again):
 * the date, and the way back. Abandoning restores the account whole.
 */
export function CancelPendingBanner() {
  const t = useAccountT();
  const date = useDate();
  const session = useSession();
  const queryClient = useQueryClient();
  const abandon = useMutation({
    mutationFn: () => cancelConfirm(accountClient, { abandon: 1 }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['portico'] }),
  });
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
