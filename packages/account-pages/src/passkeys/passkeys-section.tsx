import {
  ErrorMessage,
  SubmitButton,
  usePasskeys,
  useRegisterPasskey,
  useRemovePasskey,
  useRenamePasskey,
} from '@portico/account-react';
import type { PasskeyData } from '@portico/account-sdk';
import { passkeysSupported } from '@portico/account-sdk/passkeys';
import { type FormEvent, useId, useState } from 'react';
import { useDate } from '../account-centre/use-date';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import { isBrowserError, isCancelled, usePasskeyT } from './passkeys.messages';

/**
 * The account security page's passkeys (docs/factors.md): add one with a name (the browser creates
 * it; a recent verification is asked for by the step-up dialog when needed), the list with each one's
 * device type and last use, rename, and remove after a confirmation. A section of its own, beside the
 * identifiers' sections of screens/account-security.
 */

type T = ReturnType<typeof usePasskeyT>;

/** The browser's refusal in words; the passport's through ErrorMessage. */
function CeremonyError({ t, error }: { t: T; error: unknown }) {
  if (!error) return null;
  if (isCancelled(error))
    return (
      <p role="status" className="muted">
        {t('passkey.cancelled')}
      </p>
    );
  if (isBrowserError(error))
    return (
      <p role="alert" className="portico-error">
        {t('passkey.browserFailed')}
      </p>
    );
  return <ErrorMessage error={error} />;
}

function AddPasskey({ t, onAdded }: { t: T; onAdded(name: string): void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const register = useRegisterPasskey();
  const fieldId = useId();
  if (!open)
    return (
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {t('passkey.add')}
      </Button>
    );
  function submit(event: FormEvent) {
    event.preventDefault();
    register.mutate(
      { name: name.trim() || t('passkey.namePlaceholder') },
      {
        onSuccess: (passkey) => {
          setOpen(false);
          setName('');
          onAdded(passkey.name);
        },
      },
    );
  }
  return (
    <form noValidate onSubmit={submit} className="form">
      <div className="portico-field">
        <label htmlFor={fieldId}>{t('passkey.name')}</label>
        <input
          id={fieldId}
          type="text"
          maxLength={64}
          autoComplete="off"
          placeholder={t('passkey.namePlaceholder')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          aria-describedby={`${fieldId}-hint`}
        />
        <p id={`${fieldId}-hint`} className="portico-field-hint">
          {t('passkey.nameHint')}
        </p>
      </div>
      <CeremonyError t={t} error={register.error} />
      <SubmitButton pending={register.isPending}>{t('passkey.create')}</SubmitButton>
      <Button variant="ghost" onClick={() => setOpen(false)}>
        {t('passkey.cancel')}
      </Button>
    </form>
  );
}

function RenameForm({ t, passkey, onDone }: { t: T; passkey: PasskeyData; onDone(name?: string): void }) {
  const [name, setName] = useState(passkey.name);
  const [problem, setProblem] = useState('');
  const rename = useRenamePasskey();
  const fieldId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    const value = name.trim();
    setProblem(value ? '' : t('passkey.needName'));
    if (!value) return;
    rename.mutate({ id: passkey.id, name: value }, { onSuccess: (renamed) => onDone(renamed.name) });
  }
  return (
    <form noValidate onSubmit={submit} className="form passkey-rename">
      <div className="portico-field">
        <label htmlFor={fieldId}>{t('passkey.renameLabel')}</label>
        <input
          id={fieldId}
          type="text"
          maxLength={64}
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${fieldId}-error` : undefined}
          required
        />
        {problem ? (
          <p id={`${fieldId}-error`} role="alert" className="portico-field-error">
            {problem}
          </p>
        ) : null}
      </div>
      <ErrorMessage error={rename.error} />
      <SubmitButton pending={rename.isPending}>{t('passkey.save')}</SubmitButton>
      <Button variant="ghost" onClick={() => onDone()}>
        {t('passkey.cancel')}
      </Button>
    </form>
  );
}

function PasskeyRow({
  t,
  passkey,
  onNotice,
  onRemove,
}: {
  t: T;
  passkey: PasskeyData;
  onNotice(text: string): void;
  onRemove(passkey: PasskeyData): void;
}) {
  const date = useDate();
  const [renaming, setRenaming] = useState(false);
  return (
    <li className="linked-account passkey">
      <div className="linked-account-name">
        <strong>{passkey.name}</strong>
        <span>{passkey.device_type === 'multiDevice' ? t('passkey.synced') : t('passkey.singleDevice')}</span>
        <span className="muted">
          {t('passkey.createdAt', { date: date(passkey.created_at) })} ·{' '}
          {passkey.last_used_at === null
            ? t('passkey.neverUsed')
            : t('passkey.lastUsed', { date: date(passkey.last_used_at) })}
        </span>
      </div>
      {renaming ? (
        <RenameForm
          t={t}
          passkey={passkey}
          onDone={(name) => {
            setRenaming(false);
            if (name) onNotice(t('passkey.renamed', { name }));
          }}
        />
      ) : (
        <div className="linked-account-actions">
          <Button
            variant="secondary"
            size="small"
            aria-label={`${t('passkey.rename')}: ${passkey.name}`}
            onClick={() => setRenaming(true)}
          >
            {t('passkey.rename')}
          </Button>
          <ConfirmButton
            className="button button-danger-ghost button-small"
            aria-label={`${t('passkey.remove')}: ${passkey.name}`}
            title={t('passkey.removeTitle', { name: passkey.name })}
            description={t('passkey.removeBody')}
            onConfirm={() => onRemove(passkey)}
          >
            {t('passkey.remove')}
          </ConfirmButton>
        </div>
      )}
    </li>
  );
}

/** The passkeys section of the account security page, for the signed-in account. */
export function PasskeysSection() {
  const t = usePasskeyT();
  const headingId = useId();
  const listId = useId();
  const passkeys = usePasskeys();
  const remove = useRemovePasskey();
  const [notice, setNotice] = useState('');
  const [supported] = useState(() => passkeysSupported());
  const rows = passkeys.data ?? [];
  return (
    <section className="card portico-security-section passkeys" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('passkey.title')}</h2>
      <p className="muted">{t('passkey.intro')}</p>
      <p role="status" className="success">
        {notice}
      </p>
      {passkeys.error ? <ErrorMessage error={passkeys.error} /> : null}
      {passkeys.data && rows.length === 0 ? <p>{t('passkey.none')}</p> : null}
      {rows.length > 0 ? (
        <>
          <h3 id={listId}>{t('passkey.list')}</h3>
          <ul className="linked-accounts-list" aria-labelledby={listId}>
            {rows.map((passkey) => (
              <PasskeyRow
                key={passkey.id}
                t={t}
                passkey={passkey}
                onNotice={setNotice}
                onRemove={(row) =>
                  remove.mutate(
                    { id: row.id },
                    { onSuccess: () => setNotice(t('passkey.removed', { name: row.name })) },
                  )
                }
              />
            ))}
          </ul>
        </>
      ) : null}
      <ErrorMessage error={remove.error} />
      {supported ? (
        <AddPasskey t={t} onAdded={(name) => setNotice(t('passkey.added', { name }))} />
      ) : (
        <p className="muted">{t('passkey.unsupported')}</p>
      )}
    </section>
  );
}
