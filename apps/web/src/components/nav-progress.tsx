import { useNavigation } from 'react-router';
import { useT } from '../i18n/messages';

/**
 * The route loading indicator: a bar across the top while a navigation loads its code or data. It
 * appears after a short delay (CSS), so quick navigations do not flash, and it is announced politely.
 */
export function NavProgress() {
  const navigation = useNavigation();
  const t = useT();
  const busy = navigation.state !== 'idle';
  return (
    <div className="nav-progress" data-busy={busy}>
      {busy ? <div className="nav-progress-bar" role="progressbar" aria-label={t('loading.page')} /> : null}
      <span className="visually-hidden" role="status">
        {busy ? t('loading.page') : ''}
      </span>
    </div>
  );
}
