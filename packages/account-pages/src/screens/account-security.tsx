import {
  type AccountInfo,
  CodeInput,
  EmailInput,
  ErrorMessage,
  MobileInput,
  PasswordInput,
  SubmitButton,
  useBindEmail,
  useBindMobile,
  useChangeEmail,
  useChangeMobile,
  useSendCode,
  useSetAccount,
  useVerifyIdentity,
  useVerifyPassword,
} from '@portico/account-react';
import type { CodeChannel } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { NewPasswordFields, otherThanPasswordRefusal, useNewPassword } from '../forms/new-password-fields';
import { isCode, isEmail, isMobile } from '../forms/validate';
import { PasskeysSection } from '../passkeys/passkeys-section';
import { Button } from '../ui/button';
import { type SecurityT, useSecurityT } from './account-security.messages';
import { AuthenticatorSection } from './authenticator-section';
import { RecoveryCodesSection } from './recovery-codes-section';

/**
 * The account centre's security section (`/account/security` in the web app): the mobile number, the
 * e-mail address and the username with its password, each added or changed with the passport's
 * verifications (docs/identifiers.md). Adding needs a code to the new target; changing first proves it
 * is you (a code to the current mobile or e-mail, or the password), then a code to the new target.
 */

/** A target field for a channel: the mobile field or the e-mail field. */
function TargetInput({
  channel,
  label,
  value,
  onChange,
  error,
  hint,
}: {
  channel: CodeChannel;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: unknown;
  hint?: ReactNode;
}) {
  return channel === 'mobile' ? (
    <MobileInput label={label} value={value} onChange={onChange} error={error} hint={hint} required />
  ) : (
    <EmailInput label={label} value={value} onChange={onChange} error={error} hint={hint} required />
  );
}

const validTarget = (channel: CodeChannel, value: string) =>
  channel === 'mobile' ? isMobile(value) : isEmail(value);

/**
 * A target and a code sent to it for `type`, then `submit(target, code)`. The form of adding an
 * identifier, of the new target of a change, and of proving it is you by code.
 */
function CodeStep({
  t,
  channel,
  type,
  label,
  hint,
  submitLabel,
  pending,
  error,
  extra,
  onSubmit,
}: {
  t: SecurityT;
  channel: CodeChannel;
  type: number;
  label: string;
  hint?: ReactNode;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  extra?: ReactNode;
  onSubmit(target: string, code: string): void;
}) {
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<{ target?: string; code?: string }>({});
  const sender = useSendCode({ channel, type });
  const need = channel === 'mobile' ? t('security.need.mobile') : t('security.need.email');
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(validTarget(channel, target) ? {} : { target: need }),
      ...(isCode(code) ? {} : { code: t('security.need.code') }),
    };
    setProblem(found);
    if (!found.target && !found.code) onSubmit(target, code);
  }
  return (
    <form noValidate onSubmit={submit} className="form">
      <TargetInput
        channel={channel}
        label={label}
        value={target}
        onChange={setTarget}
        error={problem.target ?? sender.error}
        hint={hint}
      />
      <CodeInput
        value={code}
        onChange={setCode}
        error={problem.code}
        onSend={() => {
          if (!validTarget(channel, target)) return setProblem({ target: need });
          setProblem({});
          return sender.send(target);
        }}
        sending={sender.isPending}
        cooldown={sender.cooldown}
        sendError={sender.error}
        required
      />
      {extra}
      <ErrorMessage error={error} />
      <SubmitButton pending={pending}>{submitLabel}</SubmitButton>
    </form>
  );
}

/** A heading that takes the focus when it appears: a step change is announced and keyboard users land on it. */
function StepHeading({ id, children }: { id: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h3 id={id} ref={ref} tabIndex={-1}>
      {children}
    </h3>
  );
}

type Way = 'mobile' | 'email' | 'password';

/** Step 1 of a change: prove it is you by any way the account has; answers a verification ticket. */
function VerifyStep({
  t,
  account,
  onTicket,
}: {
  t: SecurityT;
  account: AccountInfo;
  onTicket(ticket: string): void;
}) {
  const ways: [Way, string][] = [];
  if (account.mobile) ways.push(['mobile', t('security.verify.byMobile', { value: account.mobile })]);
  if (account.email) ways.push(['email', t('security.verify.byEmail', { value: account.email })]);
  if (account.has_password) ways.push(['password', t('security.verify.byPassword')]);
  const [way, setWay] = useState<Way>(ways[0]?.[0] ?? 'password');
  const byCode = useVerifyIdentity();
  const byPassword = useVerifyPassword();
  const [password, setPassword] = useState('');
  const [passwordProblem, setPasswordProblem] = useState<string>();
  const headingId = useId();
  const name = useId();
  const done = { onSuccess: (data: { ticket: string }) => onTicket(data.ticket) };
  return (
    <section aria-labelledby={headingId} className="portico-security-step">
      <StepHeading id={headingId}>{t('security.verify.title')}</StepHeading>
      <p className="muted">{t('security.verify.intro')}</p>
      <fieldset className="portico-security-ways">
        <legend>{t('security.verify.way')}</legend>
        {ways.map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name={name}
              value={value}
              checked={way === value}
              onChange={() => setWay(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {way === 'password' ? (
        <form
          noValidate
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            setPasswordProblem(password ? undefined : t('security.need.password'));
            if (password) byPassword.mutate({ password }, done);
          }}
        >
          <PasswordInput
            label={t('security.verify.password')}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            error={passwordProblem}
            required
          />
          <ErrorMessage error={byPassword.error} />
          <SubmitButton pending={byPassword.isPending}>{t('security.verify.submit')}</SubmitButton>
        </form>
      ) : (
        <CodeStep
          key={way}
          t={t}
          channel={way}
          type={CodeType.oldMobile}
          label={way === 'mobile' ? t('security.verify.ownMobile') : t('security.verify.ownEmail')}
          hint={t('security.verify.ownHint', { value: way === 'mobile' ? account.mobile : account.email })}
          submitLabel={t('security.verify.submit')}
          pending={byCode.isPending}
          error={byCode.error}
          onSubmit={(target, code) =>
            byCode.mutate(way === 'mobile' ? { mobile: target, code } : { email: target, code }, done)
          }
        />
      )}
    </section>
  );
}

/** Step 2 of a change: the new target, a code to it (type 20 mobile, 7 e-mail), and `kick_other`. */
function NewTargetStep({
  t,
  channel,
  ticket,
  onDone,
}: {
  t: SecurityT;
  channel: CodeChannel;
  ticket: string;
  onDone(kicked: number): void;
}) {
  const mobile = useChangeMobile();
  const email = useChangeEmail();
  const change = channel === 'mobile' ? mobile : email;
  const [kick, setKick] = useState(false);
  const headingId = useId();
  const what = channel === 'mobile' ? t('security.new.mobile') : t('security.new.email');
  return (
    <section aria-labelledby={headingId} className="portico-security-step">
      <StepHeading id={headingId}>{t(`security.new.title.${channel}`)}</StepHeading>
      <CodeStep
        t={t}
        channel={channel}
        type={channel === 'mobile' ? CodeType.newMobile : CodeType.login}
        label={what}
        submitLabel={t('security.new.submit')}
        pending={change.isPending}
        error={change.error}
        extra={
          <label className="portico-check">
            <input
              type="checkbox"
              checked={kick}
              onChange={(event) => setKick(event.currentTarget.checked)}
            />{' '}
            {t('security.kickOther')}
          </label>
        }
        onSubmit={(target, code) => {
          const done = { onSuccess: (data: { kicked_sessions: number }) => onDone(data.kicked_sessions) };
          const kick_other = kick ? 1 : 0;
          if (channel === 'mobile') mobile.mutate({ mobile: target, code, ticket, kick_other }, done);
          else email.mutate({ email: target, code, ticket, kick_other }, done);
        }}
      />
    </section>
  );
}

/** Adding a mobile or e-mail the account has not got: a code to it (type 8). */
function AddForm({ t, channel, onDone }: { t: SecurityT; channel: CodeChannel; onDone(): void }) {
  const mobile = useBindMobile();
  const email = useBindEmail();
  const bind = channel === 'mobile' ? mobile : email;
  return (
    <CodeStep
      t={t}
      channel={channel}
      type={CodeType.bind}
      label={channel === 'mobile' ? t('security.mobile') : t('security.email')}
      submitLabel={t('security.add.submit')}
      pending={bind.isPending}
      error={bind.error}
      onSubmit={(target, code) => {
        if (channel === 'mobile') mobile.mutate({ mobile: target, code }, { onSuccess: onDone });
        else email.mutate({ email: target, code }, { onSuccess: onDone });
      }}
    />
  );
}

/** One identifier: what the account has, and adding or changing it. */
function IdentifierSection({
  t,
  channel,
  account,
}: {
  t: SecurityT;
  channel: CodeChannel;
  account: AccountInfo;
}) {
  const current = account[channel];
  const [step, setStep] = useState<'idle' | 'add' | 'verify' | 'new'>('idle');
  const [ticket, setTicket] = useState('');
  const [notice, setNotice] = useState('');
  const headingId = useId();
  const title = channel === 'mobile' ? t('security.mobile') : t('security.email');
  const open = (next: 'add' | 'verify') => {
    setNotice('');
    setStep(next);
  };
  return (
    <section className="card portico-security-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p>{current ? t('security.current', { value: current }) : t('security.none')}</p>
      <p role="status" className="success">
        {notice}
      </p>
      {step === 'idle' ? (
        <Button variant="secondary" onClick={() => open(current ? 'verify' : 'add')}>
          {current ? t(`security.change.${channel}`) : t(`security.add.${channel}`)}
        </Button>
      ) : (
        <>
          {step === 'add' ? (
            <AddForm
              t={t}
              channel={channel}
              onDone={() => {
                setStep('idle');
                setNotice(t(`security.bound.${channel}`));
              }}
            />
          ) : step === 'verify' ? (
            <VerifyStep
              t={t}
              account={account}
              onTicket={(value) => {
                setTicket(value);
                setStep('new');
              }}
            />
          ) : (
            <NewTargetStep
              t={t}
              channel={channel}
              ticket={ticket}
              onDone={(kicked) => {
                setStep('idle');
                setTicket('');
                const changed = t(`security.changed.${channel}`);
                setNotice(kicked > 0 ? `${changed} ${t('security.kicked', { count: kicked })}` : changed);
              }}
            />
          )}
          <Button variant="ghost" onClick={() => setStep('idle')}>
            {t('security.cancel')}
          </Button>
        </>
      )}
    </section>
  );
}

/** The username with a password (`setAccount`); a username once set stays. */
function UsernameSection({ t, account }: { t: SecurityT; account: AccountInfo }) {
  const headingId = useId();
  const fieldId = useId();
  const [username, setUsername] = useState('');
  const [current, setCurrent] = useState('');
  const [problem, setProblem] = useState<{ username?: string; password?: string }>({});
  const newPassword = useNewPassword();
  const save = useSetAccount();
  const hasPassword = account.has_password;
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(username.trim() ? {} : { username: t('security.need.username') }),
      ...(hasPassword && !current ? { password: t('security.need.password') } : {}),
    };
    setProblem(found);
    const passwordOk = hasPassword ? Boolean(current) : newPassword.check();
    if (found.username || !passwordOk) return;
    save.mutate({ username: username.trim(), password: hasPassword ? current : newPassword.password });
  }
  const usernameError = problem.username ?? '';
  return (
    <section className="card portico-security-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('security.username')}</h2>
      <p role="status" className="success">
        {save.isSuccess ? t('security.username.saved') : ''}
      </p>
      {account.username ? (
        <>
          <p>{t('security.username.current', { value: account.username })}</p>
          <p className="muted">{t('security.username.fixed')}</p>
        </>
      ) : (
        <form noValidate onSubmit={submit} className="form">
          <p className="muted">
            {hasPassword ? t('security.username.introHasPassword') : t('security.username.intro')}
          </p>
          <div className="portico-field">
            <label htmlFor={fieldId}>{t('security.username.label')}</label>
            <input
              id={fieldId}
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={64}
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
              required
              aria-invalid={usernameError ? true : undefined}
              aria-describedby={`${fieldId}-hint${usernameError ? ` ${fieldId}-error` : ''}`}
            />
            <p id={`${fieldId}-hint`} className="portico-field-hint">
              {t('security.username.hint')}
            </p>
            {usernameError ? (
              <p id={`${fieldId}-error`} role="alert" className="portico-field-error">
                {usernameError}
              </p>
            ) : null}
          </div>
          {hasPassword ? (
            <PasswordInput
              label={t('security.verify.password')}
              value={current}
              onChange={setCurrent}
              autoComplete="current-password"
              error={problem.password}
              required
            />
          ) : (
            <NewPasswordFields
              state={newPassword}
              label={t('security.username.password')}
              refusal={save.error}
            />
          )}
          <ErrorMessage error={hasPassword ? save.error : otherThanPasswordRefusal(save.error)} />
          <SubmitButton pending={save.isPending}>{t('security.username.submit')}</SubmitButton>
        </form>
      )}
    </section>
  );
}

/** The whole security section for the signed-in `account`; the app gives it its page and layout. */
export function AccountSecurity({ account }: { account: AccountInfo }) {
  const t = useSecurityT();
  return (
    <div className="portico-security">
      <IdentifierSection t={t} channel="mobile" account={account} />
      <IdentifierSection t={t} channel="email" account={account} />
      <UsernameSection t={t} account={account} />
      <AuthenticatorSection />
      <RecoveryCodesSection />
      <PasskeysSection />
    </div>
  );
}

export { useSecurityT };
