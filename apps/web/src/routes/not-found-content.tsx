import { Link } from 'react-router';
import { useT } from '../i18n/messages';

export function NotFoundContent() {
  const t = useT();
  return (
    <section className="container narrow message-page">
      <p className="message-code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <Link to="/" className="button button-primary">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
