import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import dns2 from 'dns2';
import { type SamlPeer, startSamlPeer } from '../../apps/passport-server/test/support/saml-idp';
import { registeredThroughApi, signedInBySmsThroughApi } from '../support/account-api';
import { type OidcPeer, startOidcPeer } from '../support/oidc-peer';
import { createOrganisation } from '../support/organisation';
import { PASSWORD } from '../support/person';
import type { RunningServer } from '../support/server';
import { expect, type Outbox, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Enterprise single sign-on in Chromium: an organisation's manager adds and verifies a domain by its
// DNS TXT record (a real DNS server on loopback the passport is pointed at) and sets a connection — a
// SAML one in the organisation console against a real SAML IdP on loopback (samlify), an OpenID
// Connect one through the passport's API against a real provider (oidc-provider); then a member enters
// a work e-mail on /login, signs in at the provider, and lands on the workbench signed in to the
// organisation's identity. And a membership the provider provisions over SCIM for an account the
// person had waits for them on /org until they accept it.

interface Dns {
  port: number;
  publish(name: string, value: string): void;
}

const it = test.extend<{ idp: OidcPeer; samlIdp: SamlPeer }, { dns: Dns }>({
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
  // One DNS server per worker, as the passport is one per worker: its port is in the passport's settings.
  // Each test publishes the records of a domain of its own.
  dns: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
    async ({}, use) => {
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
    { scope: 'worker' },
  ],
  serverOptions: async ({ dns }, use) => {
    await use({ env: { DNS_RESOLVER: `127.0.0.1:${dns.port}` } });
  },
});

// One group, run by one worker one test after another: the DNS server, its passport and the worker that
// holds them start once in the run, not once for each test.
it.describe.configure({ mode: 'default' });

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

it('a manager sets up SAML in the console; a member signs in with a work e-mail and lands in the organisation', async ({
  page,
  newContext,
  server,
  outbox,
  samlIdp,
  dns,
}) => {
  const domain = `e2e${randomBytes(4).toString('hex')}.example.com`;
  const email = `grace@${domain}`;

  // The manager, in the organisation console (zh): the organisation, its domain verified by DNS.
  const managerContext = await newContext();
  const consolePage = await managerContext.newPage();
  await signedInBySmsThroughApi(consolePage, server, outbox, { mobile: uniqueMobile() });
  await createOrganisation(consolePage, server.origin, { name: 'Analytical Engines', as: 'Boss' });
  const domains = consolePage.getByRole('region', { name: '企业域名' });
  await domains.getByLabel('域名（例如 example.com）').fill(domain);
  await domains.getByRole('button', { name: '添加域名' }).click();
  await expect(domains.getByRole('status')).toHaveText(`已添加 ${domain}。请添加 TXT 记录后验证。`);
  const record = domains.getByRole('listitem').filter({ hasText: domain });
  const [recordName, recordValue] = await record.locator('dd code').allTextContents();
  dns.publish(recordName!, recordValue!);
  await record.getByRole('button', { name: '验证' }).click();
  await expect(domains.getByRole('status')).toHaveText(`${domain} 已验证。`);

  // The SAML connection from the address the identity provider publishes its metadata at: the
  // passport reads it.
  const connection = consolePage.getByRole('region', { name: '单点登录连接' });
  await connection.getByRole('radio', { name: 'SAML 2.0' }).check();
  await connection.getByRole('textbox', { name: '身份提供方元数据地址（URL）' }).fill(samlIdp.entityId);
  await connection.getByRole('button', { name: '保存连接' }).click();
  await expect(connection.getByRole('status').first()).toHaveText('连接已保存。');
  await expect(connection.getByText(`当前连接：SAML 2.0（${samlIdp.entityId}）。`)).toBeVisible();
  await expect(connection.getByRole('button', { name: '从地址重新读取元数据' })).toBeVisible();
  const ours = connection.getByRole('region', { name: '在身份提供方填写以下信息' });
  const spMetadataUrl = await ours.getByRole('textbox', { name: '服务提供方元数据地址' }).inputValue();
  expect(await ours.getByRole('textbox', { name: '断言消费地址（ACS，HTTP-POST）' }).inputValue()).toBe(
    `${server.origin}/passport/enterprise_sso/saml_acs/`,
  );
  expect(await seriousViolations(consolePage), 'axe on /org with the SAML connection').toEqual([]);
  // The IdP's administrator uploads our metadata from the address the console shows.
  samlIdp.trust(await (await consolePage.request.get(spMetadataUrl)).text());
  await managerContext.close();

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
    data: { org?: { subject_name: string; deputy_name: string } };
  };
  expect(info.data.org).toMatchObject({ subject_name: 'Analytical Engines', deputy_name: 'Grace Hopper' });
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

it('a membership the provider provisions for an account the person had waits on /org until they accept', async ({
  page,
  server,
  outbox,
  dns,
}) => {
  const domain = `e2e${randomBytes(4).toString('hex')}.example.com`;
  const email = `ada@${domain}`;
  // The person's own account, with the address, before the organisation provisions it.
  await registeredThroughApi(page, server, outbox, { email, password: PASSWORD });

  // The manager: a verified domain and a key with the scim scope; the identity provider provisions.
  const manager = await managerApi(server, outbox);
  const sid = await organisationWithDomain(manager, dns, domain);
  const { key } = await manager.post('/passport/aff/web/api_key/create/', {
    subject_uid: sid,
    name: 'Okta provisioning',
    scopes: 'scim',
  });
  const created = await manager.api.post('/scim/v2/Users', {
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/scim+json' },
    data: JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      emails: [{ primary: true, value: email, type: 'work' }],
      displayName: 'Ada Lovelace',
      active: true,
    }),
  });
  expect(created.status()).toBe(201);
  await manager.api.dispose();

  await page.goto(`${server.origin}/org`);
  const identities = page.getByRole('region', { name: '当前身份' });
  await expect(identities.getByText('Analytical Engines · Ada Lovelace · 等待你接受')).toBeVisible();
  expect(await seriousViolations(page), 'axe on /org with a membership waiting').toEqual([]);
  await identities.getByRole('button', { name: '接受: Analytical Engines' }).click();
  await expect(identities.getByRole('status')).toHaveText('你已加入 Analytical Engines。');
  await expect(
    identities.getByRole('button', { name: '使用此身份: Analytical Engines · Ada Lovelace' }),
  ).toBeVisible();
});
