import { ErrorMessage, SubmitButton } from '@portico/account-react';
import * as aff from '@portico/affiliate-sdk';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { accountClient as client, queryClient } from '../lib/account';
import { type InviteT, useInviteT } from './org-invitations.messages';

/**
 * The console's invitations and manager transfer (issue 13): invite by e-mail, mobile, workplace chat or
 * a link to copy, the list with resend and cancel, and the two-sided manager transfer as both sides see it.
 */

interface OrgLike {
  sec_subject_uid: string;
  is_manager: boolean;
}

const Problem = ({ error }: { error: unknown }) => {
  const description = (error as { description?: unknown } | null)?.description;
  return <ErrorMessage error={typeof description === 'string' && description ? description : error} />;
};
const refresh = () => queryClient.invalidateQueries();

function Input({
  label,
  value,
  onChange,
  inputMode,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  inputMode?: 'numeric';
}) {
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} inputMode={inputMode} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  options: [string, string][];
}) {
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

type Channel = 'email' | 'mobile' | 'chat' | 'link';
const INVITE = {
  email: aff.inviteByEmail,
  mobile: aff.inviteByMobile,
  chat: aff.inviteByChat,
} as const;

export function Invitations({ org, can }: { org: OrgLike; can(p: string): boolean }) {
  const t = useInviteT();
  const sid = org.sec_subject_uid;
  const [channel, setChannel] = useState<Channel>('email');
  const [contact, setContact] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [filter, setFilter] = useState('');
  const roles = useQuery({
    queryKey: ['org', sid, 'roles'],
    queryFn: () => aff.listRoles(client, { subject_uid: sid, page_size: 100 }),
    enabled: can('role:read'),
  });
  const list = useQuery({
    queryKey: ['org', sid, 'invitations', filter],
    queryFn: () =>
      aff.listInvitations(client, {
        subject_uid: sid,
        page_size: 50,
        ...(filter ? { state: filter as aff.InvitationState } : {}),
      }),
    enabled: can('invitation:read'),
  });
  const send = useMutation({
    mutationFn: () => {
      const base = { subject_uid: sid, deputy_name: name, role_keys: role ? [role] : [], link: '/invite' };
      return channel === 'link'
        ? aff.inviteByLink(client, base)
        : INVITE[channel](client, { ...base, contact });
    },
    onSuccess: () => {
      setContact('');
      setName('');
      return refresh();
    },
  });
  const act = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: refresh });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (name && (channel === 'link' || contact)) send.mutate();
  }
  const stateText = (s: string) => t(`inv.${s}` as 'inv.pending');
  return (
    <section className="card" aria-labelledby="org-invite">
      <h2 id="org-invite">{t('inv.title')}</h2>
      {can('invitation:create') && (
        <form className="form" noValidate onSubmit={submit}>
          <Select
            label={t('inv.channel')}
            value={channel}
            onChange={(v) => setChannel(v as Channel)}
            options={[
              ['email', t('inv.email')],
              ['mobile', t('inv.mobile')],
              ['chat', t('inv.chat')],
              ['link', t('inv.link')],
            ]}
          />
          {channel !== 'link' && <Input label={t('inv.contact')} value={contact} onChange={setContact} />}
          <Input label={t('inv.name')} value={name} onChange={setName} />
          <Select
            label={t('inv.role')}
            value={role}
            onChange={setRole}
            options={[
              ['', t('inv.noRole')],
              ...(roles.data?.items ?? [])
                .filter((r) => !r.is_banned)
                .map((r): [string, string] => [r.role_key, r.role_name]),
            ]}
          />
          <Problem error={send.error} />
          <p role="status" className="success">
            {send.isSuccess ? t('inv.sent') : ''}
          </p>
          {send.data?.channel === 'link' && (
            <div className="portico-field">
              <label htmlFor="org-invite-link">{t('inv.copyLink')}</label>
              <input
                id="org-invite-link"
                readOnly
                value={send.data.link}
                onFocus={(e) => e.target.select()}
              />
            </div>
          )}
          <SubmitButton pending={send.isPending}>{t('inv.send')}</SubmitButton>
        </form>
      )}
      {can('invitation:read') && (
        <>
          <h3>{t('inv.list')}</h3>
          <Select
            label={t('inv.state')}
            value={filter}
            onChange={setFilter}
            options={[
              ['', t('inv.all')],
              ...(['pending', 'accepted', 'cancelled', 'expired'] as const).map((s): [string, string] => [
                s,
                stateText(s),
              ]),
            ]}
          />
          {list.data?.items.length === 0 && <p className="muted">{t('inv.none')}</p>}
          <ul className="org-list">
            {list.data?.items.map((i) => (
              <li key={i.invite_id}>
                <span>
                  {i.deputy_name} · {i.contact ?? t('inv.link')} · {stateText(i.state)}
                  {i.role_keys.length ? ` · ${i.role_keys.join(', ')}` : ''}
                </span>
                {(i.state === 'pending' || i.state === 'expired') && (
                  <fieldset className="org-actions" aria-label={t('inv.rowActions', { name: i.deputy_name })}>
                    {can('invitation:update') && (
                      <button
                        type="button"
                        onClick={() =>
                          act.mutate(() =>
                            aff.resendInvitation(client, { subject_uid: sid, invite_id: i.invite_id }),
                          )
                        }
                      >
                        {t('inv.resend')}
                      </button>
                    )}
                    {can('invitation:cancel') && (
                      <button
                        type="button"
                        onClick={() =>
                          act.mutate(() =>
                            aff.cancelInvitation(client, { subject_uid: sid, invite_id: i.invite_id }),
                          )
                        }
                      >
                        {t('inv.cancel')}
                      </button>
                    )}
                  </fieldset>
                )}
              </li>
            ))}
          </ul>
          <Problem error={act.error ?? list.error} />
        </>
      )}
    </section>
  );
}

/** Both sides of the manager transfer: the manager's steps, the pending state, the new manager's steps. */
export function ManagerTransfer({ org }: { org: OrgLike }) {
  const t = useInviteT();
  const sid = org.sec_subject_uid;
  const pending = useQuery({
    queryKey: ['org', sid, 'transfer'],
    queryFn: () => aff.pendingManagerTransfer(client, { subject_uid: sid }),
  });
  const members = useQuery({
    queryKey: ['org', sid, 'members'],
    queryFn: () => aff.listDeputies(client, { sec_subject_uid: sid, page_size: 100 }),
    enabled: org.is_manager,
  });
  const [code, setCode] = useState('');
  const [ticket, setTicket] = useState('');
  const [heir, setHeir] = useState('');
  const [sent, setSent] = useState('');
  const [done, setDone] = useState(false);
  const step = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => {
      setCode('');
      return refresh();
    },
  });
  const transfer = pending.data?.transfer ?? null;
  const sendCode = (call: () => Promise<{ contact: string }>) =>
    step.mutate(() => call().then((r) => setSent(r.contact)));

  const manager = pending.data?.manager;
  return (
    <section className="card" aria-labelledby="org-transfer">
      <h2 id="org-transfer">{t('tr.title')}</h2>
      {manager && <p>{t('tr.current', { name: manager.deputy_name })}</p>}
      {done && <p role="status">{t('tr.done')}</p>}
      {sent && <p role="status">{t('tr.codeSent', { contact: sent })}</p>}
      {transfer?.role === 'from' && <p>{t('tr.pendingFrom', { name: transfer.to_name })}</p>}
      {transfer?.role === 'to' && (
        <form
          className="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!code) return;
            step.mutate(async () => {
              const b = await aff.verifyNewManager(client, { subject_uid: sid, code });
              await aff.transferManager(client, { subject_uid: sid, transfer_ticket: b.transfer_ticket });
              setDone(true);
              setSent('');
            });
          }}
        >
          <p>{t('tr.pendingTo', { name: transfer.from_name })}</p>
          <button
            type="button"
            onClick={() => sendCode(() => aff.sendNewManagerCode(client, { subject_uid: sid }))}
          >
            {t('tr.sendNew')}
          </button>
          <Input label={t('tr.code')} value={code} onChange={setCode} inputMode="numeric" />
          <SubmitButton pending={step.isPending}>{t('tr.accept')}</SubmitButton>
        </form>
      )}
      {org.is_manager && !transfer && (
        <form
          className="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!ticket && code)
              step.mutate(() =>
                aff
                  .verifyOldManager(client, { subject_uid: sid, code })
                  .then((r) => setTicket(r.transfer_ticket)),
              );
            else if (ticket && heir)
              step.mutate(() =>
                aff
                  .startManagerTransfer(client, {
                    subject_uid: sid,
                    transfer_ticket: ticket,
                    user_identity_id: heir,
                  })
                  .then(() => {
                    setTicket('');
                    setSent('');
                  }),
              );
          }}
        >
          <p className="muted">{t('tr.intro')}</p>
          {!ticket ? (
            <>
              <button
                type="button"
                onClick={() => sendCode(() => aff.sendOldManagerCode(client, { subject_uid: sid }))}
              >
                {t('tr.sendOld')}
              </button>
              <Input label={t('tr.code')} value={code} onChange={setCode} inputMode="numeric" />
              <SubmitButton pending={step.isPending}>{t('tr.verify')}</SubmitButton>
            </>
          ) : (
            <>
              <Select
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
              <SubmitButton pending={step.isPending}>{t('tr.start')}</SubmitButton>
            </>
          )}
        </form>
      )}
      {transfer && (
        <button
          type="button"
          className="button-secondary"
          onClick={() => step.mutate(() => aff.abandonManagerTransfer(client, { subject_uid: sid }))}
        >
          {t('tr.abandon')}
        </button>
      )}
      <Problem error={step.error ?? pending.error} />
    </section>
  );
}

export type { InviteT };
