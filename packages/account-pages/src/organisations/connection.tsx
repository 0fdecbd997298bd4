import {
  SubmitButton,
  ssoConnectionQueryOptions,
  useAccountClient,
  useRemoveSsoConnection,
  useSaveSsoConnection,
} from '@portico/account-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ConfirmButton } from '../ui/confirm-button';
import { useConnectionT } from './connection.messages';
import type { SectionProps } from './console-context';
import { Card, clearingFirst, clearOutcome, Field, Problem } from './parts';

/**
 * The organisation's OpenID Connect connection (`sso:manage`): issuer, client id and secret (never
 * shown back: the form says whether one is on file), saved once the server has read the issuer's
 * discovery; removing it asks first.
 */
export function Connection({ org }: SectionProps) {
  const t = useConnectionT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const current = useQuery(ssoConnectionQueryOptions(client, sid));
  // This form sets an OpenID Connect connection; a SAML one is set through the affiliate SDK.
  const oidc = current.data?.protocol === 'oidc' ? current.data : undefined;
  const save = useSaveSsoConnection(sid);
  const remove = useRemoveSsoConnection(sid);
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  useEffect(() => {
    if (!oidc) return;
    setIssuer(oidc.issuer);
    setClientId(oidc.client_id);
  }, [oidc]);
  const edit = clearingFirst(() => clearOutcome(save, remove));
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!issuer || !clientId) return;
    clearOutcome(save, remove);
    save.mutate(
      { issuer, client_id: clientId, ...(secret ? { client_secret: secret } : {}) },
      { onSuccess: () => setSecret('') },
    );
  }
  return (
    <Card id="org-connection" title={t('con.title')}>
      <p>{t('con.intro')}</p>
      <form className="form" noValidate onSubmit={submit} aria-label={t('con.save')}>
        <Field label={t('con.issuer')} value={issuer} onChange={edit(setIssuer)} required />
        <Field label={t('con.clientId')} value={clientId} onChange={edit(setClientId)} required />
        <Field label={t('con.clientSecret')} value={secret} onChange={edit(setSecret)} />
        {oidc?.has_secret ? <p className="muted">{t('con.secretKept')}</p> : null}
        <Problem error={save.error ?? remove.error ?? current.error} />
        <p role="status" className="success">
          {save.isSuccess ? t('con.saved') : ''}
        </p>
        <SubmitButton pending={save.isPending}>{t('con.save')}</SubmitButton>
      </form>
      {current.data ? (
        <ConfirmButton
          className="portico-submit button-secondary"
          title={t('con.remove.title')}
          description={t('con.remove.body')}
          disabled={remove.isPending}
          onConfirm={() => {
            clearOutcome(save, remove);
            remove.mutate(undefined, {
              onSuccess: () => {
                setIssuer('');
                setClientId('');
              },
            });
          }}
        >
          {t('con.remove')}
        </ConfirmButton>
      ) : null}
    </Card>
  );
}
