import {
  domainsQueryOptions,
  SubmitButton,
  useAccountClient,
  useAddDomain,
  useRemoveDomain,
  useVerifyDomain,
} from '@portico/account-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../ui/confirm-button';
import type { SectionProps } from './console-context';
import { useDomainT } from './domains.messages';
import { Card, clearingFirst, clearOutcome, Field, Problem } from './parts';

/**
 * The organisation's e-mail domains (`sso:manage`): add one, see the TXT record to publish, verify it
 * (the server looks the record up in DNS), remove it (confirmed).
 */
export function Domains({ org }: SectionProps) {
  const t = useDomainT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const list = useQuery(domainsQueryOptions(client, sid));
  const add = useAddDomain(sid);
  const verify = useVerifyDomain(sid);
  const remove = useRemoveDomain(sid);
  const [domain, setDomain] = useState('');
  const acting = () => clearOutcome(add, verify, remove);
  const edit = clearingFirst(acting);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!domain.trim()) return;
    acting();
    add.mutate(domain, { onSuccess: () => setDomain('') });
  }
  const items = list.data ?? [];
  return (
    <Card id="org-domains" title={t('dom.title')}>
      <p>{t('dom.intro')}</p>
      <form className="form" noValidate onSubmit={submit} aria-label={t('dom.add')}>
        <Field label={t('dom.domain')} value={domain} onChange={edit(setDomain)} required />
        <SubmitButton pending={add.isPending}>{t('dom.add')}</SubmitButton>
      </form>
      <Problem error={add.error ?? verify.error ?? remove.error ?? list.error} />
      <p role="status" className="success">
        {add.isSuccess
          ? t('dom.added', { domain: add.data.domain })
          : verify.isSuccess
            ? t('dom.verifiedNow', { domain: verify.data.domain })
            : ''}
      </p>
      {list.isSuccess && items.length === 0 && <p>{t('dom.none')}</p>}
      <ul className="org-list">
        {items.map((d) => (
          <li key={d.domain}>
            <p>
              <strong>{d.domain}</strong> — {d.verified ? t('dom.verified') : t('dom.pending')}
            </p>
            {!d.verified && (
              <dl>
                <dt>{t('dom.recordName')}</dt>
                <dd>
                  <code>{d.record_name}</code>
                </dd>
                <dt>{t('dom.recordValue')}</dt>
                <dd>
                  <code>{d.record_value}</code>
                </dd>
              </dl>
            )}
            <fieldset className="org-actions" aria-label={t('dom.rowActions', { domain: d.domain })}>
              {!d.verified && (
                <SubmitButton
                  type="button"
                  className="portico-submit button-secondary"
                  pending={verify.isPending && verify.variables === d.domain}
                  onClick={() => {
                    acting();
                    verify.mutate(d.domain);
                  }}
                >
                  {t('dom.verify')}
                </SubmitButton>
              )}
              <ConfirmButton
                aria-label={t('dom.remove.label', { domain: d.domain })}
                title={t('dom.remove.title', { domain: d.domain })}
                description={t('dom.remove.body')}
                disabled={remove.isPending}
                onConfirm={() => {
                  acting();
                  remove.mutate(d.domain);
                }}
              >
                {t('dom.remove')}
              </ConfirmButton>
            </fieldset>
          </li>
        ))}
      </ul>
    </Card>
  );
}
