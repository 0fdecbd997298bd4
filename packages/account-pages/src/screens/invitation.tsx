import { ErrorMessage, SubmitButton, useSession } from '@portico/account-react';
import type { AccountClient } from '@portico/account-sdk';
import { acceptInvitation, checkInvitation, sendInvitationCode } from '@portico/affiliate-sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { loginHref } from '../next/safe-next';
import { useInvitationT } from './invitation.messages';

export interface InvitationScreenProps {
  client: AccountClient;
  /** The ticket from the link (`?invite_ticket=`). */
  ticket: string | null;
  /** This page's path with its query, for signing in and coming back. */
  here: string;
  /** Where "go to the organisation" leads (the server's next_url when it gave one). */
  onJoined(nextUrl: string | null): void;
}

/** A 16xx failure in the server's words (the account SDK's catalogue does not hold the 16xx texts). */
const Problem = ({ error }: { error: unknown }) => {
  const description = (error as { description?: unknown } | null)?.description;
  return <ErrorMessage error={typeof description === 'string' && description ? description : error} />;
};

/**
 * The invitation screen (issue 13), shared by the apps: the preview (organisation, inviter, role names,
 * masked contact — nothing more); signed in, one button accepts; signed out, a mobile or e-mail
 * invitation registers in the same pass (a code to the invited contact, a password) or sends the person
 * to sign in and back.
 */
export function InvitationScreen({ client, ticket, here, onJoined }: InvitationScreenProps) {
  const t = useInvitationT();
  const queryClient = useQueryClient();
  const session = useSession();
  const ids = { code: useId(), password: useId() };
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const preview = useQuery({
    queryKey: ['portico', 'invitation', ticket],
    queryFn: () => checkInvitation(client, { invite_ticket: ticket ?? '' }),
    enabled: Boolean(ticket),
    retry: false,
  });
  const send = useMutation({ mutationFn: () => sendInvitationCode(client, { invite_ticket: ticket ?? '' }) });
  const accept = useMutation({
    mutationFn: (withAccount: boolean) =>
      acceptInvitation(
        client,
        withAccount ? { invite_ticket: ticket ?? '' } : { invite_ticket: ticket ?? '', password, code },
      ),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const p = preview.data;
  const signedIn = Boolean(session.data);
  const bound = p?.channel === 'mobile' || p?.channel === 'email';
  function register(event: FormEvent) {
    event.preventDefault();
    if (code && password) accept.mutate(false);
  }
  return (
    <section className="card" aria-labelledby="invitation-title">
      <h1 id="invitation-title">{t('invite.title')}</h1>
      {!ticket && <p role="alert">{t('invite.missing')}</p>}
      {preview.isPending && ticket && <p>{t('invite.checking')}</p>}
      <Problem error={preview.error} />
      {p && !accept.data && (
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
            <SubmitButton type="button" pending={accept.isPending} onClick={() => accept.mutate(true)}>
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
                  <button type="button" onClick={() => send.mutate()} disabled={send.isPending}>
                    {t('invite.sendCode', { contact: p.contact })}
                  </button>
                  <p role="status" className="success">
                    {send.isSuccess ? t('invite.codeSent') : ''}
                  </p>
                  <Problem error={send.error} />
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
                  <SubmitButton pending={accept.isPending}>{t('invite.join')}</SubmitButton>
                </form>
              )}
            </>
          )}
          <Problem error={accept.error} />
        </>
      )}
      {accept.data && (
        <>
          <p role="status">{t('invite.joined', { org: accept.data.org.subject_name })}</p>
          <button type="button" onClick={() => onJoined(accept.data.next_url)}>
            {t('invite.continue')}
          </button>
        </>
      )}
    </section>
  );
}
