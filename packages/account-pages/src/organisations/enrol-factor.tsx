import { useOrgT } from './organisation.messages';
import { Card } from './parts';

/**
 * The organisation requires a second factor and the account has none (SECOND_FACTOR_REQUIRED): what
 * to set up and where. Enrolling the account's first factor proves it in that session, so the member
 * comes back and continues without proving it again.
 */
export function EnrolFactor({ organisation, href }: { organisation: string; href: string }) {
  const t = useOrgT();
  return (
    <Card id="org-enrol" title={t('org.enrol.title')}>
      <p role="alert">{t('org.enrol.body', { org: organisation })}</p>
      <p>
        <a className="portico-submit" href={href}>
          {t('org.enrol.link')}
        </a>
      </p>
    </Card>
  );
}
