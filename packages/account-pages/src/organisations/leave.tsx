import { useLeaveOrganisation } from '@portico/account-react';
import { ConfirmButton } from '../ui/confirm-button';
import type { SectionProps } from './console-context';
import { useOrgT } from './organisation.messages';
import { Card, Problem } from './parts';

/** Leaving the organisation (confirmed); the manager is told to transfer first. */
export function Leave({ org }: SectionProps) {
  const t = useOrgT();
  const leave = useLeaveOrganisation(org.sec_subject_uid);
  return (
    <Card id="org-leave" title={t('org.leave')}>
      {org.is_manager ? (
        <p>{t('org.leave.manager')}</p>
      ) : (
        <>
          <p>{t('org.leave.intro', { org: org.subject_name })}</p>
          <Problem error={leave.error} />
          <ConfirmButton
            className="button button-secondary button-block"
            title={t('org.leave.title', { org: org.subject_name })}
            description={t('org.leave.body')}
            disabled={leave.isPending}
            onConfirm={() => leave.mutate()}
          >
            {t('org.leave')}
          </ConfirmButton>
        </>
      )}
    </Card>
  );
}
