import {
  identitiesQueryOptions,
  useAccountClient,
  useAnswerMembership,
  useSession,
  useSwitchIdentity,
} from '@portico/account-react';
import type { LoginIdentity } from '@portico/affiliate-sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Problem } from '../organisations/parts';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import { useIdentityPickerT } from './identity-picker.messages';

export interface IdentityPickerProps {
  /** Called after an identity became active (the picker has refreshed the account's queries already). */
  onChanged?: () => void;
}

/**
 * The organisation identity picker (issue 12), shared by the apps (web's /org, the sso flavour): the
 * active identity, and every identity of the signed-in person (`subjectLoginList`) with a button to act
 * as it (`useSwitchIdentity`). Acting as another identity is a new session, so everything cached about
 * the account is refreshed afterwards. A frozen identity's refusal is shown as the
 * server words it. A membership an organisation's identity provider provisioned for the account waits
 * for the person: it is marked so, with Accept and Decline (Decline confirmed first) instead of "Use".
 */
export function IdentityPicker({ onChanged }: IdentityPickerProps) {
  const t = useIdentityPickerT();
  const session = useSession();
  const org = session.data?.org;
  const list = useQuery(identitiesQueryOptions(useAccountClient()));
  const use = useSwitchIdentity();
  const answer = useAnswerMembership();
  // What the last answer did, said in the status line.
  const [answered, setAnswered] = useState('');
  const respond = (identity: LoginIdentity, decline: boolean) => {
    const organisation = identity.subject_name ?? '';
    setAnswered('');
    use.reset();
    answer.mutate(
      { subject_uid: identity.sec_subject_uid ?? '', ...(decline ? { decline: true } : {}) },
      {
        onSuccess: () =>
          setAnswered(t(decline ? 'identity.declined' : 'identity.accepted', { org: organisation })),
      },
    );
  };
  return (
    <section className="card" aria-labelledby="identity-picker-title">
      <h2 id="identity-picker-title">{t('identity.title')}</h2>
      <p>
        {org
          ? t('identity.actingAs', { name: org.deputy_name, org: org.subject_name })
          : t('identity.actingPersonal')}
      </p>
      <h3>{t('identity.list')}</h3>
      <ul className="portico-identity-list">
        {list.data?.items.map((identity) => {
          const name = identity.sec_subject_uid
            ? `${identity.subject_name} · ${identity.deputy_name}`
            : t('identity.personal');
          return (
            <li key={identity.user_identity_id}>
              <span>
                {name}
                {identity.is_manager ? ` · ${t('identity.manager')}` : ''}
                {identity.awaiting_acceptance
                  ? ` · ${t('identity.awaiting')}`
                  : identity.is_frozen
                    ? ` · ${t('identity.frozen')}`
                    : ''}
              </span>
              {identity.awaiting_acceptance ? (
                <span className="portico-identity-actions">
                  <Button
                    variant="primary"
                    disabled={answer.isPending}
                    onClick={() => respond(identity, false)}
                    aria-label={`${t('identity.accept')}: ${identity.subject_name}`}
                  >
                    {t('identity.accept')}
                  </Button>
                  <ConfirmButton
                    title={t('identity.decline.title', { org: identity.subject_name ?? '' })}
                    description={t('identity.decline.body', { org: identity.subject_name ?? '' })}
                    disabled={answer.isPending}
                    onConfirm={() => respond(identity, true)}
                    aria-label={`${t('identity.decline')}: ${identity.subject_name}`}
                  >
                    {t('identity.decline')}
                  </ConfirmButton>
                </span>
              ) : identity.active ? (
                <strong>{t('identity.inUse')}</strong>
              ) : (
                <Button
                  variant="secondary"
                  onClick={() => use.mutate(identity, { onSuccess: () => onChanged?.() })}
                  aria-label={`${t('identity.use')}: ${name}`}
                >
                  {t('identity.use')}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <p role="status" className="success">
        {answered}
      </p>
      <Problem error={answer.error ?? use.error ?? list.error} />
    </section>
  );
}
