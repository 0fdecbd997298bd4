import { accountActivityQueryOptions, useAccountClient } from '@portico/account-react';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useAuditT } from './audit.messages';
import { eventText, PageButtons, useCursorPages, When } from './audit-entries';

/** The account centre's "recent security activity": the person's own audit entries, newest first. */
export function RecentActivity() {
  const t = useAuditT();
  const id = useId();
  const pages = useCursorPages();
  const activity = useQuery(accountActivityQueryOptions(useAccountClient(), pages.cursor));
  const entries = activity.data?.entries ?? [];
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{t('audit.recent')}</h2>
      <p className="muted">{t('audit.recentIntro')}</p>
      {activity.data && entries.length === 0 && <p>{t('audit.none')}</p>}
      {entries.length > 0 && (
        <table className="audit-table">
          <caption className="visually-hidden">{t('audit.recent')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('audit.time')}</th>
              <th scope="col">{t('audit.event')}</th>
              <th scope="col">{t('audit.details')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <When at={entry.occurred_at} />
                </td>
                <td>{eventText(t, entry)}</td>
                <td>
                  {entry.type === 'account.signed_in' &&
                    t(entry.data.newDevice ? 'audit.newDevice' : 'audit.knownDevice')}
                  {entry.ip ? ` · ${entry.ip}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PageButtons t={t} pages={pages} next={activity.data?.next_cursor} />
    </section>
  );
}
