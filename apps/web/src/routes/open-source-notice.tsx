import { TableScroll } from '@portico/account-pages';
import { useLoaderData } from 'react-router';
import { useLegalT } from '../components/legal.messages';
import { PageShell } from '../components/page-shell';

/** One bundled package, as the build writes it to open-source-notice.json (vite.config.ts). */
export interface NoticeEntry {
  name: string;
  version: string;
  license: string;
  licenseText: string | null;
  repository: string | null;
}

/**
 * The notice is generated at build time from the packages actually bundled, and fetched here (it is not
 * part of the bundle: most visitors never open it). In development no notice exists: null.
 */
export async function loader({ request }: { request: Request }): Promise<NoticeEntry[] | null> {
  const response = await fetch('/open-source-notice.json', { signal: request.signal });
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return null;
  return (await response.json()) as NoticeEntry[];
}

export function Component() {
  const t = useLegalT();
  const entries = useLoaderData<typeof loader>();
  return (
    <PageShell>
      <article className="container prose notice">
        <h1>{t('legal.notice.title')}</h1>
        <p>{t('legal.notice.intro')}</p>
        {entries ? (
          <>
            <p className="muted">{t('legal.notice.count', { count: entries.length })}</p>
            <TableScroll label={t('legal.notice.title')}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('legal.notice.package')}</th>
                    <th scope="col">{t('legal.notice.version')}</th>
                    <th scope="col">{t('legal.notice.license')}</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((entry) => (
                    <tr key={`${entry.name}@${entry.version}`}>
                      <th scope="row">
                        {entry.repository ? (
                          <a href={entry.repository} rel="external noreferrer">
                            {entry.name}
                          </a>
                        ) : (
                          entry.name
                        )}
                      </th>
                      <td>{entry.version}</td>
                      <td>{entry.license}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            {entries.map((entry) => (
              <details key={`${entry.name}@${entry.version}`} className="notice-text">
                <summary>
                  {t('legal.notice.text')}: {entry.name} {entry.version}
                </summary>
                {entry.licenseText ? (
                  <pre>{entry.licenseText}</pre>
                ) : (
                  <p>{t('legal.notice.noText', { license: entry.license })}</p>
                )}
              </details>
            ))}
          </>
        ) : (
          <p role="status">{t('legal.notice.missing')}</p>
        )}
      </article>
    </PageShell>
  );
}
