import {
  membersQueryOptions,
  permissionCatalogueQueryOptions,
  rolesQueryOptions,
  SubmitButton,
  useAccountClient,
  useBanRole,
  useCreateRole,
  useGrantRole,
  useUpdateRole,
} from '@portico/account-react';
import type { Role } from '@portico/affiliate-sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import type { SectionProps } from './console-context';
import { useOrgT } from './organisation.messages';
import { Card, Choice, clearingFirst, clearOutcome, Field, PermissionChecklist, Problem } from './parts';
import { usePermissionWords } from './permission-words';

/** Editing one role's name and permissions; only the caller's own permissions can change. */
function EditRole({
  sid,
  role,
  held,
  onSaved,
  onCancel,
}: {
  sid: string;
  role: Role;
  held: ReadonlySet<string>;
  onSaved(): void;
  onCancel(): void;
}) {
  const t = useOrgT();
  const client = useAccountClient();
  const headingId = useId();
  const catalogue = useQuery(permissionCatalogueQueryOptions(client, sid));
  const update = useUpdateRole(sid);
  const [name, setName] = useState(role.role_name);
  const [granted, setGranted] = useState<string[]>(role.permissions);
  // What may be shown: the statement's permissions (or, until it loads, the caller's and the role's).
  const offered = catalogue.data ?? [...new Set([...held, ...role.permissions])];
  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate({ role_key: role.role_key, role_name: name, permissions: granted }, { onSuccess: onSaved });
  }
  const edited = clearingFirst(() => clearOutcome(update));
  return (
    <form className="form org-edit-role" noValidate onSubmit={submit} aria-labelledby={headingId}>
      <h3 id={headingId}>{t('org.editRole.title', { role: role.role_name })}</h3>
      <Field label={t('org.roleName')} value={name} onChange={edited(setName)} required />
      <PermissionChecklist
        legend={t('org.permissions')}
        offered={offered}
        grantable={held}
        checked={granted}
        onChange={edited(setGranted)}
        hint={t('org.editRole.notYours')}
      />
      <Problem error={update.error} />
      <div className="org-actions">
        <SubmitButton pending={update.isPending}>{t('org.saveRole')}</SubmitButton>
        <Button variant="secondary" onClick={onCancel}>
          {t('org.cancelEdit')}
        </Button>
      </div>
    </form>
  );
}

/** The roles: edit, ban (confirmed) or lift, assign to a member, and create one. */
export function Roles({ org, can }: SectionProps) {
  const t = useOrgT();
  const { words } = usePermissionWords();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const held = new Set(org.permissions);
  const roles = useQuery(rolesQueryOptions(client, sid));
  const members = useQuery({ ...membersQueryOptions(client, sid), enabled: can('member:read') });
  const create = useCreateRole(sid);
  const ban = useBanRole(sid);
  const grant = useGrantRole(sid);
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [granted, setGranted] = useState<string[]>([]);
  const [assign, setAssign] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState<string>();
  const [saved, setSaved] = useState(false);
  /** Another action starts, or an input changes: what the last one said is stale. */
  function fresh() {
    setSaved(false);
    clearOutcome(create, ban, grant);
  }
  const freshly = clearingFirst(fresh);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!key || !name) return;
    fresh();
    create.mutate(
      { role_key: key, role_name: name, permissions: granted },
      {
        onSuccess: () => {
          setKey('');
          setName('');
          setGranted([]);
        },
      },
    );
  }
  return (
    <Card id="org-roles" title={t('org.roles')}>
      <p role="status" className="success">
        {saved ? t('org.roleSaved') : ''}
      </p>
      {roles.isPending ? (
        <p aria-busy="true">{t('org.roles')}…</p>
      ) : (
        <ul className="org-list">
          {roles.data?.items.map((r) => (
            <li key={r.role_key}>
              <span>
                {r.role_name} ({r.role_key}){r.is_banned ? ` · ${t('org.banned')}` : ''} —{' '}
                {words(r.permissions, t('org.none'))}
              </span>
              <fieldset className="org-actions" aria-label={t('org.rowActions', { name: r.role_name })}>
                {can('role:update') && editing !== r.role_key && (
                  <Button
                    variant="secondary"
                    aria-label={t('org.editRole.label', { role: r.role_name })}
                    onClick={() => {
                      fresh();
                      setEditing(r.role_key);
                    }}
                  >
                    {t('org.editRole')}
                  </Button>
                )}
                {can('role:ban') &&
                  (r.is_banned ? (
                    <Button
                      variant="secondary"
                      onClick={() => {
                        fresh();
                        ban.mutate({ role_key: r.role_key, is_banned: 0 });
                      }}
                    >
                      {t('org.unban')}
                    </Button>
                  ) : (
                    <ConfirmButton
                      title={t('org.ban.title', { role: r.role_name })}
                      description={t('org.ban.body')}
                      onConfirm={() => {
                        fresh();
                        ban.mutate({ role_key: r.role_key, is_banned: 1 });
                      }}
                    >
                      {t('org.ban')}
                    </ConfirmButton>
                  ))}
                {can('role:assign') && !r.is_banned && members.data && (
                  <form
                    className="org-inline"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const who = assign[r.role_key];
                      if (!who) return;
                      fresh();
                      grant.mutate({ role_key: r.role_key, sec_user_identity_ids: [who] });
                    }}
                  >
                    <Choice
                      label={`${t('org.assign')}: ${r.role_name}`}
                      value={assign[r.role_key] ?? ''}
                      onChange={freshly((v: string) => setAssign({ ...assign, [r.role_key]: v }))}
                      placeholder={t('org.chooseMember')}
                      options={members.data.items
                        .filter((m) => !m.is_manager)
                        .map((m) => [m.user_identity_id, m.deputy_name])}
                    />
                    <Button variant="primary" type="submit">
                      {t('org.assign')}
                    </Button>
                  </form>
                )}
              </fieldset>
              {editing === r.role_key && (
                <EditRole
                  sid={sid}
                  role={r}
                  held={held}
                  onSaved={() => {
                    setEditing(undefined);
                    setSaved(true);
                  }}
                  onCancel={() => setEditing(undefined)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {can('role:create') && (
        <form className="form" noValidate onSubmit={submit} aria-labelledby="org-create-role">
          <h3 id="org-create-role">{t('org.createRole')}</h3>
          <Field label={t('org.roleKey')} value={key} onChange={freshly(setKey)} required />
          <Field label={t('org.roleName')} value={name} onChange={freshly(setName)} required />
          <PermissionChecklist
            legend={t('org.permissions')}
            offered={org.permissions}
            grantable={held}
            checked={granted}
            onChange={freshly(setGranted)}
          />
          <SubmitButton pending={create.isPending}>{t('org.createRole')}</SubmitButton>
        </form>
      )}
      <Problem error={create.error ?? ban.error ?? grant.error ?? roles.error} />
    </Card>
  );
}
