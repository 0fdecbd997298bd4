import { type ComponentType, lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CodeLoginForm } from '../forms/code-login-form';
import { PasswordLoginForm } from '../forms/password-login-form';
import { useAuthT } from '../i18n/auth-messages';
import { useAuthConfig } from '../routes/auth-config';
import type { AuthRoutesOptions, SignInMethod } from '../routes/auth-options';
import { useGoOn } from '../routes/navigation';
import { screenRoute } from '../routes/screen-route';
import { Tabs } from '../ui/tabs';

const TAB_LABEL = {
  sms: 'login.tab.sms',
  email: 'login.tab.email',
  password: 'login.tab.password',
  qr: 'login.tab.qr',
} as const;

/** The QR tab, with the QR library, loaded when first opened (the page's first load stays in budget). */
const QrLoginPanel = lazy(() => import('../qr/qr-login-panel'));

/** The sign-in panel: the app's methods as tabs (one method: its form alone). */
function SignInPanel() {
  const t = useAuthT();
  const { methods } = useAuthConfig();
  const goOn = useGoOn();
  const [search] = useSearchParams();
  const [method, setMethod] = useState<SignInMethod>(methods[0] ?? 'sms');
  const panel = (key: SignInMethod) =>
    key === 'password' ? (
      <PasswordLoginForm onSignedIn={goOn} />
    ) : key === 'qr' ? (
      <Suspense fallback={<div className="spinner" aria-hidden="true" />}>
        <QrLoginPanel next={search.get('next') ?? undefined} onSignedIn={goOn} />
      </Suspense>
    ) : (
      <CodeLoginForm
        key={key}
        channel={key === 'sms' ? 'mobile' : 'email'}
        onSignedIn={goOn}
        others={{ methods, select: setMethod }}
      />
    );
  if (methods.length === 1) return panel(methods[0]!);
  return (
    <Tabs<SignInMethod>
      label={t('login.methods')}
      selected={method}
      onSelect={setMethod}
      items={methods.map((key) => ({ key, label: t(TAB_LABEL[key]), panel: panel(key) }))}
    />
  );
}

/**
 * The route. With `thirdParty`, the buttons of the configured providers are loaded after the panel (a
 * chunk of their own, not in the sign-in page's first load) and shown under it; with `passkeys`, the
 * passkey button and the identifier field's autofill, the same way; with `enterpriseSso`, "sign in with
 * your work e-mail".
 */
export const route = (
  options: AuthRoutesOptions,
  buttons?: () => Promise<{ default: ComponentType }>,
  passkeys?: () => Promise<{ default: ComponentType }>,
  workEmail?: () => Promise<{ default: ComponentType }>,
) => {
  if (!buttons && !passkeys && !workEmail) return screenRoute(options, SignInPanel);
  const Buttons = buttons && lazy(buttons);
  const Passkeys = passkeys && lazy(passkeys);
  const WorkEmail = workEmail && lazy(workEmail);
  return screenRoute(options, () => (
    <>
      <SignInPanel />
      <Suspense fallback={null}>
        {Passkeys ? <Passkeys /> : null}
        {WorkEmail ? <WorkEmail /> : null}
        {Buttons ? <Buttons /> : null}
      </Suspense>
    </>
  ));
};
