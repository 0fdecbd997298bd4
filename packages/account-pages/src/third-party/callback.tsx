import {
  type AccountInfo,
  CodeInput,
  EmailInput,
  ErrorMessage,
  MobileInput,
  SubmitButton,
  useAccountClient,
  useAuthBindLogin,
  useBindAuth,
  useMobileBindLogin,
  useOauthLogin,
  useSendCode,
  useSwitchAuthBind,
} from '@portico/account-react';
import { AccountError, type OAuthNotLinkedData, showOauthMobile } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isCode, isEmail, isMobile } from '../forms/validate';
import { useAuthT } from '../i18n/auth-messages';
import { useAuthConfig } from '../routes/auth-config';
import type { AuthRoutesOptions } from '../routes/auth-options';
import { goOnAfterSignIn } from '../routes/navigation';
import { screenRoute } from '../routes/screen-route';
import { AuthShell } from '../shell/auth-shell';
import { Tabs } from '../ui/tabs';
import { useCallbackT } from './callback.messages';
import { type ThirdPartyT, useProviderName, useThirdPartyT } from './messages';
import { clearIntent, OAUTH_NOT_LINKED, readIntent } from './start';

/** After a sign-in: where the app's policy sends the person (the `next` the tab started with). */
function useFinish() {
  const config = useAuthConfig();
  const navigate = useNavigate();
  return (account: AccountInfo, next: string) =>
    goOnAfterSignIn(config, navigate, account, new URLSearchParams(next ? { next } : {}));
}

const notLinked = (error: unknown): OAuthNotLinkedData | null =>
  error instanceof AccountError && error.error_code === OAUTH_NOT_LINKED
    ? (error.data as unknown as OAuthNotLinkedData)
    : null;

/** Sign in with a code to link the pending profile: by SMS (may create the account) or by e-mail. */
function LinkByCode({
  channel,
  profileKey,
  onSignedIn,
}: {
  channel: 'mobile' | 'email';
  profileKey: string;
  onSignedIn: (account: AccountInfo) => void;
}) {
  const t = useThirdPartyT();
  const auth = useAuthT();
  const type = channel === 'mobile' ? CodeType.mobileLogin : CodeType.emailLogin;
  const valid = channel === 'mobile' ? isMobile : isEmail;
  const need = channel === 'mobile' ? 'login.needMobile' : 'login.needEmail';
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<{ target?: string; code?: string }>({});
  const sender = useSendCode({ channel, type });
  const byMobile = useMobileBindLogin();
  const byEmail = useAuthBindLogin();
  const login = channel === 'mobile' ? byMobile : byEmail;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(valid(target) ? {} : { target: auth(need) }),
      ...(isCode(code) ? {} : { code: auth('login.needCode') }),
    };
    setProblem(found);
    if (found.target || found.code) return;
    const done = { onSuccess: onSignedIn };
    if (channel === 'mobile') byMobile.mutate({ profile_key: profileKey, mobile: target, code, type }, done);
    else byEmail.mutate({ profile_key: profileKey, email: target, code, type }, done);
  }
  return (
    <form noValidate onSubmit={submit} className="form">
      {channel === 'mobile' ? (
        <MobileInput
          value={target}
          onChange={setTarget}
          error={problem.target ?? sender.error}
          hint={t('tp.choice.smsHint')}
          required
        />
      ) : (
        <EmailInput value={target} onChange={setTarget} error={problem.target ?? sender.error} required />
      )}
      <CodeInput
        value={code}
        onChange={setCode}
        error={problem.code}
        onSend={() => {
          if (!valid(target)) return setProblem({ target: auth(need) });
          setProblem({});
          return sender.send(target);
        }}
        sending={sender.isPending}
        cooldown={sender.cooldown}
        sendError={sender.error}
        required
      />
      <ErrorMessage error={login.error} />
      <SubmitButton pending={login.isPending}>{t('tp.choice.link')}</SubmitButton>
    </form>
  );
}

/** The "link or create" choice for an identity no account links yet. */
function LinkOrCreate({
  pending,
  onSignedIn,
  t,
}: {
  pending: OAuthNotLinkedData;
  onSignedIn: (account: AccountInfo) => void;
  t: ThirdPartyT;
}) {
  const client = useAccountClient();
  const create = useOauthLogin();
  const provider = useProviderName()(pending.platform);
  const [channel, setChannel] = useState<'mobile' | 'email'>(pending.email_registered ? 'email' : 'mobile');
  const [mobile, setMobile] = useState('');
  useEffect(() => {
    if (!pending.email_registered) return;
    showOauthMobile(client, { profile_key: pending.profile_key })
      .then((data) => setMobile(String((data as { mobile?: string }).mobile ?? '')))
      .catch(() => {});
  }, [client, pending]);
  const form = (key: 'mobile' | 'email') => (
    <LinkByCode key={key} channel={key} profileKey={pending.profile_key} onSignedIn={onSignedIn} />
  );
  return (
    <AuthShell
      title={t('tp.choice.title', { provider })}
      subtitle={t('tp.choice.subtitle', { provider, name: pending.name || provider })}
    >
      {pending.email_registered ? (
        <p className="third-party-note" role="note">
          {t('tp.choice.emailRegistered', { provider, email: pending.email })}{' '}
          {mobile ? t('tp.choice.emailRegisteredMobile', { mobile }) : null}
        </p>
      ) : null}
      <Tabs<'mobile' | 'email'>
        label={t('tp.choice.methods')}
        selected={channel}
        onSelect={setChannel}
        items={[
          { key: 'mobile', label: t('tp.choice.sms'), panel: form('mobile') },
          { key: 'email', label: t('tp.choice.email'), panel: form('email') },
        ]}
      />
      {pending.email_registered ? null : (
        <section className="third-party-create">
          <p>{t('tp.choice.create')}</p>
          <ErrorMessage error={create.error} />
          <SubmitButton
            pending={create.isPending}
            onClick={() =>
              create.mutate(
                { platform_app_id: pending.platform, profile_key: pending.profile_key, login_only: false },
                { onSuccess: onSignedIn },
              )
            }
            type="button"
          >
            {t('tp.choice.createButton', { provider })}
          </SubmitButton>
        </section>
      )}
    </AuthShell>
  );
}

/**
 * `<provider>-oauth-callback`: exchanges the callback's code as the tab asked (sign in, link, or switch
 * the link). A sign-in of an unlinked identity shows the "link or create" choice.
 */
function OAuthCallback({ provider }: { provider: string }) {
  const t = useThirdPartyT();
  const providerName = useProviderName();
  const said = useCallbackT();
  const { paths } = useAuthConfig();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const finish = useFinish();
  const login = useOauthLogin();
  const bind = useBindAuth();
  const switchBind = useSwitchAuthBind();
  const [intent] = useState(readIntent);
  const started = useRef(false);
  const name = providerName(provider);
  const active = intent.action === 'bind' ? bind : intent.action === 'switch_bind' ? switchBind : login;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    clearIntent();
    const code = search.get('code');
    if (!code) return;
    const input = {
      platform_app_id: provider,
      code,
      state: search.get('state') ?? '',
      ...(search.get('iss') ? { iss: search.get('iss') ?? '' } : {}),
    };
    const back = () => navigate(intent.next || '/', { replace: true });
    if (intent.action === 'bind') bind.mutate(input, { onSuccess: back });
    else if (intent.action === 'switch_bind') switchBind.mutate(input, { onSuccess: back });
    else login.mutate(input, { onSuccess: (account) => finish(account, intent.next) });
  }, [bind, finish, intent, login, navigate, provider, search, switchBind]);

  const pending = notLinked(login.error);
  if (pending) return <LinkOrCreate pending={pending} onSignedIn={(a) => finish(a, intent.next)} t={t} />;
  // The provider's own `error` (access_denied) and `error_description` (in its language) are not shown:
  // the page says in the person's language what happened.
  const providerError = search.get('error');
  // WeChat answers a refusal on the phone with the state alone: no code and no `error`.
  const wechatRefused = provider === 'wechat' && search.has('state') && !search.get('code');
  const refused = providerError
    ? said(providerError === 'access_denied' ? 'tp.cancelled' : 'tp.refused', { provider: name })
    : wechatRefused
      ? said('tp.cancelled', { provider: name })
      : null;
  const failed =
    active.error ?? refused ?? (search.get('code') ? null : said('tp.noResult', { provider: name }));
  return (
    <AuthShell
      title={failed ? t('tp.failed', { provider: name }) : t('tp.working', { provider: name })}
      subtitle=""
    >
      {failed ? (
        <>
          <ErrorMessage error={failed} />
          <Link
            className="button button-secondary"
            to={intent.action === 'login' ? paths.login : intent.next || '/'}
          >
            {t('tp.retry')}
          </Link>
        </>
      ) : (
        <p aria-live="polite">{t('tp.working', { provider: name })}</p>
      )}
    </AuthShell>
  );
}

export const callbackRoute = (options: AuthRoutesOptions, provider: string) =>
  screenRoute(options, () => <OAuthCallback provider={provider} />);
