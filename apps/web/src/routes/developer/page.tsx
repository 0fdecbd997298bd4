import { loginHref } from '@portico/account-pages';
import { ErrorMessage, useAccountLanguage } from '@portico/account-react';
import { defineCall } from '@portico/account-sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { redirect } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { Loading } from '../../components/spinner';
import { accountClient, loadSession } from '../../lib/account';
import { useDeveloperT } from './messages';

type T = ReturnType<typeof useDeveloperT>;

// The developer console's calls, declared here (the web app is their only caller; the server serves
// them, docs/open-authorization.md): not exported from the SDK.
interface ScopeInfo {
  name: string;
  zh: string;
  en: string;
}
interface DeveloperApp {
  client_key: string;
  app_name: string;
  app_icon: string;
  redirect_uris: string[];
  scopes: string[];
  created_at: number;
  authorized_count: number;
}
interface DeveloperApps {
  apps: DeveloperApp[];
  scopes: ScopeInfo[];
}
type WithSecret = DeveloperApp & { client_secret: string };

const listApps = defineCall<object, DeveloperApps, string>('/passport/web/developer/apps/', null, 'GET');
const createApp = defineCall<
  { app_name: string; app_icon?: string; redirect_uris: string; scopes: string },
  WithSecret,
  string
>('/passport/web/developer/apps/create/');
const rotateSecret = defineCall<{ client_key: string }, WithSecret, string>(
  '/passport/web/developer/apps/rotate_secret/',
);
const deleteApp = defineCall<{ client_key: string }, DeveloperApps, string>(
  '/passport/web/developer/apps/delete/',
);

const APPS_KEY = ['developer', 'apps'];

/** Signed out: to login, which comes back here. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/developer'));
  return session;
}

/** The secret, shown once: focus moves to it so that a screen reader reads it out. */
function SecretPanel({ t, app, onDone }: { t: T; app: WithSecret; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card developer-secret" aria-labelledby="developer-secret">
      <h2 id="developer-secret" ref={heading} tabIndex={-1}>
        {t('secretTitle', { name: app.app_name })}
      </h2>
      <p>{t('secretOnce')}</p>
      <dl>
        <dt>{t('clientKey')}</dt>
        <dd>
          <code>{app.client_key}</code>
        </dd>
        <dt>client_secret</dt>
        <dd>
          <code data-testid="client-secret">{app.client_secret}</code>
        </dd>
      </dl>
      <button type="button" className="button button-primary" onClick={onDone}>
        {t('secretDone')}
      </button>
    </section>
  );
}

function RegisterForm({
  t,
  scopes,
  onCreated,
}: {
  t: T;
  scopes: ScopeInfo[];
  onCreated: (app: WithSecret) => void;
}) {
  const language = useAccountLanguage();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const create = useMutation({
    mutationFn: (input: Parameters<typeof createApp>[1]) => createApp(accountClient, input),
    onSuccess: (app) => {
      void queryClient.invalidateQueries({ queryKey: APPS_KEY });
      onCreated(app);
    },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      app_name: String(form.get('app_name') ?? ''),
      redirect_uris: String(form.get('redirect_uris') ?? ''),
      scopes: [...chosen].join(' '),
      ...(form.get('app_icon') ? { app_icon: String(form.get('app_icon')) } : {}),
    });
  }
  const toggle = (name: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  return (
    <section className="card" aria-labelledby="developer-register">
      <h2 id="developer-register">{t('register')}</h2>
      <form className="form" onSubmit={submit}>
        <div className="portico-field">
          <label htmlFor="developer-name">{t('name')}</label>
          <input id="developer-name" name="app_name" required maxLength={64} autoComplete="off" />
        </div>
        <div className="portico-field">
          <label htmlFor="developer-icon">{t('icon')}</label>
          <input
            id="developer-icon"
            name="app_icon"
            type="url"
            pattern="https://.*"
            maxLength={2048}
            autoComplete="off"
          />
        </div>
        <div className="portico-field">
          <label htmlFor="developer-redirects">{t('redirects')}</label>
          <textarea id="developer-redirects" name="redirect_uris" required rows={3} maxLength={8192} />
        </div>
        <fieldset className="developer-scopes">
          <legend>{t('scopes')}</legend>
          {scopes.map((scope) => (
            <div key={scope.name} className="checkbox-field">
              <input
                id={`developer-scope-${scope.name}`}
                type="checkbox"
                checked={scope.name === 'user_info' || chosen.has(scope.name)}
                disabled={scope.name === 'user_info'}
                onChange={(event) => toggle(scope.name, event.target.checked)}
              />
              <label htmlFor={`developer-scope-${scope.name}`}>
                {scope[language]} <code>{scope.name}</code>
              </label>
            </div>
          ))}
        </fieldset>
        <ErrorMessage error={create.error} />
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? t('submitting') : t('submit')}
        </button>
      </form>
    </section>
  );
}

function AppCard({ t, app, onSecret }: { t: T; app: DeveloperApp; onSecret: (app: WithSecret) => void }) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => rotateSecret(accountClient, { client_key: app.client_key }),
    onSuccess: onSecret,
  });
  const remove = useMutation({
    mutationFn: () => deleteApp(accountClient, { client_key: app.client_key }),
    onSuccess: (data) => queryClient.setQueryData(APPS_KEY, data),
  });
  const titleId = `developer-app-${app.client_key}`;
  return (
    <li className="card developer-app" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {app.app_icon ? <img src={app.app_icon} alt="" width={24} height={24} /> : null} {app.app_name}
      </h3>
      <dl>
        <dt>{t('clientKey')}</dt>
        <dd>
          <code>{app.client_key}</code>
        </dd>
        <dt>{t('redirectList')}</dt>
        <dd>{app.redirect_uris.join(', ')}</dd>
        <dt>{t('scopeList')}</dt>
        <dd>{app.scopes.join(', ')}</dd>
      </dl>
      <p>{t('authorized', { count: app.authorized_count })}</p>
      <ErrorMessage error={rotate.error ?? remove.error} />
      <div className="actions">
        <button
          type="button"
          className="button"
          disabled={rotate.isPending}
          onClick={() => window.confirm(t('rotateConfirm', { name: app.app_name })) && rotate.mutate()}
        >
          {t('rotate', { name: app.app_name })}
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={remove.isPending}
          onClick={() => window.confirm(t('removeConfirm', { name: app.app_name })) && remove.mutate()}
        >
          {t('remove', { name: app.app_name })}
        </button>
      </div>
    </li>
  );
}

/** The developer console: register an app, see its key and its secret once, rotate, delete. */
export function Component() {
  const t = useDeveloperT();
  const apps = useQuery({ queryKey: APPS_KEY, queryFn: () => listApps(accountClient, {}) });
  const [secret, setSecret] = useState<WithSecret | null>(null);
  if (apps.isPending) return <Loading label={t('title')} />;
  return (
    <div className="container account-page developer">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <ErrorMessage error={apps.error} />
      {secret ? <SecretPanel t={t} app={secret} onDone={() => setSecret(null)} /> : null}
      {apps.data ? (
        <>
          <RegisterForm t={t} scopes={apps.data.scopes} onCreated={setSecret} />
          <section className="card" aria-labelledby="developer-apps">
            <h2 id="developer-apps">{t('apps')}</h2>
            {apps.data.apps.length === 0 ? (
              <p>{t('empty')}</p>
            ) : (
              <ul className="developer-apps">
                {apps.data.apps.map((app) => (
                  <AppCard key={app.client_key} t={t} app={app} onSecret={setSecret} />
                ))}
              </ul>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
