import { ErrorMessage, useAccountLanguage, useLogout } from '@portico/account-react';
import { decideOpenAuth, getOpenAuthInfo, isAccountError, openConnectResumeUrl } from '@portico/account-sdk';
import type { OpenScopeInfo } from '@portico/account-sdk/protocol';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useEffect, useId, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { CodeLoginForm } from '../forms/code-login-form';
import { PasswordLoginForm } from '../forms/password-login-form';
import type { Language } from '../i18n/define';
import { useAuthConfig } from '../routes/auth-config';
import type { AuthRoutesOptions } from '../routes/auth-options';
import { screenRoute } from '../routes/screen-route';
import { AuthShell } from '../shell/auth-shell';
import { Button } from '../ui/button';
import { Tabs } from '../ui/tabs';
import { useAuthorizationT } from './authorization.messages';

/** The QR tab, with the QR library, loaded when first opened (as on the sign-in screen). */
const QrLoginPanel = lazy(() => import('../qr/qr-login-panel'));

/** The third-party buttons as the route loads them: `next` is where the callback page returns to. */
type ThirdPartyButtons = ComponentType<{ next?: string }>;

type SignInMethod = 'sms' | 'password' | 'qr';

/**
 * An expired question this browser started with the connect redirect can be asked again: the passport
 * keeps that request 60 days in an HttpOnly cookie the page cannot read, and says so (`resumable`).
 */
const isResumable = (error: unknown) => isAccountError(error) && error.data.resumable === true;

function ResumeLink() {
  const t = useAuthorizationT();
  const { client } = useAuthConfig();
  return (
    <a className="button button-primary" href={openConnectResumeUrl(client)}>
      {t('authz.resume')}
    </a>
  );
}

/** Where the browser goes after an answer; a seam for tests, the real page leaves the document. */
const go = (url: string) => globalThis.location.assign(url);

function ScopeSwitch({ scope, on, onToggle }: { scope: OpenScopeInfo; on: boolean; onToggle: () => void }) {
  const language = useAccountLanguage();
  const id = useId();
  return (
    <li className="portico-scope portico-scope-optional">
      <label htmlFor={id}>{language === 'zh' ? scope.zh : scope.en}</label>
      <input
        id={id}
        className="portico-switch"
        type="checkbox"
        role="switch"
        aria-checked={on}
        checked={on}
        onChange={onToggle}
      />
    </li>
  );
}

/** A scope the app requires: its words, with a check mark. */
function ScopeItem({ scope }: { scope: OpenScopeInfo }) {
  const language = useAccountLanguage();
  return (
    <li className="portico-scope">
      <span className="portico-scope-mark" aria-hidden="true">
        ✓
      </span>
      <span>{language === 'zh' ? scope.zh : scope.en}</span>
    </li>
  );
}

/** The browser's first language of zh and en (navigator.languages: what it sends as Accept-Language). */
function browserLanguage(): Language | undefined {
  const nav = globalThis.navigator;
  for (const tag of nav?.languages?.length ? nav.languages : [nav?.language ?? '']) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'zh' || primary === 'en') return primary;
  }
  return undefined;
}

/**
 * The consent page speaks the language the app asked for (`ui_locales`, answered as `ui_language`),
 * else the one the person chose on this site, else the browser's; switched for this visit only, so the
 * app's wish never becomes the person's remembered choice. Needs the app's language store.
 */
function useConsentLanguage(ready: boolean, uiLanguage: Language | undefined) {
  const { languageStore } = useAuthConfig();
  useEffect(() => {
    if (!ready || !languageStore) return;
    const wanted = uiLanguage ?? (languageStore.remembered() ? undefined : browserLanguage());
    if (wanted) languageStore.set(wanted, { remember: false });
  }, [ready, uiLanguage, languageStore]);
}

/**
 * The consent page of open authorization (docs/open-authorization.md): the provider sends a person to
 * `/authorization?interaction=…`. It shows the app asking, its required scopes and each optional scope
 * as a switch, who is signed in (with "not you?"), or the sign-in panel when nobody is; Approve / Deny
 * answer open/web/auth and follow the redirect it returns, back through the provider to the app.
 */
function Authorization({ Buttons }: { Buttons?: ThirdPartyButtons | undefined }) {
  const t = useAuthorizationT();
  const { client } = useAuthConfig();
  const [params] = useSearchParams();
  const location = useLocation();
  const interaction = params.get('interaction') ?? '';
  // This page's own URL: a QR or third-party sign-in comes back here, to the same question, signed in.
  const here = `${location.pathname}${location.search}`;
  const [method, setMethod] = useState<SignInMethod>('sms');
  const [off, setOff] = useState<ReadonlySet<string>>(new Set());
  const info = useQuery({
    queryKey: ['portico', 'open', 'auth-info', interaction],
    queryFn: () => getOpenAuthInfo(client, { interaction }),
    enabled: interaction !== '',
    retry: false,
  });
  const logout = useLogout();
  const decide = useMutation({
    mutationFn: (approve: 0 | 1) =>
      decideOpenAuth(client, {
        interaction,
        approve,
        scope: (info.data?.optionalScope ?? [])
          .map((s) => s.name)
          .filter((name) => !off.has(name))
          .join(','),
      }),
    onSuccess: (answer) => go(answer.redirect_url),
  });
  const signedIn = () => void info.refetch();
  const data = info.data;
  useConsentLanguage(data !== undefined, data?.ui_language);
  const app = data?.app_name ?? '';
  const title = t('authz.title');
  if (!interaction || info.isError) {
    const resumable = isResumable(info.error);
    return (
      <AuthShell title={title} subtitle={t(resumable ? 'authz.expired' : 'authz.missing')}>
        <ErrorMessage error={info.error} />
        {resumable ? <ResumeLink /> : null}
      </AuthShell>
    );
  }
  if (!data)
    return (
      <AuthShell title={title} subtitle={t('authz.loading')}>
        <p role="status">{t('authz.loading')}</p>
      </AuthShell>
    );
  const toggle = (name: string) =>
    setOff((now) => {
      const next = new Set(now);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  return (
    <AuthShell title={title} subtitle={t('authz.subtitle', { app })}>
      <div className="portico-authz-app">
        {data.app_icon ? (
          <img
            className="portico-authz-icon"
            src={data.app_icon}
            alt={t('authz.icon', { app })}
            width={48}
            height={48}
          />
        ) : (
          <span className="portico-authz-icon portico-authz-initial" aria-hidden="true">
            {Array.from(app)[0]?.toUpperCase()}
          </span>
        )}
        <strong className="portico-authz-name">{app}</strong>
      </div>
      <h2 className="portico-authz-heading">{t('authz.required')}</h2>
      <ul className="portico-scopes">
        {data.scope.length ? (
          data.scope.map((s) => <ScopeItem key={s.name} scope={s} />)
        ) : (
          <li className="portico-scope">
            <span className="portico-scope-mark" aria-hidden="true">
              ✓
            </span>
            <span>{t('authz.identityOnly')}</span>
          </li>
        )}
      </ul>
      {data.optionalScope.length ? (
        <>
          <h2 className="portico-authz-heading">{t('authz.optional')}</h2>
          <ul className="portico-scopes">
            {data.optionalScope.map((s) => (
              <ScopeSwitch key={s.name} scope={s} on={!off.has(s.name)} onToggle={() => toggle(s.name)} />
            ))}
          </ul>
        </>
      ) : null}
      {data.user ? (
        <>
          <p className="portico-authz-user">
            {t('authz.signedInAs', { name: data.user.name })}{' '}
            <Button
              variant="ghost"
              size="small"
              onClick={() => logout.mutate(undefined, { onSettled: signedIn })}
            >
              {t('authz.notYou')}
            </Button>
          </p>
          <div className="portico-authz-actions">
            <Button
              variant="primary"
              size="large"
              block
              disabled={decide.isPending}
              onClick={() => decide.mutate(1)}
            >
              {t('authz.approve')}
            </Button>
            <Button variant="secondary" block disabled={decide.isPending} onClick={() => decide.mutate(0)}>
              {t('authz.deny')}
            </Button>
          </div>
          <p className="portico-authz-note muted">{t('authz.revokeNote')}</p>
          <ErrorMessage error={decide.error} />
          {isResumable(decide.error) ? <ResumeLink /> : null}
        </>
      ) : (
        <>
          <h2>{t('authz.signInFirst')}</h2>
          <Tabs<SignInMethod>
            label={t('authz.methods')}
            selected={method}
            onSelect={setMethod}
            items={[
              {
                key: 'sms',
                label: t('authz.tab.sms'),
                panel: (
                  <CodeLoginForm
                    channel="mobile"
                    onSignedIn={signedIn}
                    others={{ methods: ['password'], select: () => setMethod('password') }}
                  />
                ),
              },
              {
                key: 'password',
                label: t('authz.tab.password'),
                panel: <PasswordLoginForm onSignedIn={signedIn} />,
              },
              {
                key: 'qr',
                label: t('authz.tab.qr'),
                panel: (
                  <Suspense fallback={<div className="spinner" aria-hidden="true" />}>
                    <QrLoginPanel next={here} onSignedIn={signedIn} />
                  </Suspense>
                ),
              },
            ]}
          />
          {Buttons ? (
            <Suspense fallback={null}>
              <Buttons next={here} />
            </Suspense>
          ) : null}
        </>
      )}
    </AuthShell>
  );
}

/**
 * The route. With `thirdParty` (the callback pages are mounted then), the buttons of the configured
 * providers are loaded after the page, a chunk of their own, and shown under the sign-in panel.
 */
export const route = (
  options: AuthRoutesOptions,
  buttons?: () => Promise<{ default: ThirdPartyButtons }>,
) => {
  if (!buttons) return screenRoute(options, () => <Authorization />);
  const Buttons = lazy(buttons);
  return screenRoute(options, () => <Authorization Buttons={Buttons} />);
};
