import { ErrorMessage, useAdmitWaitlist } from '@portico/account-react';
import type { WaitlistEntry } from '@portico/account-sdk/protocol';
import { Button } from '../ui/button';
import { TableScroll } from '../ui/table-scroll';
import { useMonitoringT } from './monitoring.messages';

/**
 * The people waiting, each with a button to admit them (an email or SMS with the sign-up link goes
 * out): the monitoring page's section and the admin console's tab show this one table.
 */
export function WaitlistEntries({ entries }: { entries: WaitlistEntry[] }) {
  const t = useMonitoringT();
  const admit = useAdmitWaitlist();
  return (
    <>
      <ErrorMessage error={admit.error} />
      {entries.length === 0 ? (
        <p>{t('waitlist.empty')}</p>
      ) : (
        <TableScroll label={t('waitlist')}>
          <table>
            <caption className="visually-hidden">{t('waitlist')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('waitlist.target')}</th>
                <th scope="col">{t('waitlist.note')}</th>
                <th scope="col">{t('waitlist.joined')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('waitlist.admitted')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{entry.target}</td>
                  <td>{entry.note}</td>
                  {/* `YYYY-MM-DD HH:MM` in UTC: the same on every operator's screen. */}
                  <td>{new Date(entry.joined_at * 1000).toISOString().replace('T', ' ').slice(0, 16)}</td>
                  <td>
                    <Button
                      variant="primary"
                      disabled={admit.isPending}
                      onClick={() => admit.mutate(entry.id)}
                    >
                      {t('waitlist.admit', { target: entry.target })}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
