import {
  CodeInput,
  EmailInput,
  ErrorMessage,
  MobileInput,
  SubmitButton,
  useAccountClient,
  useSendCode,
} from '@portico/account-react';
import type { CodeChannel } from '@portico/account-sdk';
import { CodeType, paths, type WaitlistPlaceData } from '@portico/account-sdk/protocol';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isCode, isEmail, isMobile } from '../forms/validate';
import { useAuthT } from '../i18n/auth-messages';
import { useAuthConfig } from '../routes/auth-config';
import type { AuthRoutesOptions } from '../routes/auth-options';
import { useAuthHref } from '../routes/navigation';
import { screenRoute } from '../routes/screen-route';
import { AuthShell } from '../shell/auth-shell';
import { Tabs } from '../ui/tabs';
import { type JoinWaitlistT as T, useJoinWaitlistT } from './join-waitlist.messages';

/** A mobile or e-mail with its register code (type 1) and a note, through /SubmitWaitList. */
function JoinForm({
  t,
  channel,
  onJoined,
}: {
  t: T;
  channel: CodeChannel;
  onJoined: (p: WaitlistPlaceData) => void;
}) {
  const auth = useAuthT();
  const client = useAccountClient();
  const noteId = useId();
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<{ target?: string; code?: string }>({});
  const sender = useSendCode({ channel, type: CodeType.register });
  const submit = useMutation({
    mutationFn: (data: Record<string, unknown>) =>
      client.request<WaitlistPlaceData>({ path: paths.app.SubmitWaitList, data, envelope: 'web' }),
    onSuccess: onJoined,
  });
  const validTarget = channel === 'mobile' ? isMobile : isEmail;
  const targetProblem = channel === 'mobile' ? auth('login.needMobile') : auth('login.needEmail');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found: { target?: string; code?: string } = {};
    if (!validTarget(target)) found.target = targetProblem;
    if (!isCode(code)) found.code = auth('login.needCode');
    setProblem(found);
    if (Object.keys(found).length) return;
    submit.mutate({ [channel]: target, code, ...(note.trim() ? { note: note.trim() } : {}) });
  }

  const send = () => {
    if (!validTarget(target)) return setProblem({ target: targetProblem });
    setProblem({});
    return sender.send(target);
  };

  return (
    <form noValidate onSubmit={onSubmit} className="form">
      {channel === 'mobile' ? (
        <MobileInput value={target} onChange={setTarget} error={problem.target ?? sender.error} required />
      ) : (
        <EmailInput value={target} onChange={setTarget} error={problem.target ?? sender.error} required />
      )}
      <CodeInput
        value={code}
        onChange={setCode}
        error={problem.code}
        onSend={send}
        sending={sender.isPending}
        cooldown={sender.cooldown}
        sendError={sender.error}
        required
      />
      <div className="field">
        <label htmlFor={noteId}>{t('waitlist.note')}</label>
        <textarea
          id={noteId}
          value={note}
          maxLength={200}
          rows={2}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      <ErrorMessage error={submit.error} />
      <SubmitButton pending={submit.isPending}>{t('waitlist.submit')}</SubmitButton>
    </form>
  );
}

function Place({ t, place }: { t: T; place: WaitlistPlaceData }) {
  const text =
    place.state === 'waiting'
      ? t('waitlist.joined', { position: String(place.position), waiting: String(place.waiting) })
      : place.state === 'admitted'
        ? t('waitlist.admitted')
        : t('waitlist.registered');
  return (
    <p role="status" className="portico-notice" data-testid="waitlist-place">
      {text}
    </p>
  );
}

/**
 * The join-waitlist page (issue 18, docs/monitoring.md): why the person is here (sent from a refused
 * sign-up with `?reason=required`), the form, and their place once they joined.
 */
function JoinWaitlist() {
  const t = useJoinWaitlistT();
  const auth = useAuthT();
  const { paths: screens } = useAuthConfig();
  const href = useAuthHref();
  const [search] = useSearchParams();
  const [channel, setChannel] = useState<CodeChannel>('mobile');
  const [place, setPlace] = useState<WaitlistPlaceData | null>(null);
  return (
    <AuthShell
      title={t('waitlist.title')}
      subtitle={t('waitlist.subtitle')}
      footer={<Link to={href(screens.login)}>{auth('auth.signIn')}</Link>}
    >
      {search.get('reason') === 'required' ? (
        <p role="alert" className="portico-notice">
          {t('waitlist.required')}
        </p>
      ) : null}
      {place ? (
        <Place t={t} place={place} />
      ) : (
        <Tabs<CodeChannel>
          label={t('waitlist.methods')}
          selected={channel}
          onSelect={setChannel}
          items={[
            {
              key: 'mobile',
              label: t('waitlist.tab.mobile'),
              panel: <JoinForm t={t} channel="mobile" onJoined={setPlace} />,
            },
            {
              key: 'email',
              label: t('waitlist.tab.email'),
              panel: <JoinForm t={t} channel="email" onJoined={setPlace} />,
            },
          ]}
        />
      )}
    </AuthShell>
  );
}

export const route = (options: AuthRoutesOptions) =>
  screenRoute(options, JoinWaitlist, { signedOutOnly: true });
