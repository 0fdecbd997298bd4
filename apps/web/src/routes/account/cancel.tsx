import { loginHref } from '@portico/account-pages';
import { CodeInput, ErrorMessage, PasswordInput, SubmitButton, useSession } from '@portico/account-react';
import { type CancelWay, cancelConfirm, cancelRequest, exportUserData } from '@portico/account-sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, Navigate, redirect, useLocation } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { Loading } from '../../components/spinner';
import { accountClient, loadSession } from '../../lib/account';
import { cancelCheckQuery, cancelWaysQuery } from '../../lib/profile';
import { useAccountT } from './messages';
import { useDate } from './use-date';

type T = ReturnType<typeof useAccountT>;

/** Signed out: to login, which comes back here. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/account/cancel'));
  return session;
}

/** Saves the account's data as a JSON file. */
function ExportButton({ t }: { t: T }) {
  const download = useMutation({
    mutationFn: () => exportUserData(accountClient),
    onSuccess: (data) => {
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
      );
      const link = document.createElement('a');
      link.href = url;
      link.download = 'portico-account.json';
      link.click();
      URL.revokeObjectURL(url);
    },
  });
  return (
    <>
      <SubmitButton
        type="button"
        className="portico-submit button-secondary"
        pending={download.isPending}
        onClick={() => download.mutate()}
      >
        {t('cancel.export')}
      </SubmitButton>
      <ErrorMessage error={download.error} />
    </>
  );
}

/** Verify by a code to the own mobile or e-mail, or by the password; answers the cancel_ticket. */
function Verify({ t, ways, onTicket }: { t: T; ways: CancelWay[]; onTicket: (ticket: string) => void }) {
  const name = useId();
  const [way, setWay] = useState<CancelWay['way']>(ways[0]?.way ?? 'password');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const target = ways.find((w) => w.way === way)?.target ?? '';
  const send = useMutation({
    mutationFn: () => cancelRequest<{ target: string }>(accountClient, { way, send: 1 }),
  });
  const verify = useMutation({
    mutationFn: () =>
      cancelRequest<{ cancel_ticket: string }>(
        accountClient,
        way === 'password' ? { way, password } : { way, code },
      ),
    onSuccess: (answer) => onTicket(answer.cancel_ticket),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    verify.mutate();
  }
  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby="cancel-verify">
      <h2 id="cancel-verify">{t('cancel.verify')}</h2>
      <fieldset>
        <legend>{t('cancel.way')}</legend>
        {ways.map((w) => (
          <label key={w.way} className="portico-radio">
            <input
              type="radio"
              name={name}
              value={w.way}
              checked={way === w.way}
              onChange={() => setWay(w.way)}
            />{' '}
            {t(`cancel.way.${w.way}`, { target: w.target })}
          </label>
        ))}
      </fieldset>
      {way === 'password' ? (
        <PasswordInput
          label={t('cancel.password')}
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          required
        />
      ) : (
        <>
          <SubmitButton
            type="button"
            className="portico-submit button-secondary"
            pending={send.isPending}
            onClick={() => send.mutate()}
          >
            {t('cancel.send')}
          </SubmitButton>
          <p role="status" className="success">
            {send.isSuccess ? t('cancel.sent', { target: send.data.target || target }) : ''}
          </p>
          <ErrorMessage error={send.error} />
          <CodeInput label={t('cancel.code')} value={code} onChange={setCode} />
        </>
      )}
      <ErrorMessage error={verify.error} />
      <SubmitButton pending={verify.isPending}>{t('cancel.check')}</SubmitButton>
    </form>
  );
}

/** /account/cancel: what blocks, what is lost, the data download, verification and confirmation. */
export function Component() {
  const t = useAccountT();
  const date = useDate();
  const session = useSession();
  const location = useLocation();
  const queryClient = useQueryClient();
  const check = useQuery(cancelCheckQuery());
  const ways = useQuery(cancelWaysQuery());
  const [ticket, setTicket] = useState<string>();
  const confirm = useMutation({
    mutationFn: (cancel_ticket: string) =>
      cancelConfirm<{ state: string; erase_at: number }>(accountClient, { cancel_ticket }),
    // Signed out everywhere, this browser included: the session is gone.
    onSuccess: () => queryClient.setQueryData(['portico', 'account', 'session'], null),
  });
  if (confirm.isSuccess)
    return (
      <div className="container account-page">
        <h1>{t('cancel.title')}</h1>
        <p role="status">{t('cancel.done', { date: date(confirm.data.erase_at) })}</p>
        <Link to="/login" className="button button-primary">
          {t('cancel.signIn')}
        </Link>
      </div>
    );
  if (session.data === null) return <Navigate to={loginHref(location.pathname)} replace />;
  if (check.isPending || ways.isPending) return <Loading label={t('cancel.title')} />;
  if (check.isError || ways.isError) return <ErrorMessage error={check.error ?? ways.error} />;
  const pending = session.data?.cancel_erase_at;
  return (
    <div className="container account-page">
      <PageHeader title={t('cancel.title')} subtitle={t('cancel.subtitle')} />
      <div className="workbench-grid">
        <section className="card" aria-labelledby="cancel-losses">
          <h2 id="cancel-losses">{t('cancel.losses')}</h2>
          <ul>
            {check.data.losses.map((loss) => (
              <li key={loss.key}>
                {t(`cancel.loss.${loss.key}` as 'cancel.loss.profile', { n: loss.count })}
              </li>
            ))}
          </ul>
          <p>{t('cancel.cooling', { days: check.data.cooling_off_days })}</p>
          <ExportButton t={t} />
        </section>
        {check.data.blockers.length > 0 ? (
          <section className="card" aria-labelledby="cancel-blockers">
            <h2 id="cancel-blockers">{t('cancel.blockers')}</h2>
            <ul>
              {check.data.blockers.map((blocker) => (
                <li key={blocker.key}>{t(`cancel.blocker.${blocker.key}` as 'cancel.blocker.operator')}</li>
              ))}
            </ul>
          </section>
        ) : pending ? null : ticket ? (
          <section className="card" aria-labelledby="cancel-confirm">
            <h2 id="cancel-confirm">{t('cancel.confirm.title')}</h2>
            <p>
              {t('cancel.confirm.body', {
                date: date(Date.now() + check.data.cooling_off_days * 86_400_000),
              })}
            </p>
            <ErrorMessage error={confirm.error} />
            <SubmitButton
              type="button"
              className="portico-submit button-danger"
              pending={confirm.isPending}
              onClick={() => confirm.mutate(ticket)}
            >
              {t('cancel.confirm')}
            </SubmitButton>
          </section>
        ) : (
          <section className="card">
            <Verify t={t} ways={ways.data.ways} onTicket={setTicket} />
          </section>
        )}
      </div>
    </div>
  );
}
