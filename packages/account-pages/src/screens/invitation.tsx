import { SubmitButton, useInvitationAcceptance, useSession } from '@portico/account-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { loginHref } from '../next/safe-next';
import { Problem } from '../organisations/parts';
import { Button } from '../ui/button';
import { useInvitationT } from './invitation.messages';

export interface InvitationScreenProps {
  /** The ticket from the link (`?invite_ticket=`). */
  ticket: string | null;
  /** This page's path with its query, for signing in and coming back. */
  here: string;
  /** Where "go to the organisation" leads (the server's next_url when it gave one). */
  onJoined(nextUrl: string | null): void;
}

/**
 * The invitation screen (issue 13), shared by the apps: the preview (organisation, inviter, role names,
 * masked contact — nothing more); signed in, one button accepts; signed out, a mobile or e-mail
 * invitation registers in the same pass (a code to the invited contact, a password) or sends the person
 * to sign in and back. The steps are the affiliate SDK's `createInvitationAcceptance`.
 */
export function InvitationScreen({ ticket, here, onJoined }: InvitationScreenProps) {
  const t = useInvitationT();
  const session = useSession();
  const ids = { code: useId(), password: useId() };
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const flow = useInvitationAcceptance(ticket ?? '');
  const { preview: p, codeSentTo, joined, busy, error } = flow.snapshot;
  const [checked, setChecked] = useState(false);
  const { check } = flow;
  useEffect(() => {
    // The failure is in the snapshot; the rejection needs no handler of its own.
    if (ticket)
      check().then(
        () => setChecked(true),
        () => setChecked(true),
      );
  }, [ticket, check]);
  const quietly = (step: Promise<unknown>) => step.catch(() => {});
  const signedIn = Boolean(session.data);
  const bound = p?.channel === 'mobile' || p?.channel === 'email';
  function register(event: FormEvent) {
    event.preventDefault();
    if (code && password) quietly(flow.accept({ code, password }));
  }
  return (
    <section className="card" aria-labelledby="invitation-title">
      <h1 id="invitation-title">{t('invite.title')}</h1>
      {!ticket && <p role="alert">{t('invite.missing')}</p>}
      {!checked && ticket && <p>{t('invite.checking')}</p>}
      {p && !joined && (
        <>
          <p>
            <strong>{t('invite.from', { inviter: p.inviter_name, org: p.subject_name })}</strong>
          </p>
          <p>
            {p.role_names.length
              ? t('invite.roles', { roles: p.role_names.join(', ') })
              : t('invite.noRoles')}
          </p>
          {p.contact && <p className="muted">{t('invite.sentTo', { contact: p.contact })}</p>}
          {signedIn ? (
            <SubmitButton type="button" pending={busy} onClick={() => quietly(flow.accept())}>
              {t('invite.accept')}
            </SubmitButton>
          ) : (
            <>
              <p>
                <a href={loginHref(here)}>{t('invite.signIn')}</a>
              </p>
              {bound && p.contact && (
                <form className="form" noValidate onSubmit={register}>
                  <h2>{t('invite.register')}</h2>
                  <Button variant="secondary" onClick={() => quietly(flow.sendCode())} disabled={busy}>
                    {t('invite.sendCode', { contact: p.contact })}
                  </Button>
                  <p role="status" className="success">
                    {codeSentTo ? t('invite.codeSent') : ''}
                  </p>
                  <div className="portico-field">
                    <label htmlFor={ids.code}>{t('invite.code')}</label>
                    <input
                      id={ids.code}
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      value={code}
                      onChange={(e) => setCode(e.target.value)}
                    />
                  </div>
                  <div className="portico-field">
                    <label htmlFor={ids.password}>{t('invite.password')}</label>
                    <input
                      id={ids.password}
                      type="password"
                      autoComplete="new-password"
                      value={password}
                      onChange={(e) => setPassword(e.target.value)}
                    />
                  </div>
                  <SubmitButton pending={busy}>{t('invite.join')}</SubmitButton>
                </form>
              )}
            </>
          )}
        </>
      )}
      <Problem error={error} />
      {joined && (
        <>
          <p role="status">{t('invite.joined', { org: joined.org.subject_name })}</p>
          <Button variant="secondary" onClick={() => onJoined(joined.next_url)}>
            {t('invite.continue')}
          </Button>
        </>
      )}
    </section>
  );
}
