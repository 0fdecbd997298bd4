import {
  type DeveloperApp,
  type DeveloperScope,
  developerAppsQueryOptions,
  ErrorMessage,
  useAccountClient,
  useAccountLanguage,
  useDeleteDeveloperApp,
  useRegisterDeveloperApp,
  useRotateDeveloperSecret,
  type DeveloperAppWithSecret as WithSecret,
} from '@portico/account-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button, buttonClass } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import { EmptyState } from '../ui/empty-state';
import { useDeveloperT } from './developer.messages';

type T = ReturnType<typeof useDeveloperT>;

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
      <Button variant="primary" onClick={onDone}>
        {t('secretDone')}
      </Button>
    </section>
  );
}

function RegisterForm({
  t,
  scopes,
  onCreated,
}: {
  t: T;
  scopes: DeveloperScope[];
  onCreated: (app: WithSecret) => void;
}) {
  const language = useAccountLanguage();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const create = useRegisterDeveloperApp();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate(
      {
        app_name: String(form.get('app_name') ?? ''),
        redirect_uris: String(form.get('redirect_uris') ?? ''),
        scopes: [...chosen].join(' '),
        ...(form.get('app_icon') ? { app_icon: String(form.get('app_icon')) } : {}),
      },
      { onSuccess: onCreated },
    );
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
        <Button variant="primary" type="submit" disabled={create.isPending}>
          {create.isPending ? t('submitting') : t('submit')}
        </Button>
      </form>
    </section>
  );
}

function AppCard({
  t,
  app,
  scopes,
  onSecret,
}: {
  t: T;
  app: DeveloperApp;
  scopes: readonly DeveloperScope[];
  onSecret: (app: WithSecret) => void;
}) {
  const language = useAccountLanguage();
  /** A scope in words; its name only for one the server no longer offers. */
  const scopeWord = (name: string) => scopes.find((scope) => scope.name === name)?.[language] ?? name;
  const rotate = useRotateDeveloperSecret();
  const remove = useDeleteDeveloperApp();
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
        <dd>{app.scopes.map(scopeWord).join(t('separator'))}</dd>
      </dl>
      <p>{t('authorized', { count: app.authorized_count })}</p>
      <ErrorMessage error={rotate.error ?? remove.error} />
      <div className="actions">
        <ConfirmButton
          title={t('rotateTitle', { name: app.app_name })}
          description={t('rotateConfirm')}
          confirmLabel={t('rotateAction')}
          disabled={rotate.isPending}
          onConfirm={() => rotate.mutate(app.client_key, { onSuccess: onSecret })}
        >
          {t('rotate', { name: app.app_name })}
        </ConfirmButton>
        <ConfirmButton
          className={buttonClass('danger')}
          title={t('removeTitle', { name: app.app_name })}
          description={t('removeConfirm')}
          confirmLabel={t('removeAction')}
          disabled={remove.isPending}
          onConfirm={() => remove.mutate(app.client_key)}
        >
          {t('remove', { name: app.app_name })}
        </ConfirmButton>
      </div>
    </li>
  );
}

/**
 * The developer console (below the page's heading): register an app, see its key and its secret once,
 * rotate, delete.
 */
export function DeveloperConsole() {
  const t = useDeveloperT();
  const client = useAccountClient();
  const apps = useQuery(developerAppsQueryOptions(client));
  const [secret, setSecret] = useState<WithSecret | null>(null);
  if (apps.isPending)
    return (
      <p role="status" aria-busy="true">
        {t('title')}…
      </p>
    );
  return (
    <>
      <ErrorMessage error={apps.error} />
      {secret ? <SecretPanel t={t} app={secret} onDone={() => setSecret(null)} /> : null}
      {apps.data ? (
        <>
          <RegisterForm t={t} scopes={apps.data.scopes} onCreated={setSecret} />
          <section className="card" aria-labelledby="developer-apps">
            <h2 id="developer-apps">{t('apps')}</h2>
            {apps.data.apps.length === 0 ? (
              <EmptyState>{t('empty')}</EmptyState>
            ) : (
              <ul className="developer-apps">
                {apps.data.apps.map((app) => (
                  <AppCard
                    key={app.client_key}
                    t={t}
                    app={app}
                    scopes={apps.data.scopes}
                    onSecret={setSecret}
                  />
                ))}
              </ul>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}
