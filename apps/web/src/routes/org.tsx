import { IdentityPicker, loginHref } from '@portico/account-pages';
import { type AccountInfo, ErrorMessage, SubmitButton, useSession } from '@portico/account-react';
import * as aff from '@portico/affiliate-sdk';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Navigate, redirect, useLoaderData, useLocation } from 'react-router';
import { PageHeader } from '../components/page-header';
import { Loading } from '../components/spinner';
import { accountClient as client, loadSession, queryClient } from '../lib/account';
import { type OrgT, useOrgT } from './org.messages';
import { AuditLog } from './org-audit';
import { Invitations, ManagerTransfer } from './org-invitations';

/**
 * The organisation console (issue 12): create an organisation, pick the identity to act as, and, as an
 * organisation identity, what its permissions allow — members (add with a role, rename, freeze,
 * remove), roles (create, ban, assign), a member's permissions with their explanation, and the
 * organisation's frozen state. The server decides every permission; the page only hides what the
 * active identity's `org.permissions` (from account/info) cannot do.
 */

type Org = NonNullable<AccountInfo['org']>;

/** Signed out: to login, which comes back here once signed in. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/org'));
  return session;
}

/**
 * An organisation failure (16xx) in the server's own words (its `description`, in the page's language:
 * the account SDK's catalogue does not hold the 16xx texts), anything else as the account SDK words it.
 */
const Problem = ({ error }: { error: unknown }) => {
  const description = (error as { kind?: string; description?: unknown } | null)?.description;
  return <ErrorMessage error={typeof description === 'string' && description ? description : error} />;
};

/** After any change: every query again (the identity, lists and permissions may all have moved). */
const refresh = () => queryClient.invalidateQueries();

function Field({
  label,
  value,
  onChange,
  required,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} required={required} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

function Choice({
  label,
  value,
  onChange,
  options,
  placeholder,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  options: [string, string][];
  placeholder: string;
}) {
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} required>
        <option value="">{placeholder}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function CreateOrganisation({ t }: { t: OrgT }) {
  const [subjectName, setSubjectName] = useState('');
  const [deputyName, setDeputyName] = useState('');
  const create = useMutation({
    mutationFn: () =>
      aff.createSubjectByMobile(client, { subject_name: subjectName, deputy_name: deputyName }),
    onSuccess: () => {
      setSubjectName('');
      setDeputyName('');
      return refresh();
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (subjectName && deputyName) create.mutate();
  }
  return (
    <Card id="org-create" title={t('org.create')}>
      <form className="form" noValidate onSubmit={submit}>
        <p className="muted">{t('org.createIntro')}</p>
        <Field label={t('org.subjectName')} value={subjectName} onChange={setSubjectName} required />
        <Field label={t('org.deputyName')} value={deputyName} onChange={setDeputyName} required />
        <Problem error={create.error} />
        <p role="status" className="success">
          {create.isSuccess ? t('org.created') : ''}
        </p>
        <SubmitButton pending={create.isPending}>{t('org.create')}</SubmitButton>
      </form>
    </Card>
  );
}

function Members({ t, org, can }: { t: OrgT; org: Org; can(p: string): boolean }) {
  const sid = org.sec_subject_uid;
  const members = useQuery({
    queryKey: ['org', sid, 'members'],
    queryFn: () => aff.listDeputies(client, { sec_subject_uid: sid, page_size: 100 }),
  });
  const roles = useQuery({
    queryKey: ['org', sid, 'roles'],
    queryFn: () => aff.listRoles(client, { subject_uid: sid, page_size: 100 }),
    enabled: can('role:read'),
  });
  const act = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: refresh });
  const [account, setAccount] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [invited, setInvited] = useState(false);
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  function add(event: FormEvent) {
    event.preventDefault();
    if (!account || !name || !role) return;
    setInvited(false);
    act.mutate(() =>
      aff
        .createUserWithRole(client, { subject_uid: sid, account, deputy_name: name, role_key: role })
        .then(() => {
          // An invitation: the person joins when they accept it, so the list does not change yet.
          setInvited(true);
          setAccount('');
          setName('');
        }),
    );
  }
  return (
    <Card id="org-members" title={t('org.members')}>
      {members.isPending ? (
        <Loading label={t('org.members')} />
      ) : (
        <ul className="org-list">
          {members.data?.items.map((m) => (
            <li key={m.user_identity_id}>
              {renaming?.id === m.user_identity_id ? (
                <form
                  className="org-inline"
                  onSubmit={(e) => {
                    e.preventDefault();
                    act.mutate(() =>
                      aff
                        .updateDeputy(client, {
                          sec_subject_uid: sid,
                          user_identity_id: m.user_identity_id,
                          deputy_name: renaming.name,
                        })
                        .then(() => setRenaming(undefined)),
                    );
                  }}
                >
                  <Field
                    label={t('org.memberName')}
                    value={renaming.name}
                    onChange={(v) => setRenaming({ id: m.user_identity_id, name: v })}
                  />
                  <button type="submit">{t('org.save')}</button>
                </form>
              ) : (
                <span>
                  {m.deputy_name}
                  {m.is_manager ? ` · ${t('org.manager')}` : ''}
                  {m.is_frozen ? ` · ${t('org.frozen')}` : ''}
                  {m.role_keys.length ? ` · ${m.role_keys.join(', ')}` : ''}
                </span>
              )}
              <fieldset className="org-actions" aria-label={t('org.rowActions', { name: m.deputy_name })}>
                {(can('member:update') || m.user_identity_id === org.user_identity_id) && !renaming && (
                  <button
                    type="button"
                    className="button-secondary"
                    onClick={() => setRenaming({ id: m.user_identity_id, name: m.deputy_name })}
                  >
                    {t('org.rename')}
                  </button>
                )}
                {can('member:freeze') && !m.is_manager && (
                  <button
                    type="button"
                    className="button-secondary"
                    onClick={() =>
                      act.mutate(() =>
                        aff.freezeDeputy(client, {
                          sec_subject_uid: sid,
                          user_identity_id: m.user_identity_id,
                          is_frozen: m.is_frozen ? 0 : 1,
                        }),
                      )
                    }
                  >
                    {m.is_frozen ? t('org.unfreeze') : t('org.freeze')}
                  </button>
                )}
                {can('member:delete') && !m.is_manager && (
                  <button
                    type="button"
                    className="button-secondary"
                    onClick={() =>
                      act.mutate(() =>
                        aff.deleteDeputy(client, {
                          sec_subject_uid: sid,
                          user_identity_id: m.user_identity_id,
                        }),
                      )
                    }
                  >
                    {t('org.remove')}
                  </button>
                )}
              </fieldset>
            </li>
          ))}
        </ul>
      )}
      {can('member:create') && can('role:assign') && (
        <form className="form" noValidate onSubmit={add} aria-labelledby="org-add-member">
          <h3 id="org-add-member">{t('org.addMember')}</h3>
          <Field label={t('org.account')} value={account} onChange={setAccount} required />
          <Field label={t('org.memberName')} value={name} onChange={setName} required />
          <Choice
            label={t('org.role')}
            value={role}
            onChange={setRole}
            placeholder={t('org.chooseRole')}
            options={(roles.data?.items ?? [])
              .filter((r) => !r.is_banned)
              .map((r) => [r.role_key, r.role_name])}
          />
          <p role="status" className="success">
            {invited ? t('org.memberInvited') : ''}
          </p>
          <SubmitButton pending={act.isPending}>{t('org.addMember')}</SubmitButton>
        </form>
      )}
      <Problem error={act.error ?? members.error} />
    </Card>
  );
}

function Roles({ t, org, can }: { t: OrgT; org: Org; can(p: string): boolean }) {
  const sid = org.sec_subject_uid;
  const roles = useQuery({
    queryKey: ['org', sid, 'roles'],
    queryFn: () => aff.listRoles(client, { subject_uid: sid, page_size: 100 }),
  });
  const members = useQuery({
    queryKey: ['org', sid, 'members'],
    queryFn: () => aff.listDeputies(client, { sec_subject_uid: sid, page_size: 100 }),
    enabled: can('member:read'),
  });
  const act = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: refresh });
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [granted, setGranted] = useState<string[]>([]);
  const [assign, setAssign] = useState<Record<string, string>>({});
  function create(event: FormEvent) {
    event.preventDefault();
    if (!key || !name) return;
    act.mutate(() =>
      aff
        .createRole(client, { subject_uid: sid, role_key: key, role_name: name, permissions: granted })
        .then(() => {
          setKey('');
          setName('');
          setGranted([]);
        }),
    );
  }
  return (
    <Card id="org-roles" title={t('org.roles')}>
      {roles.isPending ? (
        <Loading label={t('org.roles')} />
      ) : (
        <ul className="org-list">
          {roles.data?.items.map((r) => (
            <li key={r.role_key}>
              <span>
                {r.role_name} ({r.role_key}){r.is_banned ? ` · ${t('org.banned')}` : ''} —{' '}
                {r.permissions.join(', ') || t('org.none')}
              </span>
              <fieldset className="org-actions" aria-label={t('org.rowActions', { name: r.role_name })}>
                {can('role:ban') && (
                  <button
                    type="button"
                    className="button-secondary"
                    onClick={() =>
                      act.mutate(() =>
                        aff.banRole(client, {
                          subject_uid: sid,
                          role_key: r.role_key,
                          is_banned: r.is_banned ? 0 : 1,
                        }),
                      )
                    }
                  >
                    {r.is_banned ? t('org.unban') : t('org.ban')}
                  </button>
                )}
                {can('role:assign') && !r.is_banned && members.data && (
                  <form
                    className="org-inline"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const who = assign[r.role_key];
                      if (who)
                        act.mutate(() =>
                          aff.addUserRoles(client, {
                            subject_uid: sid,
                            role_key: r.role_key,
                            sec_user_identity_ids: [who],
                          }),
                        );
                    }}
                  >
                    <Choice
                      label={`${t('org.assign')}: ${r.role_name}`}
                      value={assign[r.role_key] ?? ''}
                      onChange={(v) => setAssign({ ...assign, [r.role_key]: v })}
                      placeholder={t('org.chooseMember')}
                      options={members.data.items
                        .filter((m) => !m.is_manager)
                        .map((m) => [m.user_identity_id, m.deputy_name])}
                    />
                    <button type="submit">{t('org.assign')}</button>
                  </form>
                )}
              </fieldset>
            </li>
          ))}
        </ul>
      )}
      {can('role:create') && (
        <form className="form" noValidate onSubmit={create} aria-labelledby="org-create-role">
          <h3 id="org-create-role">{t('org.createRole')}</h3>
          <Field label={t('org.roleKey')} value={key} onChange={setKey} required />
          <Field label={t('org.roleName')} value={name} onChange={setName} required />
          <fieldset className="org-permissions">
            <legend>{t('org.permissions')}</legend>
            {org.permissions.map((p) => (
              <label key={p}>
                <input
                  type="checkbox"
                  checked={granted.includes(p)}
                  onChange={(e) =>
                    setGranted(e.target.checked ? [...granted, p] : granted.filter((g) => g !== p))
                  }
                />{' '}
                {p}
              </label>
            ))}
          </fieldset>
          <SubmitButton pending={act.isPending}>{t('org.createRole')}</SubmitButton>
        </form>
      )}
      <Problem error={act.error ?? roles.error} />
    </Card>
  );
}

function Explain({ t, org, can }: { t: OrgT; org: Org; can(p: string): boolean }) {
  const sid = org.sec_subject_uid;
  const members = useQuery({
    queryKey: ['org', sid, 'members'],
    queryFn: () => aff.listDeputies(client, { sec_subject_uid: sid, page_size: 100 }),
    enabled: can('member:read'),
  });
  const [who, setWho] = useState(org.user_identity_id);
  const [permission, setPermission] = useState('');
  const explain = useMutation({
    mutationFn: () => aff.explainPermission(client, { subject_uid: sid, identity_id: who, permission }),
  });
  const resources = useQuery({
    queryKey: ['org', sid, 'resources'],
    queryFn: () => aff.resourceList(client, { subject_uid: sid, page_size: 100 }),
  });
  const all = (resources.data?.items ?? []).flatMap((r) => r.actions.map((a) => `${r.resource}:${a}`));
  const people: [string, string][] = members.data
    ? members.data.items.map((m) => [m.user_identity_id, m.deputy_name])
    : [[org.user_identity_id, org.deputy_name]];
  const nameOf = (id: string) => people.find(([i]) => i === id)?.[1] ?? id;
  return (
    <Card id="org-explain" title={t('org.explain')}>
      <p>
        {t('org.myPermissions')}: {org.permissions.join(', ') || t('org.none')}
      </p>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (who && permission) explain.mutate();
        }}
      >
        <p className="muted">{t('org.explainIntro')}</p>
        <Choice
          label={t('org.member')}
          value={who}
          onChange={setWho}
          placeholder={t('org.chooseMember')}
          options={people}
        />
        <Choice
          label={t('org.permission')}
          value={permission}
          onChange={setPermission}
          placeholder={t('org.permission')}
          options={all.map((p) => [p, p])}
        />
        <SubmitButton pending={explain.isPending}>{t('org.check')}</SubmitButton>
      </form>
      {explain.data && (
        <div role="status" className="org-explanation">
          <p>
            <strong>
              {t(explain.data.granted ? 'org.granted' : 'org.notGranted', {
                name: nameOf(explain.data.user_identity_id),
                permission: explain.data.permission,
              })}
            </strong>
          </p>
          {explain.data.by_manager && <p>{t('org.byManager')}</p>}
          <ul>
            {explain.data.roles.map((r) => (
              <li key={r.role_key}>
                {t('org.byRole', { role: r.role_name, entries: r.permissions.join(', ') })}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Problem error={explain.error} />
    </Card>
  );
}

function Settings({ t, org }: { t: OrgT; org: Org }) {
  const freeze = useMutation({
    mutationFn: () =>
      aff.freezeSubject(client, {
        sec_subject_uid: org.sec_subject_uid,
        is_frozen: org.subject_is_frozen ? 0 : 1,
      }),
    onSuccess: refresh,
  });
  return (
    <Card id="org-settings" title={t('org.settings')}>
      {org.subject_is_frozen ? <p>{t('org.subjectFrozen')}</p> : null}
      <Problem error={freeze.error} />
      <SubmitButton
        type="button"
        className="portico-submit button-secondary"
        pending={freeze.isPending}
        onClick={() => freeze.mutate()}
      >
        {org.subject_is_frozen ? t('org.unfreezeSubject') : t('org.freezeSubject')}
      </SubmitButton>
    </Card>
  );
}

export function Component() {
  const t = useOrgT();
  const initial = useLoaderData<typeof loader>();
  const session = useSession();
  const location = useLocation();
  if (session.data === null) return <Navigate to={loginHref(location.pathname)} replace />;
  const account = session.data ?? initial;
  const org = account.org;
  const held = new Set(org?.permissions ?? []);
  const can = (p: string) => held.has(p);
  return (
    <div className="container workbench">
      <PageHeader title={t('org.title')} subtitle={t('org.subtitle')} />
      <div className="workbench-grid">
        <IdentityPicker client={client} />
        {!org && <CreateOrganisation t={t} />}
        {org && !org.is_frozen && <Members t={t} org={org} can={can} />}
        {org && !org.is_frozen && can('role:read') && <Roles t={t} org={org} can={can} />}
        {org && !org.is_frozen && <Explain t={t} org={org} can={can} />}
        {org?.is_manager && <Settings t={t} org={org} />}
        {org && !org.is_frozen && (can('invitation:create') || can('invitation:read')) && (
          <Invitations org={org} can={can} />
        )}
        {org && !org.is_frozen && <ManagerTransfer org={org} />}
        {org && can('audit:read') && <AuditLog org={org} />}
      </div>
    </div>
  );
}
