import { ErrorMessage, useSession } from '@portico/account-react';
import type { AccountClient } from '@portico/account-sdk';
import { type LoginIdentity, subjectLogin, subjectLoginList, switchMember } from '@portico/affiliate-sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useIdentityPickerT } from './identity-picker.messages';

export interface IdentityPickerProps {
  client: AccountClient;
  /** Called after an identity became active (the picker has refreshed every query already). */
  onChanged?: () => void;
}

/**
 * The organisation identity picker (issue 12), shared by the apps (web's /org, the sso flavour): the
 * active identity, and every identity of the signed-in person (`subjectLoginList`) with a button to act
 * as it (`subjectLogin`, or `switchMember` to '0' for the personal one). Acting as another identity is a
 * new session, so every query is refreshed afterwards. A frozen identity's refusal is shown as the
 * server words it.
 */
export function IdentityPicker({ client, onChanged }: IdentityPickerProps) {
  const t = useIdentityPickerT();
  const queryClient = useQueryClient();
  const session = useSession();
  const org = session.data?.org;
  const list = useQuery({
    queryKey: ['portico', 'org', 'identities'],
    queryFn: () => subjectLoginList(client),
  });
  const use = useMutation({
    mutationFn: async (identity: LoginIdentity): Promise<unknown> =>
      identity.sec_subject_uid
        ? subjectLogin(client, {
            login_subject_uid: identity.sec_subject_uid,
            user_identity_id: identity.user_identity_id,
          })
        : switchMember(client, { to_sec_member_id: '0' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      onChanged?.();
    },
  });
  const error = use.error ?? list.error;
  // A 16xx failure in the server's words: the account SDK's catalogue does not hold the 16xx texts.
  const description = (error as { description?: unknown } | null)?.description;
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
                <button
                  type="button"
                  className="button-secondary"
                  onClick={() => use.mutate(identity)}
                  aria-label={`${t('identity.use')}: ${name}`}
                >
                  {t('identity.use')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <ErrorMessage error={typeof description === 'string' && description ? description : error} />
    </section>
  );
}
