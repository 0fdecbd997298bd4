import {
  organisationQueryOptions,
  SubmitButton,
  useAccountClient,
  useFreezeOrganisation,
  useSecondFactorRequirement,
  useUpdateOrganisation,
} from '@portico/account-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ConfirmButton } from '../ui/confirm-button';
import type { SectionProps } from './console-context';
import { useOrgT } from './organisation.messages';
import { Card, clearingFirst, clearOutcome, Field, Problem } from './parts';

/** The organisation's name and description (`subject:update`); the description lives in `base_infos`. */
function Details({ org }: SectionProps) {
  const t = useOrgT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const subject = useQuery(organisationQueryOptions(client, sid));
  const update = useUpdateOrganisation(sid);
  const [name, setName] = useState(org.subject_name);
  const [description, setDescription] = useState('');
  useEffect(() => {
    if (!subject.data) return;
    setName(subject.data.subject_name);
    const text = subject.data.base_infos?.description;
    setDescription(typeof text === 'string' ? text : '');
  }, [subject.data]);
  // An edit after a save: "saved" no longer describes the form.
  const edit = clearingFirst(() => clearOutcome(update));
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name) return;
    update.mutate({
      subject_name: name,
      base_infos: { ...subject.data?.base_infos, description },
    });
  }
  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby="org-details">
      <h3 id="org-details">{t('org.details')}</h3>
      <Field label={t('org.subjectName')} value={name} onChange={edit(setName)} required />
      <Field label={t('org.description')} value={description} onChange={edit(setDescription)} multiline />
      <Problem error={update.error ?? subject.error} />
      <p role="status" className="success">
        {update.isSuccess ? t('org.detailsSaved') : ''}
      </p>
      <SubmitButton pending={update.isPending}>{t('org.saveDetails')}</SubmitButton>
    </form>
  );
}

/**
 * Whether members must use a second factor (`subject:update`), turned on or off after a confirmation.
 * The server refuses to turn it on for a caller whose own session has not proved one (the answer says
 * how to set one up).
 */
function SecondFactor({ org }: SectionProps) {
  const t = useOrgT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const subject = useQuery(organisationQueryOptions(client, sid));
  const change = useSecondFactorRequirement(sid);
  const required = subject.data?.require_second_factor === 1;
  const next: 0 | 1 = required ? 0 : 1;
  return (
    <section aria-labelledby="org-factor">
      <h3 id="org-factor">{t('org.factor')}</h3>
      <p>{subject.data ? t(required ? 'org.factor.on' : 'org.factor.off') : ''}</p>
      <Problem error={change.error} />
      <p role="status" className="success">
        {change.isSuccess ? t('org.factor.saved') : ''}
      </p>
      {subject.data && (
        <ConfirmButton
          className="button button-secondary button-block"
          title={t(required ? 'org.factor.off.title' : 'org.factor.on.title', { org: org.subject_name })}
          description={t(required ? 'org.factor.off.body' : 'org.factor.on.body')}
          disabled={change.isPending}
          onConfirm={() => change.mutate(next)}
        >
          {t(required ? 'org.factor.turnOff' : 'org.factor.turnOn')}
        </ConfirmButton>
      )}
    </section>
  );
}

/** Settings: the details (`subject:update`) and, for the manager, freezing (confirmed) or thawing. */
export function Settings({ org, can }: SectionProps) {
  const t = useOrgT();
  const freeze = useFreezeOrganisation(org.sec_subject_uid);
  return (
    <Card id="org-settings" title={t('org.settings')}>
      {org.subject_is_frozen ? <p>{t('org.subjectFrozen')}</p> : null}
      {(org.is_manager || can('subject:update')) && !org.subject_is_frozen && <Details org={org} can={can} />}
      {(org.is_manager || can('subject:update')) && !org.subject_is_frozen && (
        <SecondFactor org={org} can={can} />
      )}
      {org.is_manager && (
        <>
          <Problem error={freeze.error} />
          {org.subject_is_frozen ? (
            <SubmitButton
              type="button"
              className="button button-secondary button-block"
              pending={freeze.isPending}
              onClick={() => freeze.mutate(0)}
            >
              {t('org.unfreezeSubject')}
            </SubmitButton>
          ) : (
            <ConfirmButton
              className="button button-secondary button-block"
              title={t('org.freezeSubject.title', { org: org.subject_name })}
              description={t('org.freezeSubject.body')}
              disabled={freeze.isPending}
              onConfirm={() => freeze.mutate(1)}
            >
              {t('org.freezeSubject')}
            </ConfirmButton>
          )}
        </>
      )}
    </Card>
  );
}
