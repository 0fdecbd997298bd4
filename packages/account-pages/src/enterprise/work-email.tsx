import { EmailInput, ErrorMessage, SubmitButton, useAccountClient } from '@portico/account-react';
import { startEnterpriseSso } from '@portico/account-sdk';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isEmail } from '../forms/validate';
import { Button } from '../ui/button';
import { SEARCH_KEY, useEnterpriseT } from './messages';

/**
 * "Sign in with your work e-mail" under the sign-in panel (docs/enterprise-sso.md): the address goes
 * to the passport, which answers the identity provider of the organisation that verified its domain;
 * the browser goes there. Loaded after the sign-in page, so its first load does not carry it.
 */
export default function WorkEmailSignIn() {
  const t = useEnterpriseT();
  const client = useAccountClient();
  const [search] = useSearchParams();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isEmail(email)) return setProblem(t('sso.needEmail'));
    setProblem(undefined);
    setError(null);
    setPending(true);
    try {
      const { authorize_url } = await startEnterpriseSso(client, { email, next: search.get('next') ?? '' });
      sessionStorage.setItem(SEARCH_KEY, search.toString());
      window.location.assign(authorize_url);
    } catch (failure) {
      setError(failure);
      setPending(false);
    }
  }

  if (!open)
    return (
      <Button variant="secondary" block onClick={() => setOpen(true)}>
        {t('sso.open')}
      </Button>
    );
  return (
    <section aria-label={t('sso.section')}>
      <form noValidate onSubmit={submit} className="form">
        <EmailInput
          value={email}
          onChange={setEmail}
          label={t('sso.email')}
          hint={t('sso.hint')}
          error={problem}
          required
        />
        <ErrorMessage error={error} />
        <SubmitButton pending={pending}>{t('sso.continue')}</SubmitButton>
      </form>
    </section>
  );
}
