import {
  type InviteChannel,
  invitationsQueryOptions,
  rolesQueryOptions,
  SubmitButton,
  useAccountClient,
  useCancelInvitation,
  useInvite,
  useResendInvitation,
  useUpdateInvitation,
} from '@portico/account-react';
import type { Invitation, InvitationState } from '@portico/affiliate-sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import type { SectionProps } from './console-context';
import { useInviteT } from './invitations.messages';
import { Choice, clearingFirst, clearOutcome, Field, Problem } from './parts';

const STATES = ['pending', 'accepted', 'cancelled', 'expired'] as const;

/** Changing a pending invitation's name or role (`invitation:update`). */
function EditInvitation({
  sid,
  invitation,
  roles,
  onDone,
}: {
  sid: string;
  invitation: Invitation;
  roles: readonly (readonly [string, string])[];
  onDone(): void;
}) {
  const t = useInviteT();
  const headingId = useId();
  const update = useUpdateInvitation(sid);
  const [name, setName] = useState(invitation.deputy_name);
  const [role, setRole] = useState(invitation.role_keys[0] ?? '');
  const edit = clearingFirst(() => clearOutcome(update));
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name) return;
    update.mutate(
      { invite_id: invitation.invite_id, deputy_name: name, role_keys: role ? [role] : [] },
      { onSuccess: onDone },
    );
  }
  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby={headingId}>
      <h4 id={headingId}>{t('inv.edit.title', { name: invitation.deputy_name })}</h4>
      <Field label={t('inv.name')} value={name} onChange={edit(setName)} required />
      <Choice
        label={t('inv.role')}
        value={role}
        onChange={edit(setRole)}
        options={[['', t('inv.noRole')], ...roles]}
      />
      <Problem error={update.error} />
      <div className="org-actions">
        <SubmitButton pending={update.isPending}>{t('inv.save')}</SubmitButton>
        <Button variant="secondary" onClick={onDone}>
          {t('inv.keep')}
        </Button>
      </div>
    </form>
  );
}

/** Invitations: invite by e-mail, mobile, workplace chat or a link; the list with edit, resend and cancel. */
export function Invitations({ org, can }: SectionProps) {
  const t = useInviteT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const [channel, setChannel] = useState<InviteChannel>('email');
  const [contact, setContact] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [filter, setFilter] = useState<InvitationState | ''>('');
  const [editing, setEditing] = useState<string>();
  const roles = useQuery({ ...rolesQueryOptions(client, sid), enabled: can('role:read') });
  const list = useQuery({ ...invitationsQueryOptions(client, sid, filter), enabled: can('invitation:read') });
  const send = useInvite(sid);
  const resend = useResendInvitation(sid);
  const cancel = useCancelInvitation(sid);
  // The next invitation being written: the last one's refusal or "sent" is stale (a link to copy stays
  // until the next one is sent: it is the result, not a message).
  const writing = clearingFirst(() => {
    if (send.isError || (send.isSuccess && send.data.channel !== 'link')) send.reset();
  });
  /** An action on the list starts: the last one's refusal is stale. */
  const acting = () => clearOutcome(resend, cancel);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name || (channel !== 'link' && !contact)) return;
    send.mutate(
      { channel, contact, deputy_name: name, role_keys: role ? [role] : [] },
      {
        onSuccess: () => {
          setContact('');
          setName('');
        },
      },
    );
  }
  const stateText = (s: InvitationState) => t(`inv.${s}`);
  const roleOptions = (roles.data?.items ?? [])
    .filter((r) => !r.is_banned)
    .map((r): [string, string] => [r.role_key, r.role_name]);
  return (
    <section className="card" aria-labelledby="org-invite">
      <h2 id="org-invite">{t('inv.title')}</h2>
      {can('invitation:create') && (
        <form className="form" noValidate onSubmit={submit}>
          <Choice
            label={t('inv.channel')}
            value={channel}
            onChange={writing((v: string) => setChannel(v as InviteChannel))}
            options={[
              ['email', t('inv.email')],
              ['mobile', t('inv.mobile')],
              ['chat', t('inv.chat')],
              ['link', t('inv.link')],
            ]}
          />
          {channel !== 'link' && (
            <Field label={t('inv.contact')} value={contact} onChange={writing(setContact)} />
          )}
          <Field label={t('inv.name')} value={name} onChange={writing(setName)} />
          <Choice
            label={t('inv.role')}
            value={role}
            onChange={writing(setRole)}
            options={[['', t('inv.noRole')], ...roleOptions]}
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
          <Choice
            label={t('inv.state')}
            value={filter}
            onChange={(v) => setFilter(v as InvitationState | '')}
            options={[['', t('inv.all')], ...STATES.map((s): [string, string] => [s, stateText(s)])]}
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
                    {can('invitation:update') && i.state === 'pending' && editing !== i.invite_id && (
                      <Button
                        variant="secondary"
                        aria-label={t('inv.edit.label', { name: i.deputy_name })}
                        onClick={() => {
                          acting();
                          setEditing(i.invite_id);
                        }}
                      >
                        {t('inv.edit')}
                      </Button>
                    )}
                    {can('invitation:update') && (
                      <Button
                        variant="secondary"
                        onClick={() => {
                          acting();
                          resend.mutate(i.invite_id);
                        }}
                      >
                        {t('inv.resend')}
                      </Button>
                    )}
                    {can('invitation:cancel') && (
                      <ConfirmButton
                        title={t('inv.cancel.title', { name: i.deputy_name })}
                        description={t('inv.cancel.body')}
                        onConfirm={() => {
                          acting();
                          cancel.mutate(i.invite_id);
                        }}
                      >
                        {t('inv.cancel')}
                      </ConfirmButton>
                    )}
                  </fieldset>
                )}
                {editing === i.invite_id && (
                  <EditInvitation
                    sid={sid}
                    invitation={i}
                    roles={roleOptions}
                    onDone={() => setEditing(undefined)}
                  />
                )}
              </li>
            ))}
          </ul>
          <Problem error={resend.error ?? cancel.error ?? list.error} />
        </>
      )}
    </section>
  );
}
