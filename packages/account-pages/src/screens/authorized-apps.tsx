import { ErrorMessage, useAccountClient } from '@portico/account-react';
import { listAuthorizedApps, revokeAuthorizedApp } from '@portico/account-sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { defineMessages } from '../i18n/define';

export const { useTranslate: useAuthorizedAppsT } = defineMessages(
  {
    'apps.title': '已授权的应用',
    'apps.subtitle':
      '这些应用可以按你授予的权限使用你的账号。撤销后，它们的令牌立即失效，下次使用需重新授权。',
    'apps.none': '你还没有授权任何应用。',
    'apps.revoke': '撤销授权',
    'apps.since': '授权于 {date}',
  },
  {
    'apps.title': 'Authorised apps',
    'apps.subtitle':
      'These apps may use your account within the scopes you granted. Revoking ends their tokens at once; they must ask again.',
    'apps.none': 'You have not authorised any app.',
    'apps.revoke': 'Revoke',
    'apps.since': 'Authorised on {date}',
  },
);

const appsKey = ['portico', 'open', 'authorized-apps'] as const;

/**
 * The account centre's authorised apps (open/authorized_apps): each app with its scopes and a Revoke
 * button (open/update_authorize_info), which ends its grants, codes and tokens at once.
 */
export function AuthorizedApps() {
  const t = useAuthorizedAppsT();
  const client = useAccountClient();
  const queryClient = useQueryClient();
  const apps = useQuery({ queryKey: appsKey, queryFn: () => listAuthorizedApps(client) });
  const revoke = useMutation({
    mutationFn: (clientKey: string) => revokeAuthorizedApp(client, { client_key: clientKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appsKey }),
  });
  const list = apps.data?.apps ?? [];
  return (
    <div>
      {apps.isSuccess && list.length === 0 ? <p className="muted">{t('apps.none')}</p> : null}
      <ul className="portico-authorized-apps">
        {list.map((app) => (
          <li key={app.client_key}>
            {app.app_icon ? <img src={app.app_icon} alt="" width={32} height={32} /> : null}
            <span>
              <strong>{app.app_name}</strong>
              <span className="muted"> · {app.scopes.join(', ')}</span>
              <span className="muted">
                {' · '}
                {t('apps.since', { date: new Date(app.authorized_at).toLocaleDateString() })}
              </span>
            </span>
            <button
              type="button"
              className="button-secondary"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(app.client_key)}
              aria-label={`${t('apps.revoke')}: ${app.app_name}`}
            >
              {t('apps.revoke')}
            </button>
          </li>
        ))}
      </ul>
      <ErrorMessage error={revoke.error ?? apps.error} />
    </div>
  );
}
