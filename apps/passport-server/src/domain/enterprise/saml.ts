import { X509Certificate } from 'node:crypto';
import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { PassportError } from '../../errors';
import { enterpriseSsoPaths } from '../../protocol';
import type { ConnectionRow } from './connections';
import type { IdpIdentity } from './sso-sign-in';

/**
 * An organisation's SAML 2.0 connection (docs/enterprise-sso.md): reading the identity provider's
 * metadata, our service provider's names and metadata, and the protocol through @node-saml/node-saml
 * (the AuthnRequest, the signature, the issuer, the audience, the time windows and InResponseTo are
 * its checks; the destination and the recipient, which it does not check, are ours, read from the
 * assertion it verified).
 */

/** How far our clock and the identity provider's may differ. */
export const SAML_CLOCK_SKEW_MS = 2 * 60_000;
/** An assertion older than this (from its IssueInstant) is refused whatever its NotOnOrAfter says. */
export const SAML_MAX_ASSERTION_AGE_MS = 10 * 60_000;

const ATTRIBUTE_NAMES = {
  email: [
    'email',
    'mail',
    'emailaddress',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    'urn:oid:0.9.2342.19200300.100.1.3',
  ],
  name: [
    'name',
    'displayname',
    'http://schemas.microsoft.com/identity/claims/displayname',
    'urn:oid:2.16.840.1.113730.3.1.241',
  ],
};
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const TRANSIENT_FORMAT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What a SAML connection needs of the identity provider. */
export interface SamlIdp {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER, each one parsed as an X.509 certificate. */
  certificates: string[];
}

/** A SAML sign-in started in a browser, kept in the store under its RelayState until the response. */
export interface SamlFlow {
  subjectId: string;
  /** The identity provider's entity id when it started. */
  issuer: string;
  /** The AuthnRequest's id: the response must answer it (InResponseTo). */
  requestId: string;
  issuedAt: number;
  next: string;
}

/** Our service provider for one organisation: its entity id (its metadata's address) and the ACS. */
export interface SamlSp {
  entityId: string;
  acsUrl: string;
}

export const samlSpOf = (publicOrigin: string, subjectId: string): SamlSp => ({
  entityId: `${publicOrigin}${enterpriseSsoPaths.samlMetadata}?subject_uid=${encodeURIComponent(subjectId)}`,
  acsUrl: `${publicOrigin}${enterpriseSsoPaths.samlAcs}`,
});

const invalid = (reason: string) => new PassportError('connectionMetadataInvalid', { reason });

/** A certificate as PEM or bare base64: its base64 DER, once Node parses it as X.509. */
export function normaliseCertificate(raw: string): string {
  const body = raw
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    throw invalid('certificate');
  }
  return body;
}

/** An identity provider's addresses: http only on loopback while this server is too (the issuer rule). */
function checkSsoUrl(raw: string, development: boolean): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid('sso_url');
  }
  if (url.protocol !== 'https:' && !(development && url.protocol === 'http:')) throw invalid('sso_url');
  return url.href;
}

/**
 * The identity provider as given: its metadata (the entity id, the HTTP-Redirect single sign-on
 * address, the signing certificates), or the three given one by one. CONNECTION_METADATA_INVALID names
 * what could not be read.
 */
export function samlIdpOf(
  input: { metadata_xml?: string; entity_id?: string; sso_url?: string; certificate?: string },
  development: boolean,
): SamlIdp {
  if (input.metadata_xml) return parseIdpMetadata(input.metadata_xml, development);
  if (!input.entity_id?.trim() || !input.sso_url || !input.certificate) throw invalid('missing');
  return {
    entityId: input.entity_id.trim(),
    ssoUrl: checkSsoUrl(input.sso_url, development),
    certificates: [normaliseCertificate(input.certificate)],
  };
}

/** What is read of the nodes xpath selects (the server has no DOM globals). */
interface XmlElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
}
interface XmlAttr {
  value: string;
}

type Select = ReturnType<typeof xpath.useNamespaces>;

/** The nodes an expression selects, as what is read of them. */
function selectAll<T>(select: Select, expression: string, context: unknown): T[] {
  const found = select(expression, context as Parameters<Select>[1]);
  return (Array.isArray(found) ? found : []) as unknown as T[];
}
/** The attribute values an expression selects. */
const valuesOf = (select: Select, expression: string, context: unknown) =>
  selectAll<XmlAttr>(select, expression, context).map((node) => node.value);

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';

function parseIdpMetadata(xml: string, development: boolean): SamlIdp {
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: { error: (e) => errors.push(e), fatalError: (e) => errors.push(e) },
  }).parseFromString(xml, 'text/xml');
  if (errors.length > 0 || !doc?.documentElement) throw invalid('xml');
  const select = xpath.useNamespaces({ md: MD, ds: DS });
  const [entity] = selectAll<XmlElement>(select, '//md:EntityDescriptor[md:IDPSSODescriptor]', doc);
  if (!entity) throw invalid('idp_descriptor');
  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) throw invalid('entity_id');
  const [sso] = valuesOf(
    select,
    `md:IDPSSODescriptor/md:SingleSignOnService[@Binding='${REDIRECT_BINDING}']/@Location`,
    entity,
  );
  if (!sso) throw invalid('sso_url');
  const keys = selectAll<XmlElement>(
    select,
    "md:IDPSSODescriptor/md:KeyDescriptor[not(@use) or @use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate",
    entity,
  );
  if (keys.length === 0) throw invalid('certificate');
  return {
    entityId,
    ssoUrl: checkSsoUrl(sso, development),
    certificates: [...new Set(keys.map((key) => normaliseCertificate(key.textContent ?? '')))],
  };
}

const pem = (der: string) =>
  `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----`;

/** The one request id a flow may be answered for, as node-saml's InResponseTo cache. */
function requestCache(
  requestId: string | null,
  issuedAt: number,
  saved?: (id: string) => void,
): CacheProvider {
  return {
    saveAsync: async (key: string, value: string) => {
      saved?.(key);
      return { createdAt: issuedAt, value };
    },
    getAsync: async (key: string) => (key === requestId ? new Date(issuedAt).toISOString() : null),
    removeAsync: async () => null,
  };
}

function samlFor(connection: ConnectionRow, sp: SamlSp, cache: CacheProvider): SAML {
  const certificates = JSON.parse(connection.saml_certificates ?? '[]') as string[];
  return new SAML({
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: connection.saml_sso_url ?? '',
    idpIssuer: connection.issuer,
    idpCert: certificates.map(pem),
    // The assertion must be signed; many providers sign only it, not the response around it.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    maxAssertionAgeMs: SAML_MAX_ASSERTION_AGE_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: 10 * 60_000,
    cacheProvider: cache,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  });
}

/** Our SP metadata for the organisation's connection: its entity id and ACS to give the provider. */
export function samlSpMetadata(connection: ConnectionRow, sp: SamlSp): string {
  return samlFor(connection, sp, requestCache(null, 0)).generateServiceProviderMetadata(null);
}

/**
 * The identity provider's address for a new AuthnRequest (HTTP-Redirect), with the RelayState, and
 * the request's id, which the response's InResponseTo must name.
 */
export async function samlAuthorizeUrl(
  connection: ConnectionRow,
  sp: SamlSp,
  relayState: string,
  now: number,
): Promise<{ url: string; requestId: string }> {
  let requestId = '';
  const saml = samlFor(
    connection,
    sp,
    requestCache(null, now, (id) => {
      requestId = id;
    }),
  );
  const url = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
  if (!requestId) throw new Error('node-saml kept no request id');
  return { url, requestId };
}

/** A verified assertion: who, and what to remember so it is never taken twice. */
export interface SamlAssertion {
  identity: IdpIdentity;
  assertionId: string;
  /** Until when the assertion could be presented (its NotOnOrAfter, else its age limit). */
  validUntil: number;
}

/** node-saml's refusals, by their message, as the error codes of the range. */
function refusal(error: unknown): PassportError {
  const message = error instanceof Error ? error.message : String(error);
  const code = /signature/i.test(message)
    ? 'samlSignatureInvalid'
    : // A bearer confirmation is only "not valid" for its time window.
      /expired|not yet valid|no valid subject confirmation/i.test(message)
      ? 'samlAssertionExpired'
      : /audience|AudienceRestriction/i.test(message)
        ? 'samlRecipientMismatch'
        : /InResponseTo/i.test(message)
          ? 'ssoStateMismatch'
          : 'ssoProviderFailed';
  const reason = code === 'samlRecipientMismatch' ? { reason: 'audience' } : {};
  return new PassportError(code, reason, { cause: error });
}

const first = (value: unknown): string | null => {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' && one.trim() ? one.trim() : null;
};

/** The attribute of one of `names` (case-insensitive), if any. */
function attribute(attributes: Record<string, unknown>, names: readonly string[]): string | null {
  for (const [key, value] of Object.entries(attributes))
    if (names.includes(key.toLowerCase())) {
      const found = first(value);
      if (found) return found;
    }
  return null;
}

/**
 * Verifies an HTTP-POST SAMLResponse for the flow's request: node-saml checks the signature against
 * the connection's certificates, the issuer, the audience, the time windows (2 minutes of skew) and
 * InResponseTo; then the response's Destination and the bearer confirmation's Recipient must be our
 * ACS. The e-mail is the attribute, else an e-mail NameID.
 */
export async function verifySamlResponse(
  connection: ConnectionRow,
  sp: SamlSp,
  requestId: string,
  issuedAt: number,
  samlResponse: string,
): Promise<SamlAssertion> {
  const saml = samlFor(connection, sp, requestCache(requestId, issuedAt));
  let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw refusal(error);
  }
  if (!profile) throw new PassportError('ssoProviderFailed');
  const response = new DOMParser().parseFromString(
    Buffer.from(samlResponse, 'base64').toString('utf8'),
    'text/xml',
  );
  const destination = response.documentElement?.getAttribute('Destination');
  if (destination && destination !== sp.acsUrl)
    throw new PassportError('samlRecipientMismatch', { reason: 'destination' });
  // The verified assertion, as node-saml read it (never the unsigned document around it).
  const assertion = new DOMParser().parseFromString(profile.getAssertionXml?.() ?? '', 'text/xml');
  const select = xpath.useNamespaces({ saml: 'urn:oasis:names:tc:SAML:2.0:assertion' });
  const recipients = valuesOf(
    select,
    "//saml:SubjectConfirmation[@Method='urn:oasis:names:tc:SAML:2.0:cm:bearer']/saml:SubjectConfirmationData/@Recipient",
    assertion,
  );
  if (recipients.length === 0 || recipients.some((recipient) => recipient !== sp.acsUrl))
    throw new PassportError('samlRecipientMismatch', { reason: 'recipient' });
  const [assertionId] = valuesOf(select, '/saml:Assertion/@ID', assertion);
  if (!assertionId) throw new PassportError('ssoProviderFailed');
  const [notOnOrAfter] = valuesOf(select, '/saml:Assertion/saml:Conditions/@NotOnOrAfter', assertion);
  const validUntil =
    (notOnOrAfter ? Date.parse(notOnOrAfter) : Date.now() + SAML_MAX_ASSERTION_AGE_MS) + SAML_CLOCK_SKEW_MS;

  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const nameIdIsEmail = profile.nameIDFormat === EMAIL_FORMAT;
  const email =
    (attribute(attributes, ATTRIBUTE_NAMES.email) ?? (nameIdIsEmail ? profile.nameID : null))
      ?.trim()
      .toLowerCase() ?? null;
  // A transient NameID names nobody twice: the address is the person then.
  const subject =
    profile.nameIDFormat === TRANSIENT_FORMAT || !profile.nameID ? `email:${email ?? ''}` : profile.nameID;
  return {
    identity: {
      issuer: connection.issuer,
      subject,
      email,
      // The organisation's own provider asserts an address of a domain the organisation proved it
      // owns; SAML has no "verified" flag. An assertion without an address is not one.
      emailVerified: email !== null,
      name: attribute(attributes, ATTRIBUTE_NAMES.name),
      claims: attributes,
    },
    assertionId,
    validUntil,
  };
}
