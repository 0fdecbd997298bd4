import {
  CodeInput,
  cancelCheckQueryOptions,
  cancelWaysQueryOptions,
  ErrorMessage,
  PasswordInput,
  SubmitButton,
  useAccountClient,
  useConfirmCancellation,
  useExportUserData,
  useSendCancellationCode,
  useSession,
  useVerifyCancellation,
} from '@portico/account-react';
import type { CancelWay } from '@portico/account-sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useAccountCentreT } from './account-centre.messages';
import { useDate } from './use-date';

type T = ReturnType<typeof useAccountCentreT>;

/** Saves the account's data as a JSON file. */
function ExportButton({ t }: { t: T }) {
  const download = useExportUserData();
  const save = () =>
    download.mutate(undefined, {
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
        onClick={save}
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
  const send = useSendCancellationCode();
  const verify = useVerifyCancellation();
  function submit(event: FormEvent) {
    event.preventDefault();
    verify.mutate(way === 'password' ? { way, password } : { way, code }, {
      onSuccess: (answer) => onTicket(answer.cancel_ticket),
    });
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
            onClick={() => send.mutate(way)}
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

export interface CancelScreenProps {
  /** The page's header (its title and subtitle: `useAccountCentreT()`'s `cancel.title`, `cancel.subtitle`). */
  header: ReactNode;
  /** Shown once the cancellation is confirmed (and the person signed out): the app's way to sign in. */
  signIn: ReactNode;
  /** Shown when nobody is signed in (and nothing was just cancelled): the app's redirect to sign in. */
  signedOut: ReactNode;
}

/**
 * Cancelling the account: what blocks it, what it erases, the data download, proving it is the person,
 * and the confirmation. Once confirmed the person is signed out everywhere (the session is `null`).
 */
export function CancelScreen({ header, signIn, signedOut }: CancelScreenProps) {
  const t = useAccountCentreT();
  const date = useDate();
  const client = useAccountClient();
  const session = useSession();
  const check = useQuery(cancelCheckQueryOptions(client));
  const ways = useQuery(cancelWaysQueryOptions(client));
  const [ticket, setTicket] = useState<string>();
  const confirm = useConfirmCancellation();
  if (confirm.isSuccess)
    return (
      <div className="container account-page">
        <h1>{t('cancel.title')}</h1>
        <p role="status">{t('cancel.done', { date: date(confirm.data.erase_at) })}</p>
        {signIn}
      </div>
    );
  if (session.data === null) return signedOut;
  if (check.isPending || ways.isPending) return <p aria-busy="true">{t('cancel.title')}…</p>;
  if (check.isError || ways.isError) return <ErrorMessage error={check.error ?? ways.error} />;
  const pending = session.data?.cancel_erase_at;
  return (
    <div className="container account-page">
      {header}
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
            <Verify t={t} ways={ways.data} onTicket={setTicket} />
          </section>
        )}
      </div>
    </div>
  );
}
