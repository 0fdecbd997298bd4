import { Link } from 'react-router';
import { useLanguage } from '../i18n/language';
import type { LegalDocument } from '../lib/legal';
import { useLegalT } from './legal.messages';
import { PageShell } from './page-shell';
import { RichText } from './rich-text';

/** One version of a legal document, with links to the other versions. */
export function LegalPage({ document }: { document: LegalDocument }) {
  const language = useLanguage();
  const t = useLegalT();
  const date = (ms: number) =>
    new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'long' }).format(new Date(ms));
  const latest = document.versions[0]?.id;
  return (
    <PageShell>
      <article className="container narrow prose">
        <h1>{document.title[language]}</h1>
        <p className="muted">
          {t('legal.version', { id: document.id })} ·{' '}
          {t('legal.published', { date: date(document.published_at) })}
          {document.id === latest ? ` · ${t('legal.latest')}` : ''}
        </p>
        <RichText text={document.body[language]} />
        {document.versions.length > 1 ? (
          <nav aria-labelledby="legal-versions" className="legal-versions">
            <h2 id="legal-versions">{t('legal.versions')}</h2>
            <ul>
              {document.versions.map((version) => (
                <li key={version.id}>
                  <Link
                    to={`/${document.kind}/${encodeURIComponent(version.id)}`}
                    aria-current={version.id === document.id ? 'page' : undefined}
                  >
                    {t('legal.version', { id: version.id })} · {date(version.published_at)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </article>
    </PageShell>
  );
}
