import { auditLogQueryOptions, useAccountClient } from '@portico/account-react';
import { type AuditFilters, auditExportUrl, type OrganisationAuditPage } from '@portico/affiliate-sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { ActiveOrg } from '../organisations/console-context';
import { Button } from '../ui/button';
import { type AuditT, useAuditT } from './audit.messages';
import { AuditTable, eventText, useCursorPages } from './audit-entries';

interface Filters {
  type: string;
  actor: string;
  target: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { type: '', actor: '', target: '', from: '', to: '' };

/** The filters as the calls take them: empty fields left out, dates as ms (the end date inclusive). */
function queryOf(filters: Filters): AuditFilters {
  const day = (value: string) => new Date(`${value}T00:00:00`).getTime();
  return {
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.actor ? { actor_user_id: filters.actor } : {}),
    ...(filters.target ? { target_user_id: filters.target } : {}),
    ...(filters.from ? { from: day(filters.from) } : {}),
    ...(filters.to ? { to: day(filters.to) + 86_400_000 } : {}),
  };
}

function FilterField({
  label,
  value,
  onChange,
  type = 'text',
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  type?: string;
}) {
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

function FilterForm({ t, onApply }: { t: AuditT; onApply(filters: Filters): void }) {
  const [draft, setDraft] = useState(EMPTY);
  const set = (key: keyof Filters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }
  return (
    <form className="form audit-filters" onSubmit={submit}>
      <FilterField label={t('audit.filterType')} value={draft.type} onChange={set('type')} />
      <FilterField label={t('audit.filterActor')} value={draft.actor} onChange={set('actor')} />
      <FilterField label={t('audit.filterTarget')} value={draft.target} onChange={set('target')} />
      <FilterField label={t('audit.from')} type="date" value={draft.from} onChange={set('from')} />
      <FilterField label={t('audit.to')} type="date" value={draft.to} onChange={set('to')} />
      <Button variant="primary" block type="submit">
        {t('audit.apply')}
      </Button>
    </form>
  );
}

/** The organisation console's audit log (audit:read): filter, pages, export as CSV or JSON. */
export function AuditLog({ org }: { org: ActiveOrg }) {
  const t = useAuditT();
  const id = useId();
  const sid = org.sec_subject_uid;
  const [filters, setFilters] = useState(EMPTY);
  const pages = useCursorPages();
  const query = queryOf(filters);
  const log = useQuery(auditLogQueryOptions(useAccountClient(), sid, query, pages.cursor));
  const names = log.data?.names ?? {};
  const who = (userId: string | null | undefined) => (userId ? (names[userId] ?? userId) : '—');
  const actorOf = (entry: OrganisationAuditPage['entries'][number]) =>
    entry.actor.userId
      ? who(entry.actor.userId)
      : t(entry.actor.kind === 'anonymous' ? 'audit.anonymous' : 'audit.system');
  return (
    <section className="card audit-log" aria-labelledby={id}>
      <h2 id={id}>{t('audit.log')}</h2>
      <p className="muted">{t('audit.logIntro')}</p>
      <FilterForm
        t={t}
        onApply={(next) => {
          setFilters(next);
          pages.reset();
        }}
      />
      {/* The app's own origin: the passport is served beside it, and the download carries the session. */}
      <p className="audit-export">
        <a href={auditExportUrl('', { sec_subject_uid: sid, ...query, format: 'csv' })} download>
          {t('audit.exportCsv')}
        </a>{' '}
        <a href={auditExportUrl('', { sec_subject_uid: sid, ...query, format: 'json' })} download>
          {t('audit.exportJson')}
        </a>
      </p>
      <AuditTable
        t={t}
        caption={t('audit.log')}
        page={log.data}
        pages={pages}
        columns={[
          { heading: t('audit.actor'), cell: actorOf },
          { heading: t('audit.event'), cell: (entry) => eventText(t, entry) },
          { heading: t('audit.target'), cell: (entry) => who(entry.target_user_id) },
        ]}
      />
    </section>
  );
}
