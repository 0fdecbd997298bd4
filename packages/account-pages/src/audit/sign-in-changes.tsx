import {
  ErrorMessage,
  signInChangesQueryOptions,
  useAccountClient,
  useAccountLanguage,
  useDisownSignInChange,
} from '@portico/account-react';
import type { AuditEntry, SignInChange } from '@portico/account-sdk';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { loginHref } from '../next/safe-next';
import { ConfirmButton } from '../ui/confirm-button';
import { useAuditT } from './audit.messages';
import { eventText } from './audit-entries';
import { useSignInChangesT } from './sign-in-changes.messages';

export interface SignInChangesProps {
  /** Where the password is reset (the app's reset-password screen). Default `/reset-password`. */
  resetPasswordHref?: string;
  /** Where the person signs in again; default the login page, back to this page after. */
  signInHref?: string;
}

/** When, in the page's language. */
function When({ at, language }: { at: number; language: string }) {
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()}>{date.toLocaleString(language === 'zh' ? 'zh-CN' : 'en-GB')}</time>
  );
}

/** After "this wasn't me": signed out everywhere, and what to do next (focus moves here). */
function SecureNext({ resetPasswordHref, signInHref }: Required<SignInChangesProps>) {
  const t = useSignInChangesT();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div role="alert" className="portico-secure-next">
      <h3 ref={heading} tabIndex={-1}>
        {t('changes.secureTitle')}
      </h3>
      <p>{t('changes.secureBody')}</p>
      <ol>
        <li>
          {t('changes.stepReset')} — <a href={resetPasswordHref}>{t('changes.reset')}</a>
        </li>
        <li>
          {t('changes.stepReview')} — <a href={signInHref}>{t('changes.signIn')}</a>
        </li>
      </ol>
    </div>
  );
}

/**
 * The account centre's recent changes to sign-in methods (the last 30 days, from the account's events),
 * each with "This wasn't me": confirmed, it signs the account out everywhere (this browser too) and
 * forgets every remembered device, then leads the person to reset their password and review their
 * sign-in methods. A change not yet disowned shows as a notice at the top.
 */
export function SignInChanges({
  resetPasswordHref = '/reset-password',
  signInHref = loginHref('/account/security'),
}: SignInChangesProps) {
  const t = useSignInChangesT();
  const auditT = useAuditT();
  const id = useId();
  const client = useAccountClient();
  const changes = useQuery(signInChangesQueryOptions(client));
  const disown = useDisownSignInChange();
  const language = useAccountLanguage();
  const list = changes.data?.changes ?? [];
  const open = list.filter((change) => !change.disowned);
  const what = (change: SignInChange) => eventText(auditT, change as unknown as AuditEntry);

  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{t('changes.title')}</h2>
      <p className="muted">{t('changes.intro')}</p>
      {disown.isSuccess ? (
        <SecureNext resetPasswordHref={resetPasswordHref} signInHref={signInHref} />
      ) : (
        <>
          {open.length > 0 && (
            <p role="status" className="portico-notice">
              {t('changes.notice', { count: open.length })}
            </p>
          )}
          {changes.data && list.length === 0 && <p>{t('changes.none')}</p>}
          {list.length > 0 && (
            <table className="audit-table">
              <caption className="visually-hidden">{t('changes.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('changes.when')}</th>
                  <th scope="col">{t('changes.what')}</th>
                  <th scope="col">{t('changes.from')}</th>
                  <th scope="col">{t('changes.action')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((change) => (
                  <tr key={change.id}>
                    <td>
                      <When at={change.occurred_at} language={language} />
                    </td>
                    <td>
                      {what(change)}
                      {typeof change.data.identifier === 'string' ? ` · ${change.data.identifier}` : ''}
                    </td>
                    <td>{change.ip ?? ''}</td>
                    <td>
                      {change.disowned ? (
                        t('changes.disowned')
                      ) : (
                        <ConfirmButton
                          title={t('changes.confirmTitle')}
                          description={t('changes.confirmBody')}
                          confirmLabel={t('changes.confirm')}
                          aria-label={t('changes.notMeLabel', { what: what(change) })}
                          disabled={disown.isPending}
                          onConfirm={() => disown.mutate({ event_id: change.id })}
                        >
                          {t('changes.notMe')}
                        </ConfirmButton>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <ErrorMessage error={disown.error} />
        </>
      )}
    </section>
  );
}
