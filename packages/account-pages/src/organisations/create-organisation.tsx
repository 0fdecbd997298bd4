import { SubmitButton, useCreateOrganisation } from '@portico/account-react';
import { type FormEvent, useState } from 'react';
import { useOrgT } from './organisation.messages';
import { Card, Field, Problem } from './parts';

/** Creating an organisation: the signed-in person becomes its manager. */
export function CreateOrganisation() {
  const t = useOrgT();
  const [subjectName, setSubjectName] = useState('');
  const [deputyName, setDeputyName] = useState('');
  const create = useCreateOrganisation();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!subjectName || !deputyName) return;
    create.mutate(
      { subject_name: subjectName, deputy_name: deputyName },
      {
        onSuccess: () => {
          setSubjectName('');
          setDeputyName('');
        },
      },
    );
  }
  return (
    <Card id="org-create" title={t('org.create')}>
      <form className="form" noValidate onSubmit={submit}>
        <p className="muted">{t('org.createIntro')}</p>
        <Field label={t('org.subjectName')} value={subjectName} onChange={setSubjectName} required />
        <Field label={t('org.deputyName')} value={deputyName} onChange={setDeputyName} required />
        <Problem error={create.error} />
        <p role="status" className="success">
          {create.isSuccess ? t('org.created') : ''}
        </p>
        <SubmitButton pending={create.isPending}>{t('org.create')}</SubmitButton>
      </form>
    </Card>
  );
}
