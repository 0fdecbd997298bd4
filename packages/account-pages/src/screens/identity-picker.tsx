import {
  identitiesQueryOptions,
  useAccountClient,
  useSession,
  useSwitchIdentity,
} from '@portico/account-react';
import { useQuery } from '@tanstack/react-query';
import { Problem } from '../organisations/parts';
import { Button } from '../ui/button';
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
 * server words it.
 */
export function IdentityPicker({ onChanged }: IdentityPickerProps) {
  const t = useIdentityPickerT();
  const session = useSession();
  const org = session.data?.org;
  const list = useQuery(identitiesQueryOptions(useAccountClient()));
  const use = useSwitchIdentity();
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
                {identity.is_frozen ? ` · ${t('identity.frozen')}` : ''}
              </span>
              {identity.active ? (
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
      <Problem error={use.error ?? list.error} />
    </section>
  );
}
