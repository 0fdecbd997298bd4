import { ErrorMessage, useAccountClient, waitlistQueryOptions } from '@portico/account-react';
import { isAccountError } from '@portico/account-sdk';
import { ErrorCode } from '@portico/account-sdk/protocol';
import type { ApiScope, AuditEvent, AuditEventsQuery } from '@portico/management/protocol';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { WaitlistEntries } from '../operator/waitlist-entries';
import { Button } from '../ui/button';
import { Tabs } from '../ui/tabs';
import { useAdminT } from './admin.messages';
import {
  apiKeysQueryOptions,
  auditQueryOptions,
  type CreatedApiKey,
  deliveriesQueryOptions,
  organisationDetailQueryOptions,
  organisationsQueryOptions,
  type UserAction,
  useCreateApiKey,
  useCreateWebhook,
  useFreezeOrganisation,
  useRedeliver,
  useRevokeApiKey,
  useRotateApiKey,
  userDetailQueryOptions,
  usersQueryOptions,
  useUpdateWebhook,
  useUserAction,
  useWebhookAction,
  type WebhookAction,
  type WebhookEndpoint,
  webhooksQueryOptions,
} from './admin-calls';
import {
  ConfirmAction,
  type ConfirmedAction,
  CursorPaging,
  Field,
  Loaded,
  Loading,
  OrEmpty,
  Paging,
  ShownOnce,
  type T,
  Table,
  when,
} from './admin-parts';

type Section = 'users' | 'waitlist' | 'organisations' | 'keys' | 'webhooks' | 'audit';

/** The scopes an operator may give a key, in the order the form lists them (the type keeps it whole). */
const SCOPES = [
  'users:read',
  'users:write',
  'organisations:read',
  'organisations:write',
  'audit:read',
  'webhooks:write',
  'apps:read',
  'apps:write',
] as const satisfies readonly ApiScope[];

const notOperator = (error: unknown) =>
  isAccountError(error, 'response') && error.error_code === ErrorCode.notAnOperator;

/** Who acted, as the audit log names them. */
const actorText = (actor: Record<string, string>) =>
  actor.userId ?? (actor.keyId ? `api_key:${actor.keyId}` : (actor.kind ?? ''));

function AuditRows({ t, events, caption }: { t: T; events: AuditEvent[]; caption: string }) {
  return (
    <Table
      caption={caption}
      headings={[t('audit.time'), t('audit.event'), t('audit.who'), t('audit.subject')]}
    >
      {events.map((event) => (
        <tr key={event.id}>
          <td>{when(event.occurred_at, t)}</td>
          <td>{event.type}</td>
          <td>{actorText(event.actor)}</td>
          <td>{event.user_id ?? event.organisation_id ?? ''}</td>
        </tr>
      ))}
    </Table>
  );
}

function UserDetail({ t, id }: { t: T; id: string }) {
  const client = useAccountClient();
  const detail = useQuery(userDetailQueryOptions(client, id));
  const action = useUserAction();
  const [result, setResult] = useState('');
  if (detail.isPending) return <Loading t={t} />;
  if (!detail.data) return <ErrorMessage error={detail.error} />;
  const { user, overview, sessions, linked, audit } = detail.data;
  const who = user.mobile ?? user.email ?? user.username ?? user.id;
  function run(kind: UserAction) {
    setResult('');
    action.mutate(
      { action: kind, id: user.id },
      {
        onSuccess: (data) => {
          const answer = data as Record<string, number | boolean>;
          if (kind === 'revokeSessions') setResult(t('result.revoked', { count: Number(answer.revoked) }));
          else if (kind === 'resetFactors')
            setResult(
              t('result.reset', {
                totp: answer.totp ? t('yes') : t('no'),
                codes: Number(answer.recovery_codes),
                passkeys: Number(answer.passkeys),
              }),
            );
          else setResult(t(kind === 'freeze' ? 'result.frozen' : 'result.unfrozen'));
        },
      },
    );
  }
  const actions: [ConfirmedAction, UserAction][] = [
    user.frozen ? ['action.unban', 'unfreeze'] : ['action.ban', 'freeze'],
    ['action.revoke', 'revokeSessions'],
    ['action.reset', 'resetFactors'],
  ];
  return (
    <section className="card admin-detail" aria-labelledby="admin-user-detail">
      <h3 id="admin-user-detail">
        {t('user.detail')}: {who}
      </h3>
      <dl className="admin-facts">
        <dt>{t('user.id')}</dt>
        <dd>{user.id}</dd>
        <dt>{t('user.mobile')}</dt>
        <dd>{user.mobile ?? t('none')}</dd>
        <dt>{t('user.email')}</dt>
        <dd>{user.email ?? t('none')}</dd>
        <dt>{t('user.username')}</dt>
        <dd>{user.username ?? t('none')}</dd>
        <dt>{t('user.name')}</dt>
        <dd>{user.name}</dd>
        <dt>{t('user.state')}</dt>
        <dd>{user.frozen ? t('user.frozen') : t('user.active')}</dd>
        <dt>{t('user.created')}</dt>
        <dd>{when(user.created_at, t)}</dd>
        <dt>{t('user.password')}</dt>
        <dd>{user.has_password ? t('yes') : t('no')}</dd>
      </dl>
      <div className="admin-actions">
        {actions.map(([label, kind]) => (
          <ConfirmAction
            key={label}
            t={t}
            action={label}
            values={{ who }}
            onConfirm={() => run(kind)}
            disabled={action.isPending}
          />
        ))}
      </div>
      <ErrorMessage error={action.error} />
      <p role="status">{result}</p>

      <h4>{t('user.factors')}</h4>
      <dl className="admin-facts">
        <dt>{t('user.totp')}</dt>
        <dd>{overview.factors.totp ? t('yes') : t('no')}</dd>
        <dt>{t('user.recoveryCodes')}</dt>
        <dd>{overview.factors.recovery_codes}</dd>
        <dt>{t('user.passkeys')}</dt>
        <dd>{overview.factors.passkeys}</dd>
      </dl>

      <h4>{t('user.sessions')}</h4>
      <OrEmpty count={sessions.length} empty={t('user.sessionsEmpty')}>
        <Table
          caption={t('user.sessions')}
          headings={[t('session.handle'), t('session.lastSeen'), t('session.ip'), t('session.agent')]}
        >
          {sessions.map((session) => (
            <tr key={session.id}>
              <td>{session.id}</td>
              <td>{when(session.last_seen_at, t)}</td>
              <td>{session.ip ?? ''}</td>
              <td>{session.user_agent ?? ''}</td>
            </tr>
          ))}
        </Table>
      </OrEmpty>

      <h4>{t('user.devices')}</h4>
      <OrEmpty count={overview.devices.length} empty={t('user.devicesEmpty')}>
        <Table
          caption={t('user.devices')}
          headings={[t('device.firstSeen'), t('session.lastSeen'), t('session.agent')]}
        >
          {overview.devices.map((device) => (
            <tr key={device.id}>
              <td>{when(device.first_seen_at, t)}</td>
              <td>{when(device.last_seen_at, t)}</td>
              <td>{device.user_agent ?? ''}</td>
            </tr>
          ))}
        </Table>
      </OrEmpty>

      <h4>{t('user.linked')}</h4>
      <OrEmpty count={linked.length} empty={t('user.linkedEmpty')}>
        <ul>
          {linked.map((account) => (
            <li key={account.provider}>
              {account.provider}: {account.email ?? account.name ?? ''} ({when(account.linked_at, t)})
            </li>
          ))}
        </ul>
      </OrEmpty>

      <h4>{t('user.organisations')}</h4>
      <OrEmpty count={overview.organisations.length} empty={t('user.organisationsEmpty')}>
        <ul>
          {overview.organisations.map((organisation) => (
            <li key={organisation.id}>
              {organisation.name} — {organisation.member_name}
              {organisation.manager ? ` (${t('user.manager')})` : ''}
            </li>
          ))}
        </ul>
      </OrEmpty>

      <h4>{t('user.trail')}</h4>
      <OrEmpty count={audit.length} empty={t('audit.empty')}>
        <AuditRows t={t} events={audit} caption={t('user.trail')} />
      </OrEmpty>
    </section>
  );
}

function Users({ t }: { t: T }) {
  const client = useAccountClient();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [cursor, setCursor] = useState('');
  const found = useQuery({ ...usersQueryOptions(client, query ?? '', cursor), enabled: query !== null });
  function search(event: FormEvent) {
    event.preventDefault();
    setSelected(null);
    setCursor('');
    setQuery(draft.trim());
  }
  const next = found.data?.next_cursor;
  return (
    <>
      <form className="card admin-search" aria-label={t('users.search')} onSubmit={search}>
        <Field label={t('users.query')}>
          {(id) => <input id={id} type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />}
        </Field>
        <Button variant="primary" type="submit">
          {t('users.find')}
        </Button>
      </form>
      {query === null ? (
        <p>{t('users.prompt')}</p>
      ) : found.isPending ? (
        <Loading t={t} />
      ) : found.error ? (
        <ErrorMessage error={found.error} />
      ) : found.data.users.length === 0 ? (
        <p>{t('users.empty')}</p>
      ) : (
        <Table
          caption={t('tab.users')}
          headings={[t('user.mobile'), t('user.email'), t('user.username'), t('user.state'), t('user.id')]}
        >
          {found.data.users.map((user) => (
            <tr key={user.id} aria-current={user.id === selected ? 'true' : undefined}>
              <td>{user.mobile ?? ''}</td>
              <td>{user.email ?? ''}</td>
              <td>{user.username ?? ''}</td>
              <td>{user.frozen ? t('user.frozen') : t('user.active')}</td>
              <td>
                <Button variant="link" onClick={() => setSelected(user.id)}>
                  {t('users.open', { who: user.mobile ?? user.email ?? user.username ?? user.id })}
                </Button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <CursorPaging t={t} cursor={cursor} next={next} onGo={setCursor} />
      {selected && <UserDetail t={t} id={selected} />}
    </>
  );
}

function Waitlist({ t }: { t: T }) {
  const client = useAccountClient();
  const list = useQuery(waitlistQueryOptions(client));
  return (
    <Loaded t={t} query={list}>
      {(data) => <WaitlistEntries entries={data.entries} />}
    </Loaded>
  );
}

function OrganisationDetail({ t, id }: { t: T; id: string }) {
  const client = useAccountClient();
  const detail = useQuery(organisationDetailQueryOptions(client, id));
  const freeze = useFreezeOrganisation();
  if (detail.isPending) return <Loading t={t} />;
  if (!detail.data) return <ErrorMessage error={detail.error} />;
  const { organisation, members } = detail.data;
  const name = organisation.name;
  return (
    <section className="card admin-detail" aria-labelledby="admin-organisation-detail">
      <h3 id="admin-organisation-detail">
        {t('orgs.detail')}: {name}
      </h3>
      <p>
        {t('user.state')}: {organisation.frozen ? t('user.frozen') : t('user.active')}
      </p>
      <ConfirmAction
        key={organisation.frozen ? 'thaw' : 'freeze'}
        t={t}
        action={organisation.frozen ? 'orgs.thaw' : 'orgs.freeze'}
        values={{ name }}
        onConfirm={() => freeze.mutate({ id, is_frozen: organisation.frozen ? 0 : 1 })}
        disabled={freeze.isPending}
      />
      <ErrorMessage error={freeze.error} />
      <Table
        caption={t('orgs.members')}
        headings={[t('user.name'), t('user.id'), t('orgs.manager'), t('user.state')]}
      >
        {members.map((member) => (
          <tr key={member.id}>
            <td>{member.name}</td>
            <td>{member.user_id}</td>
            <td>{member.manager ? t('yes') : t('no')}</td>
            <td>{member.frozen ? t('user.frozen') : t('user.active')}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

function Organisations({ t }: { t: T }) {
  const client = useAccountClient();
  const [cursor, setCursor] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const page = useQuery(organisationsQueryOptions(client, cursor));
  if (page.isPending) return <Loading t={t} />;
  if (!page.data) return <ErrorMessage error={page.error} />;
  const next = page.data.next_cursor;
  return (
    <>
      <OrEmpty count={page.data.organisations.length} empty={t('orgs.empty')}>
        <Table
          caption={t('tab.organisations')}
          headings={[t('keys.name'), t('orgs.members'), t('user.state'), t('user.created')]}
        >
          {page.data.organisations.map((organisation) => (
            <tr key={organisation.id}>
              <td>
                <Button variant="link" onClick={() => setSelected(organisation.id)}>
                  {t('orgs.open', { name: organisation.name })}
                </Button>
              </td>
              <td>{organisation.members}</td>
              <td>{organisation.frozen ? t('user.frozen') : t('user.active')}</td>
              <td>{when(organisation.created_at, t)}</td>
            </tr>
          ))}
        </Table>
      </OrEmpty>
      <CursorPaging t={t} cursor={cursor} next={next} onGo={setCursor} />
      {selected && <OrganisationDetail t={t} id={selected} />}
    </>
  );
}

function ApiKeys({ t }: { t: T }) {
  const client = useAccountClient();
  const keys = useQuery(apiKeysQueryOptions(client));
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const rotate = useRotateApiKey();
  const [rotated, setRotated] = useState<CreatedApiKey | null>(null);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['users:read']);
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate(
      { name: name.trim(), scopes: scopes.join(' '), ...(days ? { expires_in_days: Number(days) } : {}) },
      { onSuccess: (key) => setCreated(key) },
    );
  }
  return (
    <>
      <form className="card admin-form" aria-label={t('keys.create')} onSubmit={submit}>
        <h3>{t('keys.create')}</h3>
        <Field label={t('keys.name')}>
          {(id) => (
            <input id={id} required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <fieldset>
          <legend>{t('keys.scopes')}</legend>
          {SCOPES.map((scope) => (
            <label key={scope} className="checkbox-field">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))
                }
              />
              {t(`scope.${scope}`)} <code>{scope}</code>
            </label>
          ))}
        </fieldset>
        <Field label={t('keys.expires')}>
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              max={3650}
              inputMode="numeric"
              value={days}
              onChange={(e) => setDays(e.target.value)}
            />
          )}
        </Field>
        <Button
          variant="primary"
          type="submit"
          disabled={create.isPending || scopes.length === 0 || !name.trim()}
        >
          {t('keys.submit')}
        </Button>
        <ErrorMessage error={create.error} />
        {created && <ShownOnce warning={t('keys.shownOnce')} secret={created.key} />}
      </form>
      <ErrorMessage error={revoke.error ?? rotate.error} />
      {rotated && <ShownOnce warning={t('keys.rotated')} secret={rotated.key} />}
      <Loaded t={t} query={keys}>
        {(data) => (
          <OrEmpty count={data.keys.length} empty={t('keys.empty')}>
            <Table
              caption={t('tab.keys')}
              headings={[
                t('keys.name'),
                t('keys.prefix'),
                t('keys.scopes'),
                t('keys.lastUsed'),
                t('keys.expiresAt'),
                t('keys.state'),
              ]}
            >
              {data.keys.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>{key.scopes.join(' ')}</td>
                  <td>{when(key.last_used_at, t)}</td>
                  <td>{key.expires_at ? when(key.expires_at, t) : t('none')}</td>
                  <td>
                    {key.revoked_at ? (
                      t('keys.revoked')
                    ) : (
                      <>
                        <ConfirmAction
                          t={t}
                          action="keys.rotate"
                          values={{ name: key.name }}
                          aria-label={t('keys.rotate.label', { name: key.name })}
                          onConfirm={() => {
                            setRotated(null);
                            rotate.mutate(key.id, { onSuccess: (created) => setRotated(created) });
                          }}
                          disabled={rotate.isPending}
                        />
                        <ConfirmAction
                          t={t}
                          action="keys.revoke"
                          values={{ name: key.name }}
                          aria-label={t('keys.revoke.label', { name: key.name })}
                          onConfirm={() => revoke.mutate(key.id)}
                          disabled={revoke.isPending}
                        />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          </OrEmpty>
        )}
      </Loaded>
    </>
  );
}

function Deliveries({ t, id, url }: { t: T; id: string; url: string }) {
  const client = useAccountClient();
  const [cursor, setCursor] = useState('');
  const page = useQuery(deliveriesQueryOptions(client, id, cursor));
  const redeliver = useRedeliver();
  return (
    <section className="card admin-detail" aria-labelledby="admin-deliveries">
      <h3 id="admin-deliveries">
        {t('hooks.deliveries')}: {url}
      </h3>
      <Button
        variant="secondary"
        onClick={() => page.refetch()}
        disabled={page.isFetching}
        aria-busy={page.isFetching}
      >
        {t('hooks.refresh')}
      </Button>
      <ErrorMessage error={redeliver.error} />
      <Loaded t={t} query={page}>
        {(data) => (
          <OrEmpty count={data.deliveries.length} empty={t('hooks.deliveriesEmpty')}>
            <Table
              caption={t('hooks.deliveries')}
              headings={[
                t('audit.time'),
                t('delivery.event'),
                t('delivery.status'),
                t('delivery.attempts'),
                t('delivery.http'),
                t('delivery.latency'),
                t('delivery.response'),
                t('delivery.redeliver'),
              ]}
            >
              {data.deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>{when(delivery.created_at, t)}</td>
                  <td>{delivery.event_type}</td>
                  <td>{t(`delivery.${delivery.status}`)}</td>
                  <td>{delivery.attempts}</td>
                  <td>{delivery.last_status ?? ''}</td>
                  <td>{delivery.last_latency_ms ?? ''}</td>
                  <td className="admin-excerpt">{delivery.last_response ?? delivery.last_error ?? ''}</td>
                  <td>
                    <Button
                      variant="secondary"
                      aria-label={t('delivery.redeliver.label', { event: delivery.event_type })}
                      disabled={redeliver.isPending}
                      onClick={() => redeliver.mutate({ id, delivery_id: delivery.id })}
                    >
                      {t('delivery.redeliver')}
                    </Button>
                  </td>
                </tr>
              ))}
            </Table>
          </OrEmpty>
        )}
      </Loaded>
      <CursorPaging t={t} cursor={cursor} next={page.data?.next_cursor} onGo={setCursor} />
    </section>
  );
}

/** Changes an endpoint's URL, event types and description. */
function EditWebhook({ t, endpoint, onDone }: { t: T; endpoint: WebhookEndpoint; onDone: () => void }) {
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(endpoint.url);
  const [types, setTypes] = useState(endpoint.event_types.join(' '));
  const [description, setDescription] = useState(endpoint.description);
  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      { id: endpoint.id, url: url.trim(), event_types: types.trim(), description: description.trim() },
      { onSuccess: onDone },
    );
  }
  return (
    <form className="card admin-form" aria-label={t('hooks.edit.title')} onSubmit={submit}>
      <h3>{t('hooks.edit.title')}</h3>
      <Field label={t('hooks.url')}>
        {(id) => <input id={id} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />}
      </Field>
      <Field label={t('hooks.types')}>
        {(id) => <input id={id} value={types} onChange={(e) => setTypes(e.target.value)} />}
      </Field>
      <Field label={t('hooks.description')}>
        {(id) => (
          <input
            id={id}
            maxLength={200}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        )}
      </Field>
      <Button variant="primary" type="submit" disabled={update.isPending}>
        {t('hooks.save')}
      </Button>
      <Button variant="secondary" onClick={onDone}>
        {t('hooks.cancel')}
      </Button>
      <ErrorMessage error={update.error} />
    </form>
  );
}

/** An endpoint's actions: edit, enable or disable, rotate its secret, delete (the last three confirmed). */
function WebhookActions({
  t,
  endpoint,
  onEdit,
  onSecret,
  onDeleted,
}: {
  t: T;
  endpoint: WebhookEndpoint;
  onEdit: () => void;
  onSecret: (secret: string) => void;
  onDeleted: () => void;
}) {
  const act = useWebhookAction();
  const run = (action: WebhookAction) =>
    act.mutate(
      { action, id: endpoint.id },
      {
        onSuccess: (answer) => {
          if (answer.secret) onSecret(answer.secret);
          if (action === 'deleteWebhook') onDeleted();
        },
      },
    );
  const values = { url: endpoint.url };
  return (
    <div className="admin-actions">
      <Button variant="secondary" aria-label={t('hooks.edit.label', values)} onClick={onEdit}>
        {t('hooks.edit')}
      </Button>
      {endpoint.enabled ? (
        <ConfirmAction
          t={t}
          action="hooks.disable"
          values={values}
          onConfirm={() => run('disableWebhook')}
          disabled={act.isPending}
        />
      ) : (
        <Button
          variant="secondary"
          aria-label={t('hooks.enable.label', values)}
          disabled={act.isPending}
          onClick={() => run('enableWebhook')}
        >
          {t('hooks.enable')}
        </Button>
      )}
      <ConfirmAction
        t={t}
        action="hooks.rotate"
        values={values}
        onConfirm={() => run('rotateWebhookSecret')}
        disabled={act.isPending}
      />
      <ConfirmAction
        t={t}
        action="hooks.delete"
        values={values}
        onConfirm={() => run('deleteWebhook')}
        disabled={act.isPending}
      />
      <ErrorMessage error={act.error} />
    </div>
  );
}

function Webhooks({ t }: { t: T }) {
  const client = useAccountClient();
  const endpoints = useQuery(webhooksQueryOptions(client));
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState('');
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState('');
  const [selected, setSelected] = useState<{ id: string; url: string } | null>(null);
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [rotatedSecret, setRotatedSecret] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    setSecret('');
    create.mutate(
      { url: url.trim(), event_types: types.trim(), description: description.trim() },
      { onSuccess: (endpoint) => setSecret(endpoint.secret) },
    );
  }
  return (
    <>
      <form className="card admin-form" aria-label={t('hooks.create')} onSubmit={submit}>
        <h3>{t('hooks.create')}</h3>
        <Field label={t('hooks.url')}>
          {(id) => <input id={id} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <Field label={t('hooks.types')}>
          {(id) => <input id={id} value={types} onChange={(e) => setTypes(e.target.value)} />}
        </Field>
        <Field label={t('hooks.description')}>
          {(id) => (
            <input
              id={id}
              maxLength={200}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        <Button variant="primary" type="submit" disabled={create.isPending}>
          {t('hooks.submit')}
        </Button>
        <ErrorMessage error={create.error} />
        {secret && <ShownOnce warning={t('hooks.secretOnce')} secret={secret} />}
      </form>
      <Loaded t={t} query={endpoints}>
        {(data) => (
          <OrEmpty count={data.endpoints.length} empty={t('hooks.empty')}>
            <Table
              caption={t('tab.webhooks')}
              headings={[
                t('hooks.url'),
                t('hooks.types'),
                t('keys.state'),
                t('hooks.deliveries'),
                t('hooks.actions'),
              ]}
            >
              {data.endpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td>{endpoint.url}</td>
                  <td>{endpoint.event_types.join(' ') || '*'}</td>
                  <td>{endpoint.enabled ? t('hooks.enabled') : t('hooks.disabled')}</td>
                  <td>
                    <Button
                      variant="link"
                      onClick={() => setSelected({ id: endpoint.id, url: endpoint.url })}
                    >
                      {t('hooks.open', { url: endpoint.url })}
                    </Button>
                  </td>
                  <td>
                    <WebhookActions
                      t={t}
                      endpoint={endpoint}
                      onEdit={() => setEditing(endpoint)}
                      onSecret={setRotatedSecret}
                      onDeleted={() => {
                        if (selected?.id === endpoint.id) setSelected(null);
                        if (editing?.id === endpoint.id) setEditing(null);
                      }}
                    />
                  </td>
                </tr>
              ))}
            </Table>
          </OrEmpty>
        )}
      </Loaded>
      {rotatedSecret && <ShownOnce warning={t('hooks.rotated')} secret={rotatedSecret} />}
      {editing && <EditWebhook key={editing.id} t={t} endpoint={editing} onDone={() => setEditing(null)} />}
      {selected && <Deliveries key={selected.id} t={t} id={selected.id} url={selected.url} />}
    </>
  );
}

const AUDIT_FIELDS = ['type', 'actor', 'user', 'organisation'] as const;

function AuditLog({ t }: { t: T }) {
  const client = useAccountClient();
  const [draft, setDraft] = useState<AuditEventsQuery>({});
  const [filters, setFilters] = useState<AuditEventsQuery>({});
  // The cursors of the pages before this one: "older" pushes, "newest" starts again.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const page = useQuery(auditQueryOptions(client, { ...filters, ...(cursor ? { cursor } : {}) }));
  function apply(event: FormEvent) {
    event.preventDefault();
    setCursors([]);
    setFilters(Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, String(v).trim()])));
  }
  const next = page.data?.next_cursor;
  return (
    <>
      <form className="card admin-form admin-filters" aria-label={t('audit.filters')} onSubmit={apply}>
        {AUDIT_FIELDS.map((field) => (
          <Field key={field} label={t(`audit.${field}`)}>
            {(id) => (
              <input
                id={id}
                value={String(draft[field] ?? '')}
                onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
              />
            )}
          </Field>
        ))}
        <Button variant="primary" type="submit">
          {t('audit.apply')}
        </Button>
      </form>
      <Loaded t={t} query={page}>
        {(data) => (
          <OrEmpty count={data.events.length} empty={t('audit.empty')}>
            <AuditRows t={t} events={data.events} caption={t('tab.audit')} />
          </OrEmpty>
        )}
      </Loaded>
      <Paging
        first={cursors.length > 0 && { label: t('audit.newest'), go: () => setCursors([]) }}
        next={!!next && { label: t('audit.older'), go: () => setCursors([...cursors, next]) }}
      />
    </>
  );
}

/**
 * The admin console (below the page's heading): users, the waitlist, organisations, API keys,
 * webhooks and the audit log, as tabs; `monitoringLink` is the app's link to its monitoring dashboard.
 * Its first call tells who may use it: anyone but an operator is told the console is not theirs; an
 * operator whose step-up is not fresh gets the step-up dialog first.
 */
export function AdminConsole({ monitoringLink }: { monitoringLink?: ReactNode }) {
  const t = useAdminT();
  const client = useAccountClient();
  const [section, setSection] = useState<Section>('users');
  // Two doors: the key list tells an operator from anyone else without a step-up (nobody else is asked
  // to prove anything), then the audit log's first page needs the fresh step-up every console call
  // needs, so the dialog comes once, on entry, not in the middle of a task.
  const operator = useQuery(apiKeysQueryOptions(client));
  const stepUp = useQuery({ ...auditQueryOptions(client, {}), enabled: operator.isSuccess, retry: false });
  if (operator.isPending) return <Loading t={t} />;
  if (notOperator(operator.error)) return <p>{t('notOperator')}</p>;
  if (operator.error) return <ErrorMessage error={operator.error} />;
  if (stepUp.isPending) return <Loading t={t} />;
  if (stepUp.error)
    return (
      <>
        <ErrorMessage error={stepUp.error} />
        <Button variant="primary" onClick={() => stepUp.refetch()}>
          {t('retry')}
        </Button>
      </>
    );
  const items = (
    [
      ['users', <Users key="users" t={t} />],
      ['waitlist', <Waitlist key="waitlist" t={t} />],
      ['organisations', <Organisations key="organisations" t={t} />],
      ['keys', <ApiKeys key="keys" t={t} />],
      ['webhooks', <Webhooks key="webhooks" t={t} />],
      ['audit', <AuditLog key="audit" t={t} />],
    ] as const
  ).map(([key, panel]) => ({ key, label: t(`tab.${key}`), panel }));
  return (
    <div className="admin-console">
      {monitoringLink && <p className="admin-monitoring">{monitoringLink}</p>}
      <Tabs label={t('sections')} items={items} selected={section} onSelect={setSection} />
    </div>
  );
}
