import { useAccountLanguage } from '@portico/account-react';
import type { AuditEntry } from '@portico/account-sdk';
import { type ReactNode, useState } from 'react';
import { Button } from '../ui/button';
import type { AuditT } from './audit.messages';

/** The events the page names in words; any other type is shown as it is. */
const NAMED = new Set([
  'account.signed_in',
  'account.sign_in_failed',
  'account.session_revoked',
  'account.password_changed',
  'account.password_set',
  'account.username_set',
  'account.password_reset',
  'account.identifier_bound',
  'account.identifier_changed',
  'account.identifier_unbound',
  'account.third_party_linked',
  'account.third_party_unlinked',
  'account.app_authorized',
  'account.app_revoked',
  'account.profile_updated',
  'account.factor_added',
  'account.factor_removed',
  'account.recovery_codes_generated',
  'account.cancellation_requested',
  'account.cancellation_abandoned',
  'account.cancellation_completed',
  'account.change_disowned',
  'account.imported',
  'passkey.added',
  'passkey.removed',
  'organisation.created',
  'organisation.updated',
  'organisation.frozen',
  'organisation.thawed',
  'organisation.second_factor_changed',
  'organisation.member.removed',
  'organisation.member.left',
  'organisation.member.frozen',
  'organisation.member.thawed',
  'organisation.role.created',
  'organisation.role.updated',
  'organisation.role.banned',
  'organisation.role.unbanned',
  'organisation.role.granted',
  'organisation.role.revoked',
  'organisation.member.invited',
  'organisation.invitation.cancelled',
  'organisation.invitation.updated',
  'organisation.invitation.resent',
  'organisation.member.joined',
  'organisation.manager.transfer_started',
  'organisation.manager.transfer_abandoned',
  'organisation.manager.transferred',
  'organisation.domain.added',
  'organisation.domain.verified',
  'organisation.domain.removed',
  'organisation.sso_connection.saved',
  'organisation.sso_connection.removed',
  'organisation.sso_policy.saved',
  'organisation.sso_identity.linked',
  'organisation.member.provisioned',
  'organisation.scim_user.provisioned',
  'organisation.scim_user.updated',
  'organisation.scim_user.deprovisioned',
  'organisation.role.deleted',
]);

const KNOWN_WORDS = new Set([
  'audit.method.password',
  'audit.method.mobileCode',
  'audit.method.emailCode',
  'audit.method.thirdParty',
  'audit.method.qr',
  'audit.method.session',
  'audit.method.totp',
  'audit.method.recoveryCode',
  'audit.method.enterpriseSso',
  'audit.channel.mobile',
  'audit.channel.email',
  'audit.channel.chat',
  'audit.channel.link',
]);

/** An entry's event in words: "Signed in (password)", or its type when the page has no words for it. */
export function eventText(t: AuditT, entry: AuditEntry): string {
  if (!NAMED.has(entry.type)) return entry.type;
  // A sign-in method or channel the page has words for is named in them; anything else as it is.
  const word = (field: 'method' | 'channel', value: string) => {
    const key = `audit.${field}.${value}`;
    return KNOWN_WORDS.has(key) ? t(key as Parameters<AuditT>[0]) : value;
  };
  const values = Object.fromEntries(
    Object.entries(entry.data)
      .filter((pair): pair is [string, string] => typeof pair[1] === 'string')
      .map(([key, value]) => [key, key === 'method' || key === 'channel' ? word(key, value) : value]),
  );
  return t(entry.type as Parameters<AuditT>[0], values);
}

/** When, in the page's language, as a <time> a screen reader reads. */
function When({ at }: { at: number }) {
  const language = useAccountLanguage();
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()}>{date.toLocaleString(language === 'zh' ? 'zh-CN' : 'en-GB')}</time>
  );
}

/** Cursor pages over an audit read ('' is the first page): the cursors up to this one, to go back. */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>(['']);
  const cursor = cursors.at(-1) ?? '';
  return {
    cursor,
    hasNewer: cursors.length > 1,
    older: (next: string) => setCursors((list) => [...list, next]),
    newer: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    reset: () => setCursors(['']),
  };
}

function PageButtons({
  t,
  pages,
  next,
}: {
  t: AuditT;
  pages: ReturnType<typeof useCursorPages>;
  next: string | null | undefined;
}) {
  return (
    <div className="audit-pages">
      {pages.hasNewer && (
        <Button variant="secondary" onClick={pages.newer}>
          {t('audit.newer')}
        </Button>
      )}
      {next && (
        <Button variant="secondary" onClick={() => pages.older(next)}>
          {t('audit.older')}
        </Button>
      )}
    </div>
  );
}

/** One column of an audit table after the time: its heading and how an entry shows in it. */
export interface AuditColumn<E> {
  heading: string;
  cell(entry: E): ReactNode;
}

/**
 * A page of audit entries, the shape the account's recent activity and the organisation's log share:
 * "nothing yet" once loaded and empty, else a table (the time, then `columns`), then the pager.
 */
export function AuditTable<E extends AuditEntry>({
  t,
  caption,
  page,
  columns,
  pages,
}: {
  t: AuditT;
  caption: string;
  page: { entries: E[]; next_cursor?: string | null } | undefined;
  columns: AuditColumn<E>[];
  pages: ReturnType<typeof useCursorPages>;
}) {
  const entries = page?.entries ?? [];
  return (
    <>
      {page && entries.length === 0 && <p>{t('audit.none')}</p>}
      {entries.length > 0 && (
        <table className="audit-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('audit.time')}</th>
              {columns.map((column) => (
                <th key={column.heading} scope="col">
                  {column.heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <When at={entry.occurred_at} />
                </td>
                {columns.map((column) => (
                  <td key={column.heading}>{column.cell(entry)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PageButtons t={t} pages={pages} next={page?.next_cursor} />
    </>
  );
}
