import {
  memberPermissionsQueryOptions,
  membersQueryOptions,
  rolesQueryOptions,
  SubmitButton,
  useAccountClient,
  useAddMember,
  useFreezeMember,
  useRemoveMember,
  useRenameMember,
  useRevokeRole,
} from '@portico/account-react';
import type { Deputy, Role } from '@portico/affiliate-sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import type { SectionProps } from './console-context';
import { useOrgT } from './organisation.messages';
import { Card, Choice, clearingFirst, clearOutcome, Field, Problem } from './parts';
import { usePermissionWords } from './permission-words';

/** One member's roles (each with Take back, confirmed) and effective permissions. */
function MemberDetail({
  sid,
  member,
  roles,
  canAssign,
}: {
  sid: string;
  member: Deputy;
  roles: readonly Role[];
  canAssign: boolean;
}) {
  const t = useOrgT();
  const { words } = usePermissionWords();
  const client = useAccountClient();
  const headingId = useId();
  const permissions = useQuery(memberPermissionsQueryOptions(client, sid, member.user_identity_id));
  const revoke = useRevokeRole(sid);
  const roleName = (key: string) => roles.find((r) => r.role_key === key)?.role_name ?? key;
  return (
    <section className="org-member-detail" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('org.memberRoles', { name: member.deputy_name })}</h3>
      {member.role_keys.length === 0 ? (
        <p className="muted">{t('org.noRoles')}</p>
      ) : (
        <ul>
          {member.role_keys.map((key) => (
            <li key={key}>
              {roleName(key)}{' '}
              {canAssign && (
                <ConfirmButton
                  aria-label={t('org.takeRole.label', { role: roleName(key) })}
                  title={t('org.takeRole.title', { name: member.deputy_name, role: roleName(key) })}
                  description={t('org.takeRole.body', { name: member.deputy_name })}
                  disabled={revoke.isPending}
                  onConfirm={() => {
                    clearOutcome(revoke);
                    revoke.mutate({ role_key: key, sec_user_identity_ids: [member.user_identity_id] });
                  }}
                >
                  {t('org.takeRole')}
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
      <p>
        {t('org.effective')}:{' '}
        {permissions.data
          ? words(permissions.data.permissions, t('org.none'))
          : permissions.isPending
            ? '…'
            : ''}
      </p>
      <Problem error={revoke.error ?? permissions.error} />
    </section>
  );
}

/** The members: rename, freeze, remove (confirmed), their roles and permissions, and inviting one. */
export function Members({ org, can }: SectionProps) {
  const t = useOrgT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const members = useQuery(membersQueryOptions(client, sid));
  const roles = useQuery({ ...rolesQueryOptions(client, sid), enabled: can('role:read') });
  /** A role by its name; its key only while the roles load (or for a caller who may not read them). */
  const roleName = (key: string) => roles.data?.items.find((r) => r.role_key === key)?.role_name ?? key;
  const add = useAddMember(sid);
  const rename = useRenameMember(sid);
  const freeze = useFreezeMember(sid);
  const remove = useRemoveMember(sid);
  const [account, setAccount] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  const [open, setOpen] = useState<string>();
  /** Another action starts, or an input changes: what the last one said is stale. */
  const fresh = () => clearOutcome(add, rename, freeze, remove);
  const freshly = clearingFirst(fresh);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!account || !name || !role) return;
    fresh();
    add.mutate(
      { account, deputy_name: name, role_key: role },
      {
        // An invitation: the person joins when they accept it, so the members do not change yet.
        onSuccess: () => {
          setAccount('');
          setName('');
        },
      },
    );
  }
  const error = add.error ?? rename.error ?? freeze.error ?? remove.error ?? members.error;
  return (
    <Card id="org-members" title={t('org.members')}>
      {members.isPending ? (
        <p aria-busy="true">{t('org.members')}…</p>
      ) : (
        <ul className="org-list">
          {members.data?.items.map((m) => (
            <li key={m.user_identity_id}>
              {renaming?.id === m.user_identity_id ? (
                <form
                  className="org-inline"
                  onSubmit={(e) => {
                    e.preventDefault();
                    fresh();
                    rename.mutate(
                      { user_identity_id: m.user_identity_id, deputy_name: renaming.name },
                      { onSuccess: () => setRenaming(undefined) },
                    );
                  }}
                >
                  <Field
                    label={t('org.memberName')}
                    value={renaming.name}
                    onChange={freshly((v: string) => setRenaming({ id: m.user_identity_id, name: v }))}
                  />
                  <Button variant="primary" type="submit">
                    {t('org.save')}
                  </Button>
                </form>
              ) : (
                <span>
                  {m.deputy_name}
                  {m.is_manager ? ` · ${t('org.manager')}` : ''}
                  {m.awaiting_acceptance
                    ? ` · ${t('org.awaiting')}`
                    : m.is_frozen
                      ? ` · ${t('org.frozen')}`
                      : ''}
                  {m.role_keys.length ? ` · ${m.role_keys.map(roleName).join(t('org.listSeparator'))}` : ''}
                </span>
              )}
              <fieldset className="org-actions" aria-label={t('org.rowActions', { name: m.deputy_name })}>
                <Button
                  variant="secondary"
                  aria-expanded={open === m.user_identity_id}
                  onClick={() => setOpen(open === m.user_identity_id ? undefined : m.user_identity_id)}
                >
                  {open === m.user_identity_id ? t('org.hideDetail') : t('org.showDetail')}
                </Button>
                {(can('member:update') || m.user_identity_id === org.user_identity_id) && !renaming && (
                  <Button
                    variant="secondary"
                    onClick={() => {
                      fresh();
                      setRenaming({ id: m.user_identity_id, name: m.deputy_name });
                    }}
                  >
                    {t('org.rename')}
                  </Button>
                )}
                {/* A pending member thaws only by their own acceptance: no thaw here. */}
                {can('member:freeze') &&
                  !m.is_manager &&
                  !m.awaiting_acceptance &&
                  (m.is_frozen ? (
                    <Button
                      variant="secondary"
                      onClick={() => {
                        fresh();
                        freeze.mutate({ user_identity_id: m.user_identity_id, is_frozen: 0 });
                      }}
                    >
                      {t('org.unfreeze')}
                    </Button>
                  ) : (
                    // Freezing ends the member's sign-ins at once: asked first, as a removal is.
                    <ConfirmButton
                      aria-label={t('org.freeze.label', { name: m.deputy_name })}
                      title={t('org.freeze.title', { name: m.deputy_name })}
                      description={t('org.freeze.body')}
                      onConfirm={() => {
                        fresh();
                        freeze.mutate({ user_identity_id: m.user_identity_id, is_frozen: 1 });
                      }}
                    >
                      {t('org.freeze')}
                    </ConfirmButton>
                  ))}
                {can('member:delete') && !m.is_manager && (
                  <ConfirmButton
                    aria-label={t('org.remove.label', { name: m.deputy_name })}
                    title={t('org.remove.title', { name: m.deputy_name })}
                    description={t('org.remove.body')}
                    onConfirm={() => {
                      fresh();
                      remove.mutate(m.user_identity_id);
                    }}
                  >
                    {t('org.remove')}
                  </ConfirmButton>
                )}
              </fieldset>
              {open === m.user_identity_id && (
                <MemberDetail
                  sid={sid}
                  member={m}
                  roles={roles.data?.items ?? []}
                  canAssign={can('role:assign') && !m.is_manager}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {can('member:create') && can('role:assign') && (
        <form className="form" noValidate onSubmit={submit} aria-labelledby="org-add-member">
          <h3 id="org-add-member">{t('org.addMember')}</h3>
          <Field label={t('org.account')} value={account} onChange={freshly(setAccount)} required />
          <Field label={t('org.memberName')} value={name} onChange={freshly(setName)} required />
          <Choice
            label={t('org.role')}
            value={role}
            onChange={freshly(setRole)}
            placeholder={t('org.chooseRole')}
            required
            options={(roles.data?.items ?? [])
              .filter((r) => !r.is_banned)
              .map((r) => [r.role_key, r.role_name])}
          />
          <p role="status" className="success">
            {add.isSuccess ? t('org.memberInvited') : ''}
          </p>
          <SubmitButton pending={add.isPending}>{t('org.addMember')}</SubmitButton>
        </form>
      )}
      <Problem error={error} />
    </Card>
  );
}
