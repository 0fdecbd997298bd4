import {
  ErrorMessage,
  type MonitoringFilters,
  monitoringDashboardQueryOptions,
  useAccountClient,
  waitlistQueryOptions,
} from '@portico/account-react';
import type { MonitorDashboardData } from '@portico/account-sdk/protocol';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../ui/button';
import { TableScroll } from '../ui/table-scroll';
import { DailyChart } from './daily-chart';
import { useMonitoringT } from './monitoring.messages';
import { WaitlistEntries } from './waitlist-entries';

type T = ReturnType<typeof useMonitoringT>;

/** A `YYYY-MM-DD` day in UTC, `days` before today. */
function dayBefore(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

function sumByDay<R extends { day: string }>(rows: R[], value: (row: R) => number) {
  const days = new Map<string, number>();
  for (const row of rows) days.set(row.day, (days.get(row.day) ?? 0) + value(row));
  return [...days]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, v]) => ({ label, value: Math.round(v) }));
}

/** One column of a report table: its heading and how a row shows in it. */
interface Column<R> {
  heading: string;
  cell: (row: R) => string | number;
}

/** A report: its heading, an optional chart of its daily totals, and its rows as a table. */
function ReportSection<R>({
  id,
  t,
  title,
  chart,
  rows,
  rowKey,
  columns,
}: {
  id: string;
  t: T;
  title: string;
  chart?: { title: string; value: (row: R) => number };
  rows: (R & { day: string })[];
  rowKey: (row: R) => string;
  columns: Column<R>[];
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {chart && <DailyChart title={chart.title} rows={sumByDay(rows, chart.value)} />}
      {rows.length === 0 ? (
        <p>{t('empty')}</p>
      ) : (
        <TableScroll label={title}>
          <table>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.heading} scope="col">
                    {column.heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.heading}>{column.cell(row)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

const count = (value: number) => Math.round(value);

function Dashboard({ t, data }: { t: T; data: MonitorDashboardData }) {
  return (
    <>
      <ReportSection
        id="monitoring-funnel"
        t={t}
        title={t('funnel')}
        chart={{ title: t('chart.funnel'), value: (row) => row.signed_in }}
        rows={data.funnel}
        rowKey={(row) => `${row.day} ${row.app} ${row.method}`}
        columns={[
          { heading: t('day'), cell: (row) => row.day },
          { heading: t('app'), cell: (row) => row.app },
          { heading: t('method'), cell: (row) => row.method },
          { heading: t('visits'), cell: (row) => count(row.visits) },
          { heading: t('codeSent'), cell: (row) => count(row.code_sent) },
          { heading: t('signedIn'), cell: (row) => count(row.signed_in) },
          { heading: t('failed'), cell: (row) => count(row.failed) },
        ]}
      />
      <ReportSection
        id="monitoring-errors"
        t={t}
        title={t('errors')}
        chart={{ title: t('chart.errors'), value: (row) => row.count }}
        rows={data.errors}
        rowKey={(row) => `${row.day} ${row.message}`}
        columns={[
          { heading: t('day'), cell: (row) => row.day },
          { heading: t('message'), cell: (row) => row.message },
          { heading: t('count'), cell: (row) => count(row.count) },
        ]}
      />
      <ReportSection
        id="monitoring-vitals"
        t={t}
        title={t('vitals')}
        rows={data.vitals}
        rowKey={(row) => `${row.day} ${row.name}`}
        columns={[
          { heading: t('day'), cell: (row) => row.day },
          { heading: t('name'), cell: (row) => row.name },
          { heading: t('p75'), cell: (row) => row.p75 },
          { heading: t('count'), cell: (row) => count(row.count) },
        ]}
      />
      <ReportSection
        id="monitoring-sdk"
        t={t}
        title={t('sdk')}
        rows={data.sdk}
        rowKey={(row) => `${row.day} ${row.path}`}
        columns={[
          { heading: t('day'), cell: (row) => row.day },
          { heading: t('path'), cell: (row) => row.path },
          { heading: t('calls'), cell: (row) => count(row.calls) },
          { heading: t('errorRate'), cell: (row) => `${(row.error_rate * 100).toFixed(1)}%` },
          { heading: t('p75ms'), cell: (row) => row.p75_ms },
        ]}
      />
    </>
  );
}

function Waitlist({ t }: { t: T }) {
  const client = useAccountClient();
  const list = useQuery(waitlistQueryOptions(client));
  if (!list.data) return null;
  return (
    <section className="card" aria-labelledby="monitoring-waitlist">
      <h2 id="monitoring-waitlist">{t('waitlist')}</h2>
      <WaitlistEntries entries={list.data.entries} />
    </section>
  );
}

/**
 * The operator's monitoring screen (below the page's heading): the dashboard by day with filters, and
 * the waitlist to admit; for anyone else, that the page is the operators'.
 */
export function MonitoringScreen() {
  const t = useMonitoringT();
  const client = useAccountClient();
  const [query, setQuery] = useState<MonitoringFilters>({ from: dayBefore(6), to: dayBefore(0) });
  const [draft, setDraft] = useState(query);
  const dashboard = useQuery(monitoringDashboardQueryOptions(client, query));
  function apply(event: FormEvent) {
    event.preventDefault();
    setQuery(draft);
  }
  if (dashboard.isPending)
    return (
      <p role="status" aria-busy="true">
        {t('title')}…
      </p>
    );
  if (dashboard.data === null) return <p>{t('notOperator')}</p>;
  const data = dashboard.data;
  return (
    <>
      <ErrorMessage error={dashboard.error} />
      <form className="card monitoring-filters" onSubmit={apply} aria-label={t('filters')}>
        <label>
          {t('from')}
          <input
            type="date"
            value={draft.from ?? ''}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </label>
        <label>
          {t('to')}
          <input
            type="date"
            value={draft.to ?? ''}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
        </label>
        <label>
          {t('app')}
          <select
            value={draft.app ?? ''}
            onChange={(event) => setDraft({ ...draft, app: event.target.value })}
          >
            <option value="">{t('all')}</option>
            {data?.apps.map((app) => (
              <option key={app} value={app}>
                {app}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('flavour')}
          <select
            value={draft.flavour ?? ''}
            onChange={(event) => setDraft({ ...draft, flavour: event.target.value })}
          >
            <option value="">{t('all')}</option>
            {data?.flavours.map((flavour) => (
              <option key={flavour} value={flavour}>
                {flavour}
              </option>
            ))}
          </select>
        </label>
        <Button variant="primary" type="submit">
          {t('apply')}
        </Button>
      </form>
      {data ? <Dashboard t={t} data={data} /> : null}
      <Waitlist t={t} />
    </>
  );
}
