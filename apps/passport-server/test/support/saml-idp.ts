import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';
import { generate } from 'selfsigned';

/**
 * A real SAML 2.0 identity provider on loopback for the tests: samlify as the IdP, with a key and a
 * certificate made for the run. Its single sign-on address (HTTP-Redirect) reads the AuthnRequest
 * (its issuer, id and ACS; it is not signed) and answers the page a real IdP answers: a
 * form that posts the signed SAMLResponse and the RelayState to the service provider's ACS; its
 * metadata is published at its entity id (`/metadata`). Who is
 * signed in at the IdP is a cookie (`saml_person`) naming one of `people` (the IdP's own login is not
 * under test).
 * A test may bend one response (unsigned, expired, another audience or destination, a fixed
 * assertion id) to see the service provider refuse it.
 */

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export interface SamlPerson {
  /** The NameID (persistent). */
  nameId: string;
  /** Attributes by name: `email`, `displayName`, `groups`… */
  attributes: Record<string, string | string[]>;
}

/** What a test may bend in one response. */
export interface SamlTweaks {
  unsigned?: boolean;
  /** The assertion's and the confirmation's NotOnOrAfter (and NotBefore an hour before it). */
  notOnOrAfter?: Date;
  audience?: string;
  destination?: string;
  recipient?: string;
  assertionId?: string;
}

export interface SamlPeer {
  /** The IdP's origin, where a browser holds the `saml_person` cookie. */
  origin: string;
  entityId: string;
  ssoUrl: string;
  /** The signing certificate (PEM). */
  certificate: string;
  /** The IdP's metadata XML, as an organisation's IT would download it. */
  metadata: string;
  people: Map<string, SamlPerson>;
  /** Makes an organisation's service provider (its metadata XML) known to the IdP. */
  trust(spMetadata: string): void;
  /** Follows the SP's authorize address as the browser of `person`: the form the IdP's page posts. */
  signIn(
    authorizeUrl: string,
    person: string,
    tweaks?: SamlTweaks,
  ): Promise<{ action: string; SAMLResponse: string; RelayState: string }>;
  close(): Promise<void>;
}

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attributeStatement(attributes: SamlPerson['attributes']): string {
  const each = Object.entries(attributes).map(([name, value]) => {
    const values = (Array.isArray(value) ? value : [value])
      .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`)
      .join('');
    return `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">${values}</saml:Attribute>`;
  });
  return `<saml:AttributeStatement>${each.join('')}</saml:AttributeStatement>`;
}

export async function startSamlPeer(): Promise<SamlPeer> {
  const pems = await generate([{ name: 'commonName', value: 'saml-idp.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  const people = new Map<string, SamlPerson>();
  const sps = new Map<string, samlify.ServiceProviderInstance>();
  const tweaksOf = new Map<string, SamlTweaks>();
  let idp!: samlify.IdentityProviderInstance;

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://idp');
      // The IdP publishes its metadata at its entity id, as Okta, Entra and Keycloak publish theirs.
      if (url.pathname === '/metadata' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(idp.getMetadata());
        return;
      }
      if (url.pathname !== '/sso') {
        res.writeHead(404).end();
        return;
      }
      const cookie = /saml_person=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
      const person = people.get(cookie);
      if (!person) {
        res.writeHead(401).end('not signed in at the IdP');
        return;
      }
      const request = inflateRawSync(
        Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64'),
      ).toString('utf8');
      const issuer = /<(?:\w+:)?Issuer[^>]*>([^<]+)</.exec(request)?.[1];
      const requestId = /<(?:\w+:)?AuthnRequest[^>]*\sID="([^"]+)"/.exec(request)?.[1];
      const sp = issuer ? sps.get(issuer) : undefined;
      if (!sp || !requestId) {
        res.writeHead(400).end('unknown service provider');
        return;
      }
      const tweaks = tweaksOf.get(cookie) ?? {};
      tweaksOf.delete(cookie);
      const response = await loginResponse(sp, requestId, person, tweaks);
      const relayState = url.searchParams.get('RelayState') ?? '';
      const page =
        `<!doctype html><form method="post" action="${escapeXml(spAcs(sp))}">` +
        `<input type="hidden" name="SAMLResponse" value="${response}">` +
        `<input type="hidden" name="RelayState" value="${escapeXml(relayState)}">` +
        `<noscript><button>Continue</button></noscript></form>` +
        // As IdPs do: the page posts itself (the form stays for a browser without scripts).
        '<script>document.forms[0].submit()</script>';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${origin}/metadata`;
  const ssoUrl = `${origin}/sso`;
  idp = samlify.IdentityProvider({
    entityID: entityId,
    signingCert: pems.cert,
    privateKey: pems.private,
    nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [{ Binding: REDIRECT, Location: ssoUrl }],
  });

  const spAcs = (sp: samlify.ServiceProviderInstance) =>
    sp.entityMeta.getAssertionConsumerService('post') as string;

  async function loginResponse(
    sp: samlify.ServiceProviderInstance,
    inResponseTo: string,
    person: SamlPerson,
    tweaks: SamlTweaks,
  ): Promise<string> {
    const now = new Date();
    const until = tweaks.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
    const notBefore = tweaks.notOnOrAfter ? new Date(until.getTime() - 60 * 60_000) : now;
    const acs = spAcs(sp);
    const values = {
      ID: `_${randomBytes(16).toString('hex')}`,
      AssertionID: tweaks.assertionId ?? `_${randomBytes(16).toString('hex')}`,
      Destination: tweaks.destination ?? acs,
      Audience: tweaks.audience ?? sp.entityMeta.getEntityID(),
      SubjectRecipient: tweaks.recipient ?? tweaks.destination ?? acs,
      Issuer: entityId,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: notBefore.toISOString(),
      ConditionsNotOnOrAfter: until.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: until.toISOString(),
      NameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      NameID: escapeXml(person.nameId),
      InResponseTo: inResponseTo,
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: attributeStatement(person.attributes),
    };
    const template = samlify.SamlLib.defaultLoginResponseTemplate.context;
    // The values are XML already (escaped here where they come from a person).
    const xml = template.replace(
      /\{(\w+)\}/g,
      (tag, name: string) => values[name as keyof typeof values] ?? tag,
    );
    if (tweaks.unsigned) return Buffer.from(xml).toString('base64');
    // samlify signs the assertion (our SP metadata asks for signed assertions).
    const { context } = await idp.createLoginResponse(
      sp,
      { extract: { request: { id: inResponseTo } } },
      'post',
      {},
      {
        customTagReplacement: () => ({ id: values.ID, context: xml }),
      },
    );
    return context;
  }

  const metadata = idp.getMetadata();
  return {
    origin,
    entityId,
    ssoUrl,
    certificate: pems.cert,
    metadata,
    people,
    trust(spMetadata) {
      const sp = samlify.ServiceProvider({ metadata: spMetadata });
      sps.set(sp.entityMeta.getEntityID(), sp);
    },
    async signIn(authorizeUrl, person, tweaks) {
      if (tweaks) tweaksOf.set(person, tweaks);
      const page = await fetch(authorizeUrl, { headers: { cookie: `saml_person=${person}` } });
      const html = await page.text();
      if (!page.ok) throw new Error(`the IdP answered ${page.status}: ${html}`);
      const field = (name: string) =>
        new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
      const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
      return { action, SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
