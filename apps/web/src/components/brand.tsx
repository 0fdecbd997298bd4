import { Link } from 'react-router';
import { useT } from '../i18n/messages';

export function Brand() {
  const t = useT();
  return (
    <Link to="/" className="brand">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path
          d="M9 25V7h8a6 6 0 0 1 0 12h-4v6z"
          fill="none"
          stroke="var(--brand-contrast)"
          strokeWidth="3"
          strokeLinejoin="round"
        />
      </svg>
      <span>{t('app.name')}</span>
    </Link>
  );
}
