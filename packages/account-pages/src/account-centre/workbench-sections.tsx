import {
  type AccountInfo,
  ErrorMessage,
  PasswordInput,
  SubmitButton,
  useAccountLanguage,
  useDevices,
  useForgetDevice,
  useHasPassword,
  type useLogout,
  useSetPassword,
  useUpdatePassword,
} from '@portico/account-react';
import type { RememberedDevice } from '@portico/account-sdk';
import { type FormEvent, type ReactNode, useState } from 'react';
import { NewPasswordFields, otherThanPasswordRefusal, useNewPassword } from '../forms/new-password-fields';
import { useAuthT } from '../i18n/auth-messages';
import { Button } from '../ui/button';
import { type WorkbenchT as T, useWorkbenchT } from './workbench.messages';

/*
 * The workbench's sections: who you are, how you sign in (with setting or changing the password),
 * trusted devices and signing out. The app arranges them and brings the links to its own pages.
 */

function useDateTime() {
  const language = useAccountLanguage();
  const format = new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (ms: number) => format.format(new Date(ms));
}

function Busy({ t }: { t: T }) {
  return (
    <p role="status" aria-busy="true">
      {t('workbench.loading')}
    </p>
  );
}

/** The account's facts; `children` below them (the app's link to edit the profile). */
export function AccountSummary({ account, children }: { account: AccountInfo; children?: ReactNode }) {
  const t = useWorkbenchT();
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
      {children}
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
function ChangePassword({ t, forgot }: { t: T; forgot?: ReactNode }) {
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
        {forgot}
      </div>
    </form>
  );
}

/**
 * How the account signs in, and setting or changing its password. `manage` goes under the methods
 * (the app's link to the identifiers page), `forgot` beside the change (its link to the reset page).
 */
export function SignInMethods({
  account,
  manage,
  forgot,
}: {
  account: AccountInfo;
  manage?: ReactNode;
  forgot?: ReactNode;
}) {
  const t = useWorkbenchT();
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
      {manage}
      {hasPassword.isPending && hasPassword.fetchStatus === 'fetching' ? (
        <Busy t={t} />
      ) : passwordOn ? (
        <ChangePassword t={t} forgot={forgot} />
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
      <Button
        variant="danger-ghost"
        aria-label={t('workbench.devices.forgetLabel', { device: name })}
        aria-busy={forget.isPending || undefined}
        disabled={forget.isPending}
        onClick={() => forget.mutate({ device_id: device.id })}
      >
        {t('workbench.devices.forget')}
      </Button>
    </li>
  );
}

/** The devices that skip second verification, each with Remove. */
export function TrustedDevices() {
  const t = useWorkbenchT();
  const devices = useDevices();
  return (
    <section className="card" aria-labelledby="workbench-devices">
      <h2 id="workbench-devices">{t('workbench.devices')}</h2>
      <p className="muted">{t('workbench.devicesIntro')}</p>
      {devices.isPending ? (
        <Busy t={t} />
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

/** Signing out on this device; the page owns the `useLogout()` (it leaves the page once it succeeds). */
export function SignOutCard({ logout }: { logout: ReturnType<typeof useLogout> }) {
  const t = useWorkbenchT();
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
