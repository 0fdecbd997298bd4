import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AccountClient,
  accountInfo,
  emailCodeLogin,
  finishEnterpriseSso,
  sendEmailCode,
  startEnterpriseSso,
  switchMember,
} from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import dns2 from 'dns2';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../src/db/dialect';
import type { Database } from '../../src/db/schema';
import { newApiKey } from '../../src/domain/api-keys/api-keys';
import { normaliseMetadataUrl } from '../../src/domain/enterprise/connections';
import { fetchIdpMetadata } from '../../src/domain/enterprise/saml-metadata';
import { CodeType, enterpriseSsoPaths } from '../../src/protocol';
import { passCooldown } from '../support/flows';
import { type OidcPeer, type PeerAccount, startOidcPeer } from '../support/oauth-peers';
import { type SamlPeer, type SamlPerson, type SamlTweaks, startSamlPeer } from '../support/saml-idp';
import {
  expectAccountError,
  PAGE_ORIGIN,
  rejection,
  rejectsWith,
  type SdkServer,
  startSdkServer,
} from '../support/sdk-browser';
import { eventsOf, type Manager, manager, member, refused, role } from './organisation-helpers';

/**
 * Signing in through an organisation's OpenID Connect connection, with the real account and affiliate
 * SDKs, against a real OpenID provider on loopback (oidc-provider, its own login and consent pages)
 * and a real DNS server on loopback (dns2) for the organisation's verified domain: home-realm
 * discovery by the work e-mail, just-in-time accounts and membership with the organisation's role
 * rules, the e-mail rule, the flow's one-time state bound to its browser, and requiring single sign-on.
 */

/** The TXT records the loopback DNS server answers, by name. */
const records = new Map<string, string[]>();
const dnsServer = dns2.createServer({
  udp: true,
  handle(request, send) {
    const response = dns2.Packet.createResponseFromRequest(request);
    const name = request.questions[0]?.name.toLowerCase() ?? '';
    for (const data of records.get(name) ?? [])
      response.answers.push({
        name,
        type: dns2.Packet.TYPE.TXT,
        class: dns2.Packet.CLASS.IN,
        ttl: 1,
        data: [data],
      } as (typeof response.answers)[number]);
    send(response);
  },
});

const CALLBACK = `${PAGE_ORIGIN}/enterprise-sso-callback`;
let server: SdkServer;
let idp: OidcPeer;
let samlIdp: SamlPeer;
beforeAll(async () => {
  const addresses = await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = addresses.udp as AddressInfo;
  [server, idp] = await Promise.all([
    startSdkServer({ dnsResolver: [`127.0.0.1:${port}`] }, { limits: { sendCooldownMs: 5 } }),
    startOidcPeer({ clientId: 'portico', clientSecret: 'idp-secret', redirectUris: [CALLBACK] }),
  ]);
  samlIdp = await startSamlPeer();
});
afterAll(async () => {
  await server?.close();
  await idp?.close();
  await samlIdp?.close();
  await dnsServer.close();
});

const freshDomain = () => `d${randomBytes(4).toString('hex')}.example.com`;
const freshSub = () => `p${randomBytes(6).toString('hex')}`;

/** A domain the manager's organisation adds and verifies through the loopback DNS server. */
async function verifiedDomain(boss: Manager, domain = freshDomain()) {
  const added = await aff.addDomain(boss.client, { subject_uid: boss.sid, domain });
  records.set(added.record_name, [added.record_value]);
  await aff.verifyDomain(boss.client, { subject_uid: boss.sid, domain });
  return domain;
}

/** An organisation with a verified domain, a connection to the loopback provider and a `staff` role. */
async function organisation() {
  const boss = await manager(server);
  const domain = await verifiedDomain(boss);
  await aff.saveSsoConnection(boss.client, {
    subject_uid: boss.sid,
    issuer: idp.issuer,
    client_id: 'portico',
    client_secret: 'idp-secret',
  });
  await role(boss, 'staff', ['member:read'], 'Staff');
  return { boss, domain };
}

/** A person of the provider, by their `sub`. */
function idpPerson(claims: PeerAccount): string {
  const sub = freshSub();
  idp.accounts.set(sub, claims);
  return sub;
}

interface Signed {
  user_id: string;
  next: string;
}

/** Starts with the work e-mail, signs in at the provider's own pages as `sub`: the callback's query. */
async function atProvider(client: AccountClient, email: string, sub: string, tamper?: (url: URL) => void) {
  const started = await startEnterpriseSso(client, { email, next: '/dashboard' });
  const authorize = new URL(started.authorize_url);
  expect(authorize.origin).toBe(idp.issuer);
  tamper?.(authorize);
  const callback = await idp.signIn(authorize.href, sub);
  return {
    code: callback.searchParams.get('code') ?? '',
    state: callback.searchParams.get('state') ?? '',
    iss: callback.searchParams.get('iss') ?? '',
  };
}

/** The whole sign-in in a new browser: its client and the answer. */
async function ssoSignIn(email: string, sub: string) {
  const client = server.sdkBrowser().client();
  const signed = await finishEnterpriseSso<Signed>(client, await atProvider(client, email, sub));
  return { client, signed };
}

const userOfEmail = (email: string) =>
  server.app.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

describe('signing in with a work e-mail through the organisation’s connection', () => {
  it('a first sign-in creates the account and the membership with the default role; the next one finds them', async () => {
    const { boss, domain } = await organisation();
    await aff.saveSsoPolicy(boss.client, {
      subject_uid: boss.sid,
      require_sso: false,
      default_role_key: 'staff',
    });
    const email = `ada@${domain}`;
    const sub = idpPerson({ email, email_verified: true, name: 'Ada Lovelace' });

    const { client, signed } = await ssoSignIn(email.toUpperCase(), sub);
    expect(signed.next).toBe('/dashboard');
    const info = await accountInfo<{
      user_id: string;
      org?: { sec_subject_uid: string; permissions: string[] };
    }>(client);
    expect(info.user_id).toBe(signed.user_id);
    expect(info.org).toMatchObject({ sec_subject_uid: boss.sid, permissions: ['member:read'] });
    const user = await userOfEmail(email);
    expect(user).toMatchObject({ id: signed.user_id, screen_name: 'Ada Lovelace' });

    const events = await eventsOf(server, boss.sid, 'organisation.');
    const mine = events.filter((e) => e.target === signed.user_id);
    expect(mine.map((e) => [e.type, e.data])).toEqual([
      ['organisation.sso_identity.linked', { issuer: idp.issuer, newAccount: true }],
      [
        'organisation.member.provisioned',
        { memberId: expect.any(String), roleKeys: ['staff'], issuer: idp.issuer },
      ],
    ]);
    const signedIn = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('stream', '=', `user:${signed.user_id}`)
      .where('type', '=', 'account.signed_in')
      .execute();
    expect(signedIn.map((row) => JSON.parse(row.data).method)).toEqual(['enterpriseSso']);

    // Again, in another browser: the same account and membership, nothing new made.
    const again = await ssoSignIn(email, sub);
    expect(again.signed.user_id).toBe(signed.user_id);
    expect((await eventsOf(server, boss.sid, 'organisation.')).length).toBe(events.length);
  });

  it('links the existing account of the verified e-mail, and the role rules read the provider’s groups', async () => {
    const { boss, domain } = await organisation();
    await role(boss, 'engineer', ['member:read', 'role:read'], 'Engineer');
    await aff.saveSsoPolicy(boss.client, {
      subject_uid: boss.sid,
      require_sso: false,
      default_role_key: 'staff',
      role_rules: [{ claim: 'groups', value: 'engineering', role_key: 'engineer' }],
    });
    expect(await aff.ssoPolicyInfo(boss.client, { subject_uid: boss.sid })).toEqual({
      require_sso: false,
      default_role_key: 'staff',
      role_rules: [{ claim: 'groups', value: 'engineering', role_key: 'engineer' }],
      jit_provisioning: true,
    });

    // The person has an account of that e-mail already (signed in by e-mail code).
    const email = `grace@${domain}`;
    const own = server.sdkBrowser().client();
    await passCooldown();
    await sendEmailCode(own, { email, type: CodeType.emailLogin });
    const existing = await emailCodeLogin<{ user_id: string }>(own, {
      email,
      code: await server.codeFor(email),
      type: CodeType.emailLogin,
    });

    const sub = idpPerson({ email, email_verified: true, groups: ['engineering', 'all'] });
    const { client, signed } = await ssoSignIn(email, sub);
    expect(signed.user_id).toBe(existing.user_id);
    const info = await accountInfo<{ org?: { permissions: string[] } }>(client);
    expect(info.org?.permissions.sort()).toEqual(['member:read', 'role:read']);
    const events = await eventsOf(server, boss.sid, 'organisation.sso_identity.linked');
    expect(events.at(-1)).toMatchObject({ target: existing.user_id, data: { newAccount: false } });
    const provisioned = await eventsOf(server, boss.sid, 'organisation.member.provisioned');
    expect(provisioned.at(-1)?.data.roleKeys).toEqual(['engineer']);
  });

  it('two first sign-ins of the same person at once land in one account and one membership', async () => {
    const { boss, domain } = await organisation();
    const email = `twin@${domain}`;
    const sub = idpPerson({ email, email_verified: true });
    const first = server.sdkBrowser().client();
    const second = server.sdkBrowser().client();
    const callbacks = [await atProvider(first, email, sub), await atProvider(second, email, sub)];
    // Both look for the account before either makes it: the race, made certain rather than likely.
    const accounts = server.app.accounts;
    const find = accounts.find.bind(accounts);
    let arrived = 0;
    let release!: () => void;
    const bothLooked = new Promise<void>((resolve) => {
      release = resolve;
    });
    accounts.find = async (identifier) => {
      if (identifier.value === email && arrived < 2) {
        arrived += 1;
        if (arrived === 2) release();
        await bothLooked;
      }
      return find(identifier);
    };
    try {
      const signed = await Promise.all([
        finishEnterpriseSso<Signed>(first, callbacks[0]!),
        finishEnterpriseSso<Signed>(second, callbacks[1]!),
      ]);
      expect(signed[1].user_id).toBe(signed[0].user_id);
    } finally {
      accounts.find = find;
    }
    const members = await server.app.db
      .selectFrom('deputies')
      .select('id')
      .where('subject_id', '=', boss.sid)
      .where('user_id', '=', (await userOfEmail(email))!.id)
      .execute();
    expect(members).toHaveLength(1);
  });

  it('refuses an e-mail the provider has not verified, and one outside the organisation’s verified domains', async () => {
    const { domain } = await organisation();
    const unverified = `eve@${domain}`;
    const sub = idpPerson({ email: unverified, email_verified: false });
    const client = server.sdkBrowser().client();
    await rejectsWith(
      finishEnterpriseSso(client, await atProvider(client, unverified, sub)),
      'ssoEmailNotVerified',
    );
    expect(await userOfEmail(unverified)).toBeUndefined();

    // The provider asserts a verified address of another domain: no account is made or linked by it.
    const elsewhere = `mallory@${freshDomain()}`;
    const outside = idpPerson({ email: elsewhere, email_verified: true });
    const second = server.sdkBrowser().client();
    await rejectsWith(
      finishEnterpriseSso(second, await atProvider(second, `mallory@${domain}`, outside)),
      'ssoEmailOutsideDomain',
    );
    expect(await userOfEmail(elsewhere)).toBeUndefined();
  });

  it('sends nobody anywhere for a domain that is not verified, or whose organisation has no connection', async () => {
    const boss = await manager(server);
    const added = freshDomain();
    await aff.addDomain(boss.client, { subject_uid: boss.sid, domain: added });
    const client = server.sdkBrowser().client();
    await rejectsWith(startEnterpriseSso(client, { email: `a@${added}` }), 'ssoNotAvailable');
    await rejectsWith(startEnterpriseSso(client, { email: `a@${freshDomain()}` }), 'ssoNotAvailable');
    // Verified, but without a connection: the same answer.
    const verified = await verifiedDomain(boss);
    await rejectsWith(startEnterpriseSso(client, { email: `a@${verified}` }), 'ssoNotAvailable');
    await rejectsWith(startEnterpriseSso(client, { email: 'not an address' }), 'invalidParam');
  });

  it('takes the flow once, only in the browser that started it, and the library checks the nonce and PKCE', async () => {
    const { domain } = await organisation();
    const email = `alan@${domain}`;
    const sub = idpPerson({ email, email_verified: true });

    // A wrong state, and the callback carried to another browser.
    const started = server.sdkBrowser().client();
    const callback = await atProvider(started, email, sub);
    await rejectsWith(
      finishEnterpriseSso(started, { ...callback, state: 'x'.repeat(43) }),
      'ssoStateMismatch',
    );
    const other = server.sdkBrowser().client();
    await rejectsWith(finishEnterpriseSso(other, callback), 'ssoStateMismatch');
    // The right browser signs in once; the same callback again is refused.
    await finishEnterpriseSso(started, callback);
    await rejectsWith(finishEnterpriseSso(started, callback), 'ssoStateMismatch');

    // The authorize request altered on its way: the ID token's nonce is not the flow's.
    const nonce = server.sdkBrowser().client();
    const badNonce = await atProvider(nonce, email, sub, (url) =>
      url.searchParams.set('nonce', 'n'.repeat(43)),
    );
    await rejectsWith(finishEnterpriseSso(nonce, badNonce), 'ssoProviderFailed');
    // …or the PKCE challenge is not the flow's verifier's: the provider refuses the exchange.
    const pkce = server.sdkBrowser().client();
    const badPkce = await atProvider(pkce, email, sub, (url) =>
      url.searchParams.set('code_challenge', 'c'.repeat(43)),
    );
    await rejectsWith(finishEnterpriseSso(pkce, badPkce), 'ssoProviderFailed');
  });

  it('requiring single sign-on refuses the members of the verified domains another way into the organisation', async () => {
    const { boss, domain } = await organisation();
    const email = `lin@${domain}`;
    const sub = idpPerson({ email, email_verified: true });
    const { client } = await ssoSignIn(email, sub);
    const identity = (await accountInfo<{ org?: { user_identity_id: string } }>(client)).org!
      .user_identity_id;

    // A role that does not exist, and requiring it without a connection, are refused.
    await refused(
      aff.saveSsoPolicy(boss.client, { subject_uid: boss.sid, require_sso: true, default_role_key: 'nope' }),
      'roleNotFound',
    );
    const unconnected = await manager(server);
    await rejectsWith(
      aff.saveSsoPolicy(unconnected.client, { subject_uid: unconnected.sid, require_sso: true }),
      'connectionNotFound',
    );
    await aff.saveSsoPolicy(boss.client, { subject_uid: boss.sid, require_sso: true });

    // Back to the personal identity, then into the organisation by the session (proved by SSO once,
    // but this sign-in is not the organisation's): refused, with the domain to sign in through.
    await switchMember(client, { to_sec_member_id: '0' });
    const blocked = await rejectsWith(
      aff.subjectLogin(client, { login_subject_uid: boss.sid, user_identity_id: identity }),
      'ssoRequired',
    );
    expect(blocked.data).toMatchObject({ domain });
    // Through the connection it signs in.
    const again = await ssoSignIn(email, sub);
    expect(
      (await accountInfo<{ org?: { sec_subject_uid: string } }>(again.client)).org?.sec_subject_uid,
    ).toBe(boss.sid);
    // The manager's account has no address in the domain: the manager is not held to it.
    await switchMember(boss.client, { to_sec_member_id: '0' });
    await aff.subjectLogin(boss.client, { login_subject_uid: boss.sid, user_identity_id: boss.identity });
    const policyEvents = await eventsOf(server, boss.sid, 'organisation.sso_policy.saved');
    expect(policyEvents.map((e) => e.data)).toEqual([
      { requireSso: true, defaultRoleKey: null, roleRules: [] },
    ]);
  });
});

/** An organisation with a verified domain, a SAML connection to the loopback IdP and a `staff` role. */
async function samlOrganisation() {
  const boss = await manager(server);
  const domain = await verifiedDomain(boss);
  const saved = await aff.saveSamlConnection(boss.client, {
    subject_uid: boss.sid,
    metadata_xml: samlIdp.metadata,
  });
  if (saved.protocol !== 'saml') throw new Error('not a SAML connection');
  // The IdP's administrator uploads our metadata, read from the address the answer names.
  const metadata = await fetch(`${server.baseUrl}${enterpriseSsoPaths.samlMetadata}?subject_uid=${boss.sid}`);
  expect(metadata.headers.get('content-type')).toContain('application/samlmetadata+xml');
  const xml = await metadata.text();
  expect(xml).toContain(`entityID="${saved.sp_entity_id}"`);
  expect(xml).toContain(`Location="${saved.acs_url}"`);
  samlIdp.trust(xml);
  await role(boss, 'staff', ['member:read'], 'Staff');
  return { boss, domain, saved };
}

/** A person signed in at the SAML IdP, by a fresh id. */
function samlPerson(email: string, attributes: SamlPerson['attributes'] = {}): string {
  const id = freshSub();
  samlIdp.people.set(id, { nameId: `n-${id}`, attributes: { email, ...attributes } });
  return id;
}

/**
 * Starts with the work e-mail, signs in at the IdP as `person`, and posts its form to our ACS as the
 * IdP's page does: from the IdP's site, so none of our cookies come along. Answers the callback's handle.
 */
async function throughSamlIdp(client: AccountClient, email: string, person: string, tweaks?: SamlTweaks) {
  const started = await startEnterpriseSso(client, { email, next: '/dashboard' });
  expect(started.authorize_url.startsWith(`${samlIdp.ssoUrl}?`)).toBe(true);
  const form = await samlIdp.signIn(started.authorize_url, person, tweaks);
  return postToAcs(form);
}

async function postToAcs(form: { action: string; SAMLResponse: string; RelayState: string }) {
  const acs = new URL(form.action);
  expect(acs.origin).toBe(PAGE_ORIGIN);
  const answer = await fetch(`${server.baseUrl}${acs.pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(samlIdp.ssoUrl).origin,
      'sec-fetch-site': 'cross-site',
    },
    body: new URLSearchParams({ SAMLResponse: form.SAMLResponse, RelayState: form.RelayState }),
  });
  expect(answer.status).toBe(303);
  const callback = new URL(answer.headers.get('location') ?? '');
  expect(`${callback.origin}${callback.pathname}`).toBe(CALLBACK);
  return { saml: callback.searchParams.get('saml') ?? '' };
}

async function samlSignIn(email: string, person: string) {
  const client = server.sdkBrowser().client();
  const signed = await finishEnterpriseSso<Signed>(client, await throughSamlIdp(client, email, person));
  return { client, signed };
}

describe('signing in with a work e-mail through the organisation’s SAML 2.0 connection', () => {
  it('a first sign-in creates the account and the membership with the role its groups attribute maps to', async () => {
    const { boss, domain, saved } = await samlOrganisation();
    expect(saved).toMatchObject({
      protocol: 'saml',
      issuer: samlIdp.entityId,
      sso_url: samlIdp.ssoUrl,
      certificates: 1,
    });
    await role(boss, 'engineer', ['member:read', 'role:read'], 'Engineer');
    await aff.saveSsoPolicy(boss.client, {
      subject_uid: boss.sid,
      require_sso: false,
      default_role_key: 'staff',
      role_rules: [{ claim: 'groups', value: 'engineering', role_key: 'engineer' }],
    });
    const email = `ada@${domain}`;
    const person = samlPerson(email, { displayName: 'Ada Lovelace', groups: ['engineering', 'all'] });

    const { client, signed } = await samlSignIn(email, person);
    expect(signed.next).toBe('/dashboard');
    const info = await accountInfo<{
      user_id: string;
      org?: { sec_subject_uid: string; permissions: string[] };
    }>(client);
    expect(info.user_id).toBe(signed.user_id);
    expect(info.org?.sec_subject_uid).toBe(boss.sid);
    expect(info.org?.permissions.sort()).toEqual(['member:read', 'role:read']);
    expect(await userOfEmail(email)).toMatchObject({ id: signed.user_id, screen_name: 'Ada Lovelace' });
    const provisioned = await eventsOf(server, boss.sid, 'organisation.member.provisioned');
    expect(provisioned.at(-1)).toMatchObject({
      target: signed.user_id,
      data: { roleKeys: ['engineer'], issuer: samlIdp.entityId },
    });
    const connectionEvents = await eventsOf(server, boss.sid, 'organisation.sso_connection.saved');
    expect(connectionEvents.at(-1)?.data).toEqual({
      protocol: 'saml',
      issuer: samlIdp.entityId,
      ssoUrl: samlIdp.ssoUrl,
      certificates: 1,
    });

    // Again, in another browser: the same account, nothing new made.
    const again = await samlSignIn(email, person);
    expect(again.signed.user_id).toBe(signed.user_id);
    expect((await eventsOf(server, boss.sid, 'organisation.member.provisioned')).length).toBe(
      provisioned.length,
    );
  });

  it('a connection switched from OpenID Connect to SAML and back signs in by the protocol saved last', async () => {
    const { boss, domain } = await organisation();
    const saml = await aff.saveSamlConnection(boss.client, {
      subject_uid: boss.sid,
      metadata_xml: samlIdp.metadata,
    });
    expect(saml.protocol).toBe('saml');
    expect(await aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid })).toEqual(saml);
    const metadata = await fetch(
      `${server.baseUrl}${enterpriseSsoPaths.samlMetadata}?subject_uid=${boss.sid}`,
    );
    samlIdp.trust(await metadata.text());
    const email = `grace@${domain}`;
    // A person in many groups: the IdP's response passes the server's usual 64 KiB body.
    const groups = Array.from({ length: 2_000 }, (_, i) => `group-${i}`);
    const throughSaml = await samlSignIn(email, samlPerson(email, { groups }));

    const oidc = await aff.saveSsoConnection(boss.client, {
      subject_uid: boss.sid,
      issuer: idp.issuer,
      client_id: 'portico',
      client_secret: 'idp-secret',
    });
    expect(oidc.protocol).toBe('oidc');
    expect(await aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid })).toEqual(oidc);
    const throughOidc = await ssoSignIn(email, idpPerson({ email, email_verified: true }));
    expect(throughOidc.signed.user_id).toBe(throughSaml.signed.user_id);
  });

  it('saves a connection given by entity id, address and certificate, and refuses what it cannot read', async () => {
    const boss = await manager(server);
    const saved = await aff.saveSamlConnection(boss.client, {
      subject_uid: boss.sid,
      entity_id: samlIdp.entityId,
      sso_url: samlIdp.ssoUrl,
      certificate: samlIdp.certificate,
    });
    expect(await aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid })).toEqual(saved);
    const bad = (payload: Omit<aff.SaveSamlConnectionPayload, 'subject_uid'>) =>
      rejectsWith(
        aff.saveSamlConnection(boss.client, { subject_uid: boss.sid, ...payload }),
        'connectionMetadataInvalid',
      );
    await bad({ metadata_xml: '<not xml' });
    // A federation's metadata is larger than the server's usual 64 KiB body: read, not refused as too big.
    await bad({ metadata_xml: `<EntitiesDescriptor>${' '.repeat(150_000)}</EntitiesDescriptor>` });
    await bad({
      metadata_xml: '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>',
    });
    await bad({ entity_id: samlIdp.entityId, sso_url: samlIdp.ssoUrl, certificate: 'not a certificate' });
    await bad({
      entity_id: samlIdp.entityId,
      sso_url: 'ftp://idp.example.com/sso',
      certificate: samlIdp.certificate,
    });
    await bad({ entity_id: samlIdp.entityId });
    // Our metadata for an organisation without a SAML connection: nothing.
    const none = await fetch(`${server.baseUrl}${enterpriseSsoPaths.samlMetadata}?subject_uid=nobody`);
    expect(await none.json()).toMatchObject({ data: { error_code: 2410 } });
  });

  it('saves a connection from the metadata address the IdP publishes, signs in through it, and reads it again', async () => {
    const boss = await manager(server);
    const domain = await verifiedDomain(boss);
    const saved = await aff.saveSamlConnection(boss.client, {
      subject_uid: boss.sid,
      metadata_url: samlIdp.entityId,
    });
    expect(saved).toMatchObject({
      protocol: 'saml',
      issuer: samlIdp.entityId,
      sso_url: samlIdp.ssoUrl,
      certificates: 1,
      metadata_url: samlIdp.entityId,
    });
    expect(await aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid })).toEqual(saved);
    samlIdp.trust(
      await (
        await fetch(`${server.baseUrl}${enterpriseSsoPaths.samlMetadata}?subject_uid=${boss.sid}`)
      ).text(),
    );
    const email = `grace@${domain}`;
    const { signed } = await samlSignIn(email, samlPerson(email));
    expect((await userOfEmail(email))?.id).toBe(signed.user_id);

    // The console's "read it again": the same address, read again.
    const again = await aff.saveSamlConnection(boss.client, {
      subject_uid: boss.sid,
      metadata_url: samlIdp.entityId,
    });
    expect(again).toMatchObject({ metadata_url: samlIdp.entityId, certificates: 1 });
    // Metadata pasted instead: no address on file any more.
    const pasted = await aff.saveSamlConnection(boss.client, {
      subject_uid: boss.sid,
      metadata_xml: samlIdp.metadata,
    });
    expect(pasted).toMatchObject({ metadata_url: null });
    const events = await eventsOf(server, boss.sid, 'organisation.sso_connection.saved');
    expect(events.map((e) => e.data.metadataUrl)).toEqual([samlIdp.entityId, samlIdp.entityId, undefined]);
  });

  it('refuses a metadata address it cannot read, each with its reason, and keeps the connection it had', async () => {
    const boss = await manager(server);
    await aff.saveSamlConnection(boss.client, { subject_uid: boss.sid, metadata_xml: samlIdp.metadata });
    // A real HTTP server on loopback answering what a broken or hostile address would.
    const answers: Record<string, (res: ServerResponse) => void> = {
      '/missing': (res) => res.writeHead(404).end('not found'),
      '/moved': (res) => res.writeHead(302, { location: samlIdp.entityId }).end(),
      '/empty': (res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(''),
      '/html': (res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><p>sign in</p></html>'),
      '/huge': (res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        // No content-length: the bound holds while the body streams in.
        res.write(`<EntityDescriptor>${' '.repeat(600 * 1024)}`);
        res.end('</EntityDescriptor>');
      },
    };
    const web = createServer((req, res) => (answers[req.url ?? ''] ?? answers['/missing']!)(res));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    try {
      const reasonOf = async (metadata_url: string) =>
        (
          await rejectsWith(
            aff.saveSamlConnection(boss.client, { subject_uid: boss.sid, metadata_url }),
            'connectionMetadataInvalid',
          )
        ).data.reason;
      expect(await reasonOf(`${base}/missing`)).toBe('fetch');
      // A redirect is not followed, even to a good address.
      expect(await reasonOf(`${base}/moved`)).toBe('fetch');
      expect(await reasonOf(`${base}/empty`)).toBe('xml');
      expect(await reasonOf(`${base}/html`)).toBe('idp_descriptor');
      expect(await reasonOf(`${base}/huge`)).toBe('too_large');
      // Nothing listening there.
      expect(await reasonOf('http://127.0.0.1:9/metadata')).toBe('fetch');
      // Not https, and not on loopback: refused before anything is fetched.
      expect(await reasonOf('http://idp.example.com/metadata')).toBe('url');
      expect(await reasonOf('ftp://127.0.0.1/metadata')).toBe('url');
      expect(await reasonOf('https://user:pw@idp.example.com/metadata')).toBe('url');
    } finally {
      await new Promise<void>((resolve) => web.close(() => resolve()));
    }
    expect(await aff.ssoConnectionInfo(boss.client, { subject_uid: boss.sid })).toMatchObject({
      issuer: samlIdp.entityId,
      metadata_url: null,
    });
  });

  it('on a public server, reads metadata only from public addresses, literal or resolved', async () => {
    const publicOrigin = 'https://passport.example.com';
    for (const raw of [
      'http://127.0.0.1:9/metadata',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:10.0.0.1]/metadata',
      'https://localhost/metadata',
    ])
      await expect(
        Promise.resolve().then(() => normaliseMetadataUrl(raw, publicOrigin)),
      ).rejects.toMatchObject({
        errorName: 'connectionMetadataInvalid',
        extra: { reason: 'url' },
      });
    // Entra's address names the application in its query: kept; a fragment is never sent.
    expect(
      normaliseMetadataUrl('https://login.example.com/t/federationmetadata.xml?appid=a1#x', publicOrigin)
        .href,
    ).toBe('https://login.example.com/t/federationmetadata.xml?appid=a1');
    // A name that resolves to loopback: refused by the webhooks' rule, before any connection.
    expect(await fetchIdpMetadata(new URL('https://localhost/metadata'), { privateTargets: false })).toEqual({
      failed: 'refused',
    });
    // The IdP on loopback is readable only while loopback is allowed (this server, on loopback).
    expect(await fetchIdpMetadata(new URL(samlIdp.entityId), { privateTargets: false })).toEqual({
      failed: 'refused',
    });
    expect(await fetchIdpMetadata(new URL(samlIdp.entityId), { privateTargets: true })).toEqual({
      xml: samlIdp.metadata,
    });
  });

  it('reads a metadata address only for a member who may save the connection', async () => {
    const boss = await manager(server);
    const reader = await member(server, boss, ['member:read']);
    let asked = 0;
    const web = createServer((_req, res) => {
      asked += 1;
      res.writeHead(200, { 'content-type': 'application/xml' }).end(samlIdp.metadata);
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    try {
      const metadata_url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/metadata`;
      await refused(
        aff.saveSamlConnection(reader.client, { subject_uid: boss.sid, metadata_url }),
        'permissionDenied',
      );
      expect(asked).toBe(0);
      await aff.saveSamlConnection(boss.client, { subject_uid: boss.sid, metadata_url });
      expect(asked).toBe(1);
    } finally {
      await new Promise<void>((resolve) => web.close(() => resolve()));
    }
  });

  it('refuses an unsigned, an expired, a replayed, and a misaddressed assertion, each with its own code', async () => {
    const { domain, saved } = await samlOrganisation();
    const email = `grace@${domain}`;
    const person = samlPerson(email);
    const refusedWith = async (tweaks: SamlTweaks, name: Parameters<typeof rejectsWith>[1]) => {
      const client = server.sdkBrowser().client();
      const failed = await rejection(
        finishEnterpriseSso(client, await throughSamlIdp(client, email, person, tweaks)),
      );
      expectAccountError(failed, name);
      expect(failed.status).toBe(400);
      return failed;
    };
    await refusedWith({ unsigned: true }, 'samlSignatureInvalid');
    await refusedWith({ notOnOrAfter: new Date(Date.now() - 30 * 60_000) }, 'samlAssertionExpired');
    const audience = await refusedWith(
      { audience: 'https://someone-else.example.com/sp' },
      'samlRecipientMismatch',
    );
    expect(audience.data).toMatchObject({ reason: 'audience' });
    const destination = await refusedWith(
      { destination: `${PAGE_ORIGIN}/elsewhere/acs` },
      'samlRecipientMismatch',
    );
    expect(destination.data).toMatchObject({ reason: 'destination' });
    const recipient = await refusedWith(
      { recipient: `${PAGE_ORIGIN}/elsewhere/acs` },
      'samlRecipientMismatch',
    );
    expect(recipient.data).toMatchObject({ reason: 'recipient' });
    expect(await userOfEmail(email)).toBeUndefined();

    // The same posted response twice: the flow it answers was taken by the first.
    const client = server.sdkBrowser().client();
    const started = await startEnterpriseSso(client, { email });
    const form = await samlIdp.signIn(started.authorize_url, person);
    await finishEnterpriseSso(client, await postToAcs(form));
    await rejectsWith(finishEnterpriseSso(client, await postToAcs(form)), 'ssoStateMismatch');
    // A response for another browser's sign-in, posted in this one: not this browser's flow.
    const other = server.sdkBrowser().client();
    const elsewhere = await samlIdp.signIn(
      (await startEnterpriseSso(other, { email })).authorize_url,
      person,
    );
    await rejectsWith(finishEnterpriseSso(client, await postToAcs(elsewhere)), 'ssoStateMismatch');
    // An assertion the IdP sends again (the same id) in answer to a new sign-in: refused once used.
    const assertionId = `_${randomBytes(16).toString('hex')}`;
    const once = server.sdkBrowser().client();
    await finishEnterpriseSso(once, await throughSamlIdp(once, email, person, { assertionId }));
    const twice = server.sdkBrowser().client();
    await rejectsWith(
      finishEnterpriseSso(twice, await throughSamlIdp(twice, email, person, { assertionId })),
      'samlAssertionReplayed',
    );
    expect(saved.acs_url).toBe(`${PAGE_ORIGIN}${enterpriseSsoPaths.samlAcs}`);
  });

  it('refuses an address outside the organisation’s verified domains, and a domain not verified', async () => {
    const { boss, domain } = await samlOrganisation();
    const elsewhere = `mallory@${freshDomain()}`;
    const client = server.sdkBrowser().client();
    await rejectsWith(
      finishEnterpriseSso(client, await throughSamlIdp(client, `mallory@${domain}`, samlPerson(elsewhere))),
      'ssoEmailOutsideDomain',
    );
    expect(await userOfEmail(elsewhere)).toBeUndefined();
    // A domain the organisation added but has not verified routes nowhere.
    const unverified = freshDomain();
    await aff.addDomain(boss.client, { subject_uid: boss.sid, domain: unverified });
    await rejectsWith(startEnterpriseSso(client, { email: `a@${unverified}` }), 'ssoNotAvailable');
  });
});

/** A SCIM key of the manager's organisation (as the console makes it), for the identity provider. */
async function scimKey(boss: Manager): Promise<string> {
  const { key, prefix, secretHash } = newApiKey(server.app.secret);
  await server.app.db
    .insertInto('api_keys')
    .values({
      id: randomBytes(8).toString('hex'),
      name: 'okta',
      prefix,
      secret_hash: secretHash,
      scopes: JSON.stringify(['scim']),
      created_by: boss.userId,
      created_at: Date.now(),
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
      subject_id: boss.sid,
    })
    .execute();
  return key;
}

/** A SCIM request as the identity provider sends it. */
async function scim(token: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) {
  const response = await server.app.inject({
    method,
    url: `/scim/v2${url}`,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: SCIM answers are asserted field by field
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') as Record<string, any> };
}

const scimUser = (email: string, active = true) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: email,
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: 'Ray',
  active,
});
const scimActive = (active: boolean) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [{ op: 'replace', path: 'active', value: active }],
});

const membersOf = (sid: string, userId: string) =>
  server.app.db
    .selectFrom('deputies')
    .select(['id', 'is_frozen'])
    .where('subject_id', '=', sid)
    .where('user_id', '=', userId)
    .execute();

/**
 * PostgreSQL's lock waits of this run's schema, for barrier tests: the backends waiting for `table`,
 * and whether anyone waits for the transaction of backend `pid`.
 */
const pgLocks = {
  waitingFor: async (tx: Kysely<Database>, table: string) =>
    (
      await sql<{ pid: number }>`select l.pid from pg_locks l join pg_class c on c.oid = l.relation
        join pg_namespace n on n.oid = c.relnamespace
        where c.relname = ${table} and n.nspname = current_schema() and not l.granted`.execute(tx)
    ).rows.map((r) => r.pid),
  waitingOnTransactionOf: async (tx: Kysely<Database>, pid: number) =>
    (
      await sql<{ n: string | number }>`select count(*) as n from pg_locks w join pg_locks h
        on h.locktype = 'transactionid' and h.transactionid = w.transactionid and h.granted
        where w.locktype = 'transactionid' and not w.granted and h.pid = ${pid}`.execute(tx)
    ).rows.some((r) => Number(r.n) > 0),
};

/** Polls `check` until it holds; a hang guard, not a timing assertion. */
async function until<T>(check: () => Promise<T | false | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 2_000; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`barrier: ${what} never happened`);
}

describe('SCIM and single sign-on together', () => {
  it('a SCIM reactivation racing a first sign-in makes one membership, and neither answers 500', async () => {
    const { boss, domain } = await organisation();
    const token = await scimKey(boss);
    const email = `ray@${domain}`;
    const created = await scim(token, 'POST', '/Users', scimUser(email));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const userId = (await userOfEmail(email))!.id;
    expect((await scim(token, 'PATCH', `/Users/${id}`, scimActive(false))).status).toBe(200);
    // The manager removed the member in the console: a reactivation makes the membership again.
    await server.app.db
      .deleteFrom('deputies')
      .where('subject_id', '=', boss.sid)
      .where('user_id', '=', userId)
      .execute();

    const client = server.sdkBrowser().client();
    const callback = await atProvider(client, email, idpPerson({ email, email_verified: true }));
    let signedIn: Promise<Signed>;
    let reactivated: ReturnType<typeof scim>;
    if (onPostgres(server.app.db)) {
      // The sign-in makes its membership and waits (at its session, the table held) before its commit;
      // the reactivation reads no member meanwhile and inserts its own, which waits for the sign-in's.
      await server.app.db.transaction().execute(async (tx) => {
        await sql`lock table sessions in share row exclusive mode`.execute(tx);
        signedIn = finishEnterpriseSso<Signed>(client, callback);
        const [pid] = await until(async () => {
          const waiting = await pgLocks.waitingFor(tx, 'sessions');
          return waiting.length > 0 && waiting;
        }, 'the sign-in waits');
        reactivated = scim(token, 'PATCH', `/Users/${id}`, scimActive(true));
        await until(() => pgLocks.waitingOnTransactionOf(tx, pid!), 'the reactivation waits for the sign-in');
      });
    } else {
      // SQLite runs one writer at a time: the two cannot interleave, only queue.
      signedIn = finishEnterpriseSso<Signed>(client, callback);
      reactivated = scim(token, 'PATCH', `/Users/${id}`, scimActive(true));
    }
    const [signed, answer] = await Promise.all([signedIn!, reactivated!]);
    expect(signed.user_id).toBe(userId);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.active).toBe(true);
    expect(await membersOf(boss.sid, userId)).toEqual([{ id: expect.any(String), is_frozen: 0 }]);
  });

  it('asks the waitlist before SCIM or a first sign-in makes an account, and spends an admission only with it', async () => {
    const { boss, domain } = await organisation();
    const token = await scimKey(boss);
    const config = server.app.config as { waitlist: boolean };
    const admit = (email: string) =>
      server.app.db
        .insertInto('waitlist_entries')
        .values({
          id: randomBytes(8).toString('hex'),
          channel: 'email',
          target: email,
          note: '',
          language: 'en',
          state: 'admitted',
          created_at: Date.now(),
          admitted_at: Date.now(),
          admitted_by: boss.userId,
          token_hash: randomBytes(8).toString('hex'),
          registered_at: null,
        })
        .execute();
    const entryOf = async (email: string) =>
      (
        await server.app.db
          .selectFrom('waitlist_entries')
          .select('state')
          .where('target', '=', email)
          .executeTakeFirst()
      )?.state;
    config.waitlist = true;
    try {
      // SCIM makes no account the waitlist has not admitted; an admitted address's is made, once.
      const waiting = `wait@${domain}`;
      const refusedScim = await scim(token, 'POST', '/Users', scimUser(waiting));
      expect(refusedScim).toMatchObject({ status: 400, body: { name: 'WAITLIST_REQUIRED' } });
      expect(await userOfEmail(waiting)).toBeUndefined();
      await admit(waiting);
      expect((await scim(token, 'POST', '/Users', scimUser(waiting))).status).toBe(201);
      expect(await entryOf(waiting)).toBe('registered');

      // A first sign-in refused in its transaction (the organisation frozen meanwhile) leaves the
      // admission to the next one.
      const email = `late@${domain}`;
      const sub = idpPerson({ email, email_verified: true });
      await admit(email);
      await server.app.db.updateTable('subjects').set({ is_frozen: 1 }).where('id', '=', boss.sid).execute();
      await refused(ssoSignIn(email, sub), 'subjectFrozen');
      expect(await entryOf(email)).toBe('admitted');
      expect(await userOfEmail(email)).toBeUndefined();
      await server.app.db.updateTable('subjects').set({ is_frozen: 0 }).where('id', '=', boss.sid).execute();
      const { signed } = await ssoSignIn(email, sub);
      expect(await entryOf(email)).toBe('registered');
      expect((await userOfEmail(email))?.id).toBe(signed.user_id);
      const stranger = `new@${domain}`;
      await rejectsWith(
        ssoSignIn(stranger, idpPerson({ email: stranger, email_verified: true })),
        'waitlistRequired',
      );
      expect(await userOfEmail(stranger)).toBeUndefined();
    } finally {
      config.waitlist = false;
    }
  });

  it('a sign-in through the connection accepts the membership SCIM provisioned for an account the person had', async () => {
    const { boss, domain } = await organisation();
    const token = await scimKey(boss);
    const email = `kay@${domain}`;
    const own = server.sdkBrowser().client();
    await passCooldown();
    await sendEmailCode(own, { email, type: CodeType.emailLogin });
    const existing = await emailCodeLogin<{ user_id: string }>(own, {
      email,
      code: await server.codeFor(email),
      type: CodeType.emailLogin,
    });
    expect((await scim(token, 'POST', '/Users', scimUser(email))).status).toBe(201);
    expect(await membersOf(boss.sid, existing.user_id)).toEqual([{ id: expect.any(String), is_frozen: 1 }]);

    const { client, signed } = await ssoSignIn(email, idpPerson({ email, email_verified: true }));
    expect(signed.user_id).toBe(existing.user_id);
    const info = await accountInfo<{ org?: { sec_subject_uid: string } }>(client);
    expect(info.org?.sec_subject_uid).toBe(boss.sid);
    expect(await membersOf(boss.sid, existing.user_id)).toEqual([{ id: expect.any(String), is_frozen: 0 }]);
    const accepted = await eventsOf(server, boss.sid, 'organisation.scim_user.accepted');
    expect(accepted.at(-1)).toMatchObject({ target: existing.user_id, data: { proof: 'enterpriseSso' } });
    // Nothing waits any more: a JIT membership was not made beside it.
    expect(await eventsOf(server, boss.sid, 'organisation.member.provisioned')).toEqual([]);
  });

  it('with just-in-time membership off, only members sign in through the connection', async () => {
    const { boss, domain } = await organisation();
    const token = await scimKey(boss);
    await aff.saveSsoPolicy(boss.client, {
      subject_uid: boss.sid,
      require_sso: false,
      jit_provisioning: false,
    });
    expect((await aff.ssoPolicyInfo(boss.client, { subject_uid: boss.sid })).jit_provisioning).toBe(false);
    // A save that does not name the switch (the console's SSO rules, an older client) leaves it off.
    await aff.saveSsoPolicy(boss.client, { subject_uid: boss.sid, require_sso: false });
    expect((await aff.ssoPolicyInfo(boss.client, { subject_uid: boss.sid })).jit_provisioning).toBe(false);
    const newcomer = `new@${domain}`;
    await rejectsWith(
      ssoSignIn(newcomer, idpPerson({ email: newcomer, email_verified: true })),
      'ssoJitDisabled',
    );
    expect(await userOfEmail(newcomer)).toBeUndefined();
    // The identity provider provisioned this one over SCIM: a member, who signs in.
    const provisioned = `sam@${domain}`;
    expect((await scim(token, 'POST', '/Users', scimUser(provisioned))).status).toBe(201);
    const { client } = await ssoSignIn(provisioned, idpPerson({ email: provisioned, email_verified: true }));
    expect((await accountInfo<{ org?: { sec_subject_uid: string } }>(client)).org?.sec_subject_uid).toBe(
      boss.sid,
    );
    const saved = await eventsOf(server, boss.sid, 'organisation.sso_policy.saved');
    expect(saved.at(-1)?.data).toMatchObject({ jit: false });
  });
});
