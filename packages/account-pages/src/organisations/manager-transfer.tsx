import {
  membersQueryOptions,
  pendingTransferQueryOptions,
  SubmitButton,
  useAccountClient,
  useCooldown,
  useManagerTransfer,
} from '@portico/account-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import type { SectionProps } from './console-context';
import { useInviteT } from './invitations.messages';
import { Choice, Field, Problem } from './parts';

/** Both sides of the manager transfer (`createManagerTransfer`): the manager's steps, the pending state, the new manager's. */
export function ManagerTransfer({ org }: SectionProps) {
  const t = useInviteT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const pending = useQuery(pendingTransferQueryOptions(client, sid));
  const members = useQuery({ ...membersQueryOptions(client, sid), enabled: org.is_manager });
  const flow = useManagerTransfer(sid);
  const { step, busy, codeSentTo, sendAllowedAt, error } = flow.snapshot;
  // The passport takes the next code only after its cooldown: the send buttons count down to it.
  const { seconds } = useCooldown(sendAllowedAt);
  const sendLabel = (label: string) => (seconds > 0 ? t('tr.resendIn', { label, seconds }) : label);
  const [code, setCode] = useState('');
  const [heir, setHeir] = useState('');
  const [done, setDone] = useState(false);
  const transfer = pending.data?.transfer ?? null;
  const manager = pending.data?.manager;
  // A step's failure is shown from the snapshot; the promise's rejection needs no handler of its own.
  const run = (promise: Promise<unknown>) => promise.then(() => setCode('')).catch(() => {});
  return (
    <section className="card" aria-labelledby="org-transfer">
      <h2 id="org-transfer">{t('tr.title')}</h2>
      {manager && <p>{t('tr.current', { name: manager.deputy_name })}</p>}
      {done && <p role="status">{t('tr.done')}</p>}
      {codeSentTo && <p role="status">{t('tr.codeSent', { contact: codeSentTo })}</p>}
      {transfer?.role === 'from' && <p>{t('tr.pendingFrom', { name: transfer.to_name })}</p>}
      {transfer?.role === 'to' && (
        <form
          className="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (code) run(flow.accept(code).then(() => setDone(true)));
          }}
        >
          <p>{t('tr.pendingTo', { name: transfer.from_name })}</p>
          <Button variant="secondary" disabled={busy || seconds > 0} onClick={() => run(flow.sendCode('to'))}>
            {sendLabel(t('tr.sendNew'))}
          </Button>
          <Field label={t('tr.code')} value={code} onChange={setCode} inputMode="numeric" />
          <SubmitButton pending={busy}>{t('tr.accept')}</SubmitButton>
        </form>
      )}
      {org.is_manager && !transfer && (
        <form
          className="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (step === 'prove' && code) run(flow.prove(code));
            else if (step === 'choose' && heir) run(flow.start(heir));
          }}
        >
          <p className="muted">{t('tr.intro')}</p>
          {step === 'prove' ? (
            <>
              <Button
                variant="secondary"
                disabled={busy || seconds > 0}
                onClick={() => run(flow.sendCode('from'))}
              >
                {sendLabel(t('tr.sendOld'))}
              </Button>
              <Field label={t('tr.code')} value={code} onChange={setCode} inputMode="numeric" />
              <SubmitButton pending={busy}>{t('tr.verify')}</SubmitButton>
            </>
          ) : (
            <>
              <Choice
                label={t('tr.newManager')}
                value={heir}
                onChange={setHeir}
                options={[
                  ['', '—'],
                  ...(members.data?.items ?? [])
                    .filter((m) => !m.is_manager && !m.is_frozen)
                    .map((m): [string, string] => [m.user_identity_id, m.deputy_name]),
                ]}
              />
              <SubmitButton pending={busy}>{t('tr.start')}</SubmitButton>
            </>
          )}
        </form>
      )}
      {transfer && (
        <ConfirmButton
          title={t('tr.abandon.title')}
          description={t('tr.abandon.body')}
          disabled={busy}
          onConfirm={() => run(flow.abandon())}
        >
          {t('tr.abandon')}
        </ConfirmButton>
      )}
      <Problem error={error ?? pending.error} />
    </section>
  );
}
