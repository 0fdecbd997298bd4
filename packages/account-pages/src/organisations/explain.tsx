import {
  membersQueryOptions,
  permissionCatalogueQueryOptions,
  SubmitButton,
  useAccountClient,
} from '@portico/account-react';
import { explainPermission } from '@portico/affiliate-sdk';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SectionProps } from './console-context';
import { useOrgT } from './organisation.messages';
import { Card, Choice, clearingFirst, clearOutcome, Problem } from './parts';
import { usePermissionWords } from './permission-words';

/** "Why does this member have permission X": the roles granting it, or the manager's standing. */
export function Explain({ org, can }: SectionProps) {
  const t = useOrgT();
  const { word, words } = usePermissionWords();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const members = useQuery({ ...membersQueryOptions(client, sid), enabled: can('member:read') });
  const catalogue = useQuery(permissionCatalogueQueryOptions(client, sid));
  const [who, setWho] = useState(org.user_identity_id);
  const [permission, setPermission] = useState('');
  // A question, not a change: nothing cached moves.
  const explain = useMutation({
    mutationFn: () => explainPermission(client, { subject_uid: sid, identity_id: who, permission }),
  });
  // Another member or permission chosen: the last answer was about something else.
  const asking = clearingFirst(() => clearOutcome(explain));
  const people: [string, string][] = members.data
    ? members.data.items.map((m) => [m.user_identity_id, m.deputy_name])
    : [[org.user_identity_id, org.deputy_name]];
  const nameOf = (id: string) => people.find(([i]) => i === id)?.[1] ?? id;
  return (
    <Card id="org-explain" title={t('org.explain')}>
      <p>
        {t('org.myPermissions')}: {words(org.permissions, t('org.none'))}
      </p>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (who && permission) explain.mutate();
        }}
      >
        <p className="muted">{t('org.explainIntro')}</p>
        <Choice
          label={t('org.member')}
          value={who}
          onChange={asking(setWho)}
          placeholder={t('org.chooseMember')}
          options={people}
        />
        <Choice
          label={t('org.permission')}
          value={permission}
          onChange={asking(setPermission)}
          placeholder={t('org.permission')}
          options={(catalogue.data ?? []).map((p) => [p, word(p)])}
        />
        <SubmitButton pending={explain.isPending}>{t('org.check')}</SubmitButton>
      </form>
      {explain.data && (
        <div role="status" className="org-explanation">
          <p>
            <strong>
              {t(explain.data.granted ? 'org.granted' : 'org.notGranted', {
                name: nameOf(explain.data.user_identity_id),
                permission: word(explain.data.permission),
              })}
            </strong>
          </p>
          {explain.data.by_manager && <p>{t('org.byManager')}</p>}
          <ul>
            {explain.data.roles.map((r) => (
              <li key={r.role_key}>
                {t('org.byRole', { role: r.role_name, entries: words(r.permissions, t('org.none')) })}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Problem error={explain.error} />
    </Card>
  );
}
