import { ErrorMessage, useAccountClient, useAccountLanguage } from '@portico/account-react';
import { listAuthorizedApps, revokeAuthorizedApp } from '@portico/account-sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { defineMessages } from '../i18n/define';
import { ConfirmButton } from '../ui/confirm-button';

export const { useTranslate: useAuthorizedAppsT } = defineMessages(
  {
    'apps.title': '已授权的应用',
    'apps.subtitle':
      '这些应用可以按你授予的权限使用你的账号。撤销后，它们的令牌立即失效，下次使用需重新授权。',
    'apps.none': '你还没有授权任何应用。',
    'apps.loading': '正在读取已授权的应用…',
    'apps.revoke': '撤销授权',
    'apps.since': '授权于 {date}',
    'apps.may': '可以：',
    'apps.identityOnly': '知道是你（账号标识）',
    'apps.confirmTitle': '撤销「{app}」的授权？',
    'apps.confirmBody': '{app} 的令牌会立即失效；它下次请求时需要你重新同意。',
  },
  {
    'apps.title': 'Authorised apps',
    'apps.subtitle':
      'These apps may use your account within the scopes you granted. Revoking ends their tokens at once; they must ask again.',
    'apps.none': 'You have not authorised any app.',
    'apps.loading': 'Reading your authorised apps…',
    'apps.revoke': 'Revoke',
    'apps.since': 'Authorised on {date}',
    'apps.may': 'May:',
    'apps.identityOnly': 'know it is you (your account identifier)',
    'apps.confirmTitle': 'Revoke {app}?',
    'apps.confirmBody': 'Its tokens stop working at once; the next time it asks, you decide again.',
  },
);

const appsKey = ['portico', 'open', 'authorized-apps'] as const;

/**
 * The account centre's authorised apps (open/authorized_apps): each app with what it may do, in words,
 * since when, and Revoke (open/update_authorize_info, confirmed first), which ends its grants, codes
 * and tokens at once.
 */
export function AuthorizedApps() {
  const t = useAuthorizedAppsT();
  const language = useAccountLanguage();
  const client = useAccountClient();
  const queryClient = useQueryClient();
  const apps = useQuery({ queryKey: appsKey, queryFn: () => listAuthorizedApps(client) });
  const revoke = useMutation({
    mutationFn: (clientKey: string) => revokeAuthorizedApp(client, { client_key: clientKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appsKey }),
  });
  const list = apps.data?.apps ?? [];
  const dateFormat = new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium' });
  return (
    <div className="portico-authorized">
      {apps.isPending ? (
        <p role="status" className="muted">
          {t('apps.loading')}
        </p>
      ) : null}
      {apps.isSuccess && list.length === 0 ? <p className="muted">{t('apps.none')}</p> : null}
      <ul className="portico-authorized-apps">
        {list.map((app) => {
          const words = (app.scope_info ?? app.scopes.map((name) => ({ name, zh: name, en: name }))).map(
            (scope) => (language === 'zh' ? scope.zh : scope.en),
          );
          return (
            <li key={app.client_key} className="portico-authorized-app">
              {app.app_icon ? (
                <img className="portico-authz-icon" src={app.app_icon} alt="" width={40} height={40} />
              ) : (
                <span className="portico-authz-icon portico-authz-initial" aria-hidden="true">
                  {Array.from(app.app_name)[0]?.toUpperCase()}
                </span>
              )}
              <div className="portico-authorized-app-body">
                <strong>{app.app_name}</strong>
                <span className="muted">
                  {t('apps.since', { date: dateFormat.format(new Date(app.authorized_at)) })}
                </span>
                <span>
                  {t('apps.may')}{' '}
                  {words.length ? words.join(language === 'zh' ? '；' : '; ') : t('apps.identityOnly')}
                </span>
              </div>
              <ConfirmButton
                className="button button-secondary button-small"
                disabled={revoke.isPending}
                title={t('apps.confirmTitle', { app: app.app_name })}
                description={t('apps.confirmBody', { app: app.app_name })}
                onConfirm={() => revoke.mutate(app.client_key)}
                aria-label={`${t('apps.revoke')}: ${app.app_name}`}
              >
                {t('apps.revoke')}
              </ConfirmButton>
            </li>
          );
        })}
      </ul>
      <ErrorMessage error={revoke.error ?? apps.error} />
    </div>
  );
}
