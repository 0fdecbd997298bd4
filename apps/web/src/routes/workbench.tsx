import {
  loginHref,
  NewPasswordFields,
  otherThanPasswordRefusal,
  useAuthT,
  useNewPassword,
} from '@portico/account-pages';
import {
  type AccountInfo,
  ErrorMessage,
  PasswordInput,
  SubmitButton,
  useDevices,
  useForgetDevice,
  useHasPassword,
  useLogout,
  useSession,
  useSetPassword,
  useUpdatePassword,
} from '@portico/account-react';
import type { RememberedDevice } from '@portico/account-sdk';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, redirect, useLoaderData, useLocation } from 'react-router';
import { PageHeader } from '../components/page-header';
import { Loading } from '../components/spinner';
import { useLanguage } from '../i18n/language';
import { useT } from '../i18n/messages';
import { loadSession } from '../lib/account';
import { type WorkbenchT as T, useWorkbenchT } from './workbench.messages';

/** Signed out: to login, which comes back here once signed in. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/workbench'));
  return session;
}

function useDateTime() {
  const language = useLanguage();
  const format = new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (ms: number) => format.format(new Date(ms));
}

function Profile({ t, account }: { t: T; account: AccountInfo }) {
  const when = useDateTime();
  const rows: [string, string][] = [
    [t('workbench.name'), account.screen_name],
    [t('workbench.userId'), account.user_id],
    [t('workbench.mobile'), account.mobile || t('workbench.none')],
    [t('workbench.email'), account.email || t('workbench.none')],
    [t('workbench.username'), account.username || t('workbench.none')],
    [t('workbench.since'), when(account.session.created_at)],
  ];
  return (
    <section className="card" aria-labelledby="workbench-profile">
      <h2 id="workbench-profile">{t('workbench.profile')}</h2>
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Link to="/account/profile">{t('workbench.editProfile')}</Link>
    </section>
  );
}

function SetPassword({ t }: { t: T }) {
  const newPassword = useNewPassword();
  const save = useSetPassword();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (newPassword.check()) save.mutate({ password: newPassword.password });
  }
  return (
    <form noValidate onSubmit={submit} className="form" aria-labelledby="set-password-title">
      <h3 id="set-password-title">{t('workbench.password.set')}</h3>
      <p className="muted">{t('workbench.password.setIntro')}</p>
      <NewPasswordFields state={newPassword} label={t('workbench.password.new')} refusal={save.error} />
      <ErrorMessage error={otherThanPasswordRefusal(save.error)} />
      <SubmitButton pending={save.isPending}>{t('workbench.password.set')}</SubmitButton>
    </form>
  );
}

/** Changing a known password proves the current one (`password/update`). */
function ChangePassword({ t }: { t: T }) {
  const auth = useAuthT();
  const [current, setCurrent] = useState('');
  const [currentProblem, setCurrentProblem] = useState<string>();
  const newPassword = useNewPassword();
  const change = useUpdatePassword();
  function submit(event: FormEvent) {
    event.preventDefault();
    setCurrentProblem(current ? undefined : auth('login.needPassword'));
    if (!newPassword.check() || !current) return;
    const done = () => {
      setCurrent('');
      newPassword.clear();
    };
    change.mutate({ current_password: current, password: newPassword.password }, { onSuccess: done });
  }
  return (
    <form noValidate onSubmit={submit} className="form" aria-labelledby="change-password-title">
      <h3 id="change-password-title">{t('workbench.password.change')}</h3>
      <p className="muted">{t('workbench.password.changeIntro')}</p>
      <PasswordInput
        label={t('workbench.password.current')}
        value={current}
        onChange={setCurrent}
        autoComplete="current-password"
        error={currentProblem}
        required
      />
      <NewPasswordFields state={newPassword} label={t('workbench.password.new')} refusal={change.error} />
      <ErrorMessage error={otherThanPasswordRefusal(change.error)} />
      <p role="status" className="success">
        {change.isSuccess ? t('workbench.password.saved') : ''}
      </p>
      <div className="form-actions">
        <SubmitButton pending={change.isPending}>{t('workbench.password.change')}</SubmitButton>
        <Link to="/reset-password">{t('workbench.password.forgot')}</Link>
      </div>
    </form>
  );
}

function Security({ t, account }: { t: T; account: AccountInfo }) {
  const core = useT();
  const hasPassword = useHasPassword();
  const passwordOn = hasPassword.data ?? account.has_password;
  const methods: [string, boolean][] = [
    [t('workbench.method.sms'), Boolean(account.mobile)],
    [t('workbench.method.email'), Boolean(account.email)],
    [t('workbench.method.password'), passwordOn],
  ];
  return (
    <section className="card" aria-labelledby="workbench-security">
      <h2 id="workbench-security">{t('workbench.security')}</h2>
      <h3>{t('workbench.methods')}</h3>
      <ul className="methods">
        {methods.map(([label, on]) => (
          <li key={label}>
            <span>{label}</span>
            <span className={on ? 'badge badge-on' : 'badge'}>
              {on ? t('workbench.method.on') : t('workbench.method.off')}
            </span>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/account/security">{t('workbench.manageIdentifiers')}</Link>
      </p>
      {hasPassword.isPending && hasPassword.fetchStatus === 'fetching' ? (
        <Loading label={core('loading.app')} />
      ) : passwordOn ? (
        <ChangePassword t={t} />
      ) : (
        <SetPassword t={t} />
      )}
    </section>
  );
}

function DeviceRow({ t, device }: { t: T; device: RememberedDevice }) {
  const when = useDateTime();
  const forget = useForgetDevice();
  const name = device.user_agent || t('workbench.devices.unknown');
  return (
    <li className="device">
      <div>
        <p className="device-name">
          {name}
          {device.current ? <span className="badge badge-on">{t('workbench.devices.current')}</span> : null}
        </p>
        <p className="muted">
          {t('workbench.devices.firstSeen')} {when(device.first_seen_at)} · {t('workbench.devices.lastSeen')}{' '}
          {when(device.last_seen_at)}
        </p>
        <ErrorMessage error={forget.error} />
      </div>
      <button
        type="button"
        className="button button-danger-ghost"
        aria-label={t('workbench.devices.forgetLabel', { device: name })}
        aria-busy={forget.isPending || undefined}
        disabled={forget.isPending}
        onClick={() => forget.mutate({ device_id: device.id })}
      >
        {t('workbench.devices.forget')}
      </button>
    </li>
  );
}

function Devices({ t }: { t: T }) {
  const core = useT();
  const devices = useDevices();
  return (
    <section className="card" aria-labelledby="workbench-devices">
      <h2 id="workbench-devices">{t('workbench.devices')}</h2>
      <p className="muted">{t('workbench.devicesIntro')}</p>
      {devices.isPending ? (
        <Loading label={core('loading.app')} />
      ) : devices.isError ? (
        <ErrorMessage error={devices.error} />
      ) : devices.data.length === 0 ? (
        <p>{t('workbench.devices.empty')}</p>
      ) : (
        <ul className="devices">
          {devices.data.map((device) => (
            <DeviceRow key={device.id} t={t} device={device} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SignOut({ t, logout }: { t: T; logout: ReturnType<typeof useLogout> }) {
  return (
    <section className="card" aria-labelledby="workbench-sign-out">
      <h2 id="workbench-sign-out">{t('workbench.signOut')}</h2>
      <p className="muted">{t('workbench.signOutIntro')}</p>
      <ErrorMessage error={logout.error} />
      <SubmitButton
        type="button"
        className="portico-submit button-secondary"
        pending={logout.isPending}
        onClick={() => logout.mutate()}
      >
        {t('workbench.signOut')}
      </SubmitButton>
    </section>
  );
}

/** The account centre's other pages, as the workbench links them. */
const MORE = [
  ['/account/apps', 'workbench.more.apps'],
  ['/developer', 'workbench.more.developer'],
  ['/org', 'workbench.more.org'],
  ['/workbench/monitoring', 'workbench.more.monitoring'],
] as const;

/** Links to the account centre's other pages. */
function More({ t }: { t: T }) {
  return (
    <section className="card" aria-labelledby="workbench-more">
      <h2 id="workbench-more">{t('workbench.more')}</h2>
      <ul className="link-list">
        {MORE.map(([to, key]) => (
          <li key={to}>
            <Link to={to}>{t(key)}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The signed-in account centre: who you are, how you sign in, trusted devices, sign out. */
export function Component() {
  const t = useWorkbenchT();
  const initial = useLoaderData<typeof loader>();
  const session = useSession();
  const location = useLocation();
  const logout = useLogout();
  // Signed out here: to login. The session can also end while the page is open (signed out in another
  // tab, noticed on focus): to login, coming back here afterwards.
  if (session.data === null || logout.isSuccess)
    return <Navigate to={logout.isIdle ? loginHref(location.pathname) : '/login'} replace />;
  const account = session.data ?? initial;
  return (
    <div className="container workbench">
      <PageHeader title={t('workbench.title')} subtitle={t('workbench.subtitle')} />
      <div className="workbench-grid">
        <Profile t={t} account={account} />
        <Security t={t} account={account} />
        <Devices t={t} />
        <More t={t} />
        <SignOut t={t} logout={logout} />
      </div>
    </div>
  );
}
