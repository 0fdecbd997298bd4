import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import dns2 from 'dns2';
import { type SamlPeer, startSamlPeer } from '../../apps/passport-server/test/support/saml-idp';
import { type OidcPeer, startOidcPeer } from '../support/oidc-peer';
import type { RunningServer } from '../support/server';
import { expect, type Outbox, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Enterprise single sign-on in Chromium: an organisation's manager (through the passport's API) adds
// and verifies a domain by its DNS TXT record (a real DNS server on loopback the passport is pointed
// at) and sets an OpenID Connect connection to a real provider on loopback (oidc-provider); then a
// member enters a work e-mail on /login, signs in at the provider's own pages, and lands on the
// workbench signed in to the organisation's identity.

interface Dns {
  port: number;
  publish(name: string, value: string): void;
}

const it = test.extend<{ idp: OidcPeer; samlIdp: SamlPeer; dns: Dns }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
  samlIdp: async ({}, use) => {
    const peer = await startSamlPeer();
    await use(peer);
    await peer.close();
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
  idp: async ({}, use) => {
    const peer = await startOidcPeer();
    await use(peer);
    await peer.close();
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
  dns: async ({}, use) => {
    const records = new Map<string, string>();
    const server = dns2.createServer({
      udp: true,
      handle(request, send) {
        const response = dns2.Packet.createResponseFromRequest(request);
        const name = request.questions[0]?.name.toLowerCase() ?? '';
        const value = records.get(name);
        if (value)
          response.answers.push({
            name,
            type: dns2.Packet.TYPE.TXT,
            class: dns2.Packet.CLASS.IN,
            ttl: 1,
            data: [value],
          } as (typeof response.answers)[number]);
        send(response);
      },
    });
    const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    const { port } = addresses.udp as AddressInfo;
    await use({ port, publish: (name, value) => records.set(name, value) });
    await server.close();
  },
  serverOptions: async ({ dns }, use) => {
    await use({ env: { DNS_RESOLVER: `127.0.0.1:${dns.port}` } });
  },
});

/** The manager's API client, signed in by SMS code (the CSRF header copied from its cookie). */
async function managerApi(server: RunningServer, outbox: Outbox) {
  const api: APIRequestContext = await playwrightRequest.newContext({ baseURL: server.origin });
  await api.get('/passport/web/account/info/');
  const post = async (path: string, form: Record<string, string>) => {
    const { cookies } = await api.storageState();
    const token = cookies.find((c) => c.name === 'passport_csrf_token')?.value ?? '';
    const response = await api.post(path, { form, headers: { 'x-tt-passport-csrf-token': token } });
    const body = (await response.json()) as { message: string; data: Record<string, string> };
    expect(body.message, `${path}: ${JSON.stringify(body.data)}`).toBe('success');
    return body.data;
  };
  const mobile = uniqueMobile();
  const sentAt = Date.now() - 1000;
  await post('/passport/web/send_code/', { mobile, type: '24' });
  await post('/passport/web/sms_login/', { mobile, code: await outbox.code(mobile, sentAt) });
  return { api, post, mobile };
}

/** An organisation of the manager's with `domain` verified by its DNS TXT record. */
async function organisationWithDomain(
  manager: Awaited<ReturnType<typeof managerApi>>,
  dns: Dns,
  domain: string,
) {
  const subject = await manager.post('/passport/aff/web/subject/create_by_mobile/', {
    mobile: manager.mobile,
    subject_name: 'Analytical Engines',
    deputy_name: 'Boss',
  });
  const sid = subject.sec_subject_uid as string;
  const added = await manager.post('/passport/aff/web/domain/add/', { subject_uid: sid, domain });
  dns.publish(added.record_name as string, added.record_value as string);
  await manager.post('/passport/aff/web/domain/verify/', { subject_uid: sid, domain });
  return sid;
}

it('a member signs in with a work e-mail through a SAML identity provider and lands in the organisation', async ({
  page,
  server,
  outbox,
  samlIdp,
  dns,
}) => {
  const domain = `e2e${randomBytes(4).toString('hex')}.example.com`;
  const email = `grace@${domain}`;
  const manager = await managerApi(server, outbox);
  const sid = await organisationWithDomain(manager, dns, domain);
  const saved = await manager.post('/passport/aff/web/sso_connection/save_saml/', {
    subject_uid: sid,
    metadata_xml: samlIdp.metadata,
  });
  // The IdP's administrator uploads our metadata from the address the answer names.
  samlIdp.trust(await (await manager.api.get(saved.sp_metadata_url as string)).text());
  await manager.api.dispose();
  // Signed in at the IdP already (its own login is not under test).
  samlIdp.people.set('grace', { nameId: 'grace-1', attributes: { email, displayName: 'Grace Hopper' } });
  await page.context().addCookies([{ name: 'saml_person', value: 'grace', url: samlIdp.origin }]);

  await page.goto(`${server.origin}/login`);
  await page.getByRole('button', { name: '使用工作邮箱登录' }).click();
  await page.getByRole('textbox', { name: '工作邮箱' }).fill(email);
  await page.getByRole('button', { name: '继续', exact: true }).click();

  // The IdP's page posts the response to our ACS from its own site (127.0.0.1 is not localhost's
  // site: the browser withholds our cookies there); the callback page finishes in this browser.
  await expect(page).toHaveURL(`${server.origin}/workbench`);
  const info = (await (await page.request.get(`${server.origin}/passport/web/account/info/`)).json()) as {
    data: { org?: { sec_subject_uid: string; deputy_name: string } };
  };
  expect(info.data.org).toMatchObject({ sec_subject_uid: sid, deputy_name: 'Grace Hopper' });
});

it('a member signs in with a work e-mail and lands in the organisation', async ({
  page,
  server,
  outbox,
  idp,
  dns,
}) => {
  const domain = `e2e${randomBytes(4).toString('hex')}.example.com`;
  const email = `ada@${domain}`;
  await idp.allow(`${server.origin}/enterprise-sso-callback`, {
    ada: { email, email_verified: true, name: 'Ada Lovelace' },
  });

  // The manager's side: an organisation, its domain verified by DNS, its connection.
  const manager = await managerApi(server, outbox);
  const sid = await organisationWithDomain(manager, dns, domain);
  await manager.post('/passport/aff/web/sso_connection/save/', {
    subject_uid: sid,
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
  });
  await manager.api.dispose();

  // The member, on the sign-in page.
  await page.goto(`${server.origin}/login`);
  await page.getByRole('button', { name: '使用工作邮箱登录' }).click();
  // An address no organisation verified: a clear answer, and nobody is sent anywhere.
  const workEmail = page.getByRole('textbox', { name: '工作邮箱' });
  await workEmail.fill('someone@unknown-domain.example.org');
  await page.getByRole('button', { name: '继续', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('单点登录');
  expect(await seriousViolations(page), 'axe on the work e-mail form').toEqual([]);

  await workEmail.fill(email);
  await page.getByRole('button', { name: '继续', exact: true }).click();

  // The organisation's provider: its own sign-in and consent pages.
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill('ada');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Back through the callback page to the workbench, signed in as the organisation's member.
  await expect(page).toHaveURL(`${server.origin}/workbench`);
  await expect(page.getByRole('heading', { level: 1, name: '工作台' })).toBeVisible();
  const info = (await (await page.request.get(`${server.origin}/passport/web/account/info/`)).json()) as {
    data: { email: string; org?: { sec_subject_uid: string; deputy_name: string } };
  };
  expect(info.data.org).toMatchObject({ sec_subject_uid: sid, deputy_name: 'Ada Lovelace' });
});
