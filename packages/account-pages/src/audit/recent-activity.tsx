import { accountActivityQueryOptions, useAccountClient } from '@portico/account-react';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useAuditT } from './audit.messages';
import { AuditTable, eventText, useCursorPages } from './audit-entries';

/** The account centre's "recent security activity": the person's own audit entries, newest first. */
export function RecentActivity() {
  const t = useAuditT();
  const id = useId();
  const pages = useCursorPages();
  const activity = useQuery(accountActivityQueryOptions(useAccountClient(), pages.cursor));
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{t('audit.recent')}</h2>
      <p className="muted">{t('audit.recentIntro')}</p>
      <AuditTable
        t={t}
        caption={t('audit.recent')}
        page={activity.data}
        pages={pages}
        columns={[
          { heading: t('audit.event'), cell: (entry) => eventText(t, entry) },
          {
            heading: t('audit.details'),
            cell: (entry) => (
              <>
                {entry.type === 'account.signed_in' &&
                  t(entry.data.newDevice ? 'audit.newDevice' : 'audit.knownDevice')}
                {entry.ip ? ` · ${entry.ip}` : ''}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
