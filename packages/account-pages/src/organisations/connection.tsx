import {
  SubmitButton,
  ssoConnectionQueryOptions,
  useAccountClient,
  useRemoveSsoConnection,
  useSaveSamlConnection,
  useSaveSsoConnection,
} from '@portico/account-react';
import { isAccountError } from '@portico/account-sdk';
import { enterpriseErrors } from '@portico/account-sdk/protocol';
import type { OidcSsoConnection, SamlSsoConnection } from '@portico/affiliate-sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../ui/button';
import { ConfirmButton } from '../ui/confirm-button';
import { useConnectionT } from './connection.messages';
import type { SectionProps } from './console-context';
import { Card, clearingFirst, clearOutcome, Field, Problem } from './parts';

type Protocol = 'oidc' | 'saml';

/**
 * The organisation's single sign-on connection (`sso:manage`), OpenID Connect or SAML 2.0 (saving one
 * replaces the other). OpenID Connect: issuer, client id and secret (never shown back: the form says
 * whether one is on file). SAML: the identity provider's metadata by its address (the server reads it;
 * a connection saved so can be read from it again) or as XML, or its entity id, address and
 * certificate; once saved, what to give the identity provider, to copy. Removing asks first.
 */
export function Connection({ org }: SectionProps) {
  const t = useConnectionT();
  const client = useAccountClient();
  const sid = org.sec_subject_uid;
  const current = useQuery(ssoConnectionQueryOptions(client, sid));
  const saveOidc = useSaveSsoConnection(sid);
  const saveSaml = useSaveSamlConnection(sid);
  const remove = useRemoveSsoConnection(sid);
  const [chosen, setChosen] = useState<Protocol | null>(null);
  const protocol: Protocol = chosen ?? current.data?.protocol ?? 'oidc';
  const save = protocol === 'oidc' ? saveOidc : saveSaml;
  const fresh = () => clearOutcome(saveOidc, saveSaml, remove);
  const radios = useId();
  return (
    <Card id="org-connection" title={t('con.title')}>
      {current.data ? (
        <p>{t(`con.current.${current.data.protocol}`, { issuer: current.data.issuer })}</p>
      ) : null}
      <fieldset className="portico-choice">
        <legend>{t('con.protocol')}</legend>
        {(['oidc', 'saml'] as const).map((p) => (
          <label key={p}>
            <input
              type="radio"
              name={radios}
              value={p}
              checked={protocol === p}
              onChange={() => {
                fresh();
                setChosen(p);
              }}
            />{' '}
            {t(`con.${p}`)}
          </label>
        ))}
      </fieldset>
      {current.data && current.data.protocol !== protocol ? (
        <p className="muted">{t('con.replaces')}</p>
      ) : null}
      {protocol === 'oidc' ? (
        <OidcForm
          oidc={current.data?.protocol === 'oidc' ? current.data : undefined}
          fresh={fresh}
          save={saveOidc}
        />
      ) : (
        <SamlForm
          saml={current.data?.protocol === 'saml' ? current.data : undefined}
          fresh={fresh}
          save={saveSaml}
        />
      )}
      <Problem error={save.error ?? remove.error ?? current.error} />
      <MetadataReason error={save.error} />
      <p role="status" className="success">
        {save.isSuccess ? t('con.saved') : ''}
      </p>
      {current.data?.protocol === 'saml' ? <ServiceProvider saml={current.data} /> : null}
      {current.data ? (
        <ConfirmButton
          className="button button-secondary button-block"
          title={t('con.remove.title')}
          description={t('con.remove.body')}
          disabled={remove.isPending}
          onConfirm={() => {
            fresh();
            setChosen(null);
            remove.mutate();
          }}
        >
          {t('con.remove')}
        </ConfirmButton>
      ) : null}
    </Card>
  );
}

function OidcForm({
  oidc,
  fresh,
  save,
}: {
  oidc: OidcSsoConnection | undefined;
  fresh(): void;
  save: ReturnType<typeof useSaveSsoConnection>;
}) {
  const t = useConnectionT();
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  useEffect(() => {
    setIssuer(oidc?.issuer ?? '');
    setClientId(oidc?.client_id ?? '');
  }, [oidc]);
  const edit = clearingFirst(fresh);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!issuer || !clientId) return;
    fresh();
    save.mutate(
      { issuer, client_id: clientId, ...(secret ? { client_secret: secret } : {}) },
      { onSuccess: () => setSecret('') },
    );
  }
  return (
    <form className="form" noValidate onSubmit={submit} aria-label={t('con.oidc')}>
      <p>{t('con.intro')}</p>
      <Field label={t('con.issuer')} value={issuer} onChange={edit(setIssuer)} required />
      <Field label={t('con.clientId')} value={clientId} onChange={edit(setClientId)} required />
      <Field label={t('con.clientSecret')} value={secret} onChange={edit(setSecret)} />
      {oidc?.has_secret ? <p className="muted">{t('con.secretKept')}</p> : null}
      <SubmitButton pending={save.isPending}>{t('con.save')}</SubmitButton>
    </form>
  );
}

function SamlForm({
  saml,
  fresh,
  save,
}: {
  saml: SamlSsoConnection | undefined;
  fresh(): void;
  save: ReturnType<typeof useSaveSamlConnection>;
}) {
  const t = useConnectionT();
  const [metadataUrl, setMetadataUrl] = useState('');
  const [metadata, setMetadata] = useState('');
  const [entityId, setEntityId] = useState('');
  const [ssoUrl, setSsoUrl] = useState('');
  const [certificate, setCertificate] = useState('');
  const [missing, setMissing] = useState(false);
  useEffect(() => setMetadataUrl(saml?.metadata_url ?? ''), [saml]);
  const edit = clearingFirst(() => {
    fresh();
    setMissing(false);
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    fresh();
    const url = metadataUrl.trim();
    const xml = metadata.trim();
    const parts = [entityId, ssoUrl, certificate].map((v) => v.trim());
    if (!url && !xml && parts.some((v) => !v)) return setMissing(true);
    // The address, when given, is read by the server; else the metadata names everything; the fields
    // are the other way in.
    const [entity_id, sso_url, cert] = parts as [string, string, string];
    save.mutate(
      url ? { metadata_url: url } : xml ? { metadata_xml: xml } : { entity_id, sso_url, certificate: cert },
      { onSuccess: () => setMetadata('') },
    );
  }
  const storedUrl = saml?.metadata_url;
  return (
    <form className="form" noValidate onSubmit={submit} aria-label={t('con.saml')}>
      <p>{t('con.saml.intro')}</p>
      <Field label={t('con.saml.metadataUrl')} value={metadataUrl} onChange={edit(setMetadataUrl)} />
      <p className="muted">{t('con.saml.metadataUrlHint')}</p>
      {storedUrl ? (
        <Button
          variant="secondary"
          disabled={save.isPending}
          onClick={() => {
            fresh();
            setMissing(false);
            setMetadataUrl(storedUrl);
            save.mutate({ metadata_url: storedUrl });
          }}
        >
          {t('con.saml.refresh')}
        </Button>
      ) : null}
      <p className="muted">{t('con.saml.orXml')}</p>
      <Field label={t('con.saml.metadata')} value={metadata} onChange={edit(setMetadata)} multiline />
      <p className="muted">{t('con.saml.or')}</p>
      <Field label={t('con.saml.entityId')} value={entityId} onChange={edit(setEntityId)} />
      <Field label={t('con.saml.ssoUrl')} value={ssoUrl} onChange={edit(setSsoUrl)} />
      <Field
        label={t('con.saml.certificate')}
        value={certificate}
        onChange={edit(setCertificate)}
        multiline
      />
      {missing ? (
        <p role="alert" className="portico-error">
          {t('con.saml.missing')}
        </p>
      ) : null}
      <SubmitButton pending={save.isPending}>{t('con.save')}</SubmitButton>
    </form>
  );
}

/** The reasons a metadata address could not be read, each with words of its own. */
const FETCH_REASONS = ['url', 'refused', 'fetch', 'timeout', 'too_large'] as const;
type FetchReason = (typeof FETCH_REASONS)[number];

/** Why the server could not read the metadata from its address, under the catalogue's sentence. */
function MetadataReason({ error }: { error: unknown }) {
  const t = useConnectionT();
  if (
    !isAccountError(error) ||
    error.error_code !== enterpriseErrors.codes.connectionMetadataInvalid.code ||
    !FETCH_REASONS.includes(error.data.reason as FetchReason)
  )
    return null;
  return <p className="muted">{t(`con.saml.reason.${error.data.reason as FetchReason}`)}</p>;
}

/** What the organisation's IT gives the identity provider about us, each with a copy button. */
function ServiceProvider({ saml }: { saml: SamlSsoConnection }) {
  const t = useConnectionT();
  const [copied, setCopied] = useState('');
  const rows = [
    [t('con.sp.metadataUrl'), saml.sp_metadata_url],
    [t('con.sp.entityId'), saml.sp_entity_id],
    [t('con.sp.acsUrl'), saml.acs_url],
  ] as const;
  return (
    <section aria-labelledby="org-connection-sp">
      <h3 id="org-connection-sp">{t('con.sp.title')}</h3>
      <p className="muted">{t('con.sp.intro')}</p>
      {rows.map(([name, value]) => (
        <CopyRow key={name} name={name} value={value} onCopied={() => setCopied(t('con.copied', { name }))} />
      ))}
      <p role="status">{copied}</p>
    </section>
  );
}

function CopyRow({ name, value, onCopied }: { name: string; value: string; onCopied(): void }) {
  const t = useConnectionT();
  const id = useId();
  return (
    <div className="portico-field">
      <label htmlFor={id}>{name}</label>
      <input id={id} value={value} readOnly onFocus={(e) => e.currentTarget.select()} />
      <Button
        variant="secondary"
        aria-label={t('con.copy.label', { name })}
        onClick={() => void navigator.clipboard?.writeText(value).then(onCopied, () => {})}
      >
        {t('con.copy')}
      </Button>
    </div>
  );
}
