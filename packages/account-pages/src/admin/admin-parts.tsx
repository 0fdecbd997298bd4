import { ErrorMessage } from '@portico/account-react';
import { type ReactNode, useId } from 'react';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import { TableScroll } from '../ui/table-scroll';
import type { useAdminT } from './admin.messages';

// The pieces every section of the admin console is made of: a query's three states, a list or the
// sentence that says it is empty, a table, a labelled field, paging, a secret shown once and a
// confirmed action. One place each, so the sections read as what they show.

export type T = ReturnType<typeof useAdminT>;

/** A time in ms as `YYYY-MM-DD HH:MM` (UTC): the same on every operator's screen. */
export const when = (ms: number | null | undefined, t: T) =>
  ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 16) : t('never');

export function Loading({ t }: { t: T }) {
  return (
    <p role="status" aria-busy="true">
      {t('loading')}
    </p>
  );
}

/** A query's answer once there is one: "loading" while it is on its way, its error if it failed. */
export function Loaded<D>({
  t,
  query,
  children,
}: {
  t: T;
  query: { isPending: boolean; data: D | null | undefined; error: unknown };
  children: (data: D) => ReactNode;
}) {
  if (query.isPending) return <Loading t={t} />;
  if (!query.data) return <ErrorMessage error={query.error as Parameters<typeof ErrorMessage>[0]['error']} />;
  return children(query.data);
}

/** `children` (a list of `count` things), or the sentence `empty` when there are none. */
export function OrEmpty({ count, empty, children }: { count: number; empty: string; children: ReactNode }) {
  return count === 0 ? <p>{empty}</p> : children;
}

/** A table with a caption read by screen readers, scrolling sideways on a narrow screen. */
export function Table({
  caption,
  headings,
  children,
}: {
  caption: string;
  headings: string[];
  children: ReactNode;
}) {
  return (
    <TableScroll label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}

export function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

/** Back to the first page and on to the next, each shown only when there is somewhere to go. */
export function Paging({
  first,
  next,
}: {
  first?: { label: string; go: () => void } | false;
  next?: { label: string; go: () => void } | false;
}) {
  return (
    <div className="admin-paging">
      {[first, next].map(
        (step) =>
          step && (
            <Button variant="secondary" key={step.label} onClick={step.go}>
              {step.label}
            </Button>
          ),
      )}
    </div>
  );
}

/** Paging by the server's cursor (`''` is the first page): back to the first, on to `next`. */
export function CursorPaging({
  t,
  cursor,
  next,
  onGo,
}: {
  t: T;
  cursor: string;
  next: string | null | undefined;
  onGo: (cursor: string) => void;
}) {
  return (
    <Paging
      first={!!cursor && { label: t('page.first'), go: () => onGo('') }}
      next={!!next && { label: t('page.next'), go: () => onGo(next) }}
    />
  );
}

/** A secret the server shows once (a key, a signing secret), with the warning that names it. */
export function ShownOnce({ warning, secret }: { warning: string; secret: string }) {
  return (
    <div role="status" className="admin-secret">
      <p>{warning}</p>
      <output aria-label={warning}>
        <code>{secret}</code>
      </output>
    </div>
  );
}

/** The console's confirmed actions: each has a label, `.title` (a question) and `.description`. */
export type ConfirmedAction =
  | 'action.ban'
  | 'action.unban'
  | 'action.revoke'
  | 'action.reset'
  | 'orgs.freeze'
  | 'orgs.thaw'
  | 'keys.revoke'
  | 'keys.rotate'
  | 'hooks.disable'
  | 'hooks.delete'
  | 'hooks.rotate';

/** A destructive action behind the confirmation dialog, its texts read from the action's messages. */
export function ConfirmAction({
  t,
  action,
  values,
  onConfirm,
  disabled,
  'aria-label': ariaLabel,
}: {
  t: T;
  action: ConfirmedAction;
  values: Record<string, string>;
  onConfirm: () => void;
  disabled: boolean;
  'aria-label'?: string;
}) {
  return (
    <ConfirmButton
      title={t(`${action}.title` as const, values)}
      description={t(`${action}.description` as const)}
      aria-label={ariaLabel}
      onConfirm={onConfirm}
      disabled={disabled}
    >
      {t(action)}
    </ConfirmButton>
  );
}
