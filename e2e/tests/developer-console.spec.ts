import { signedInBySmsOnWorkbench } from '../support/account-api';
import { expect, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Open authorization's developer console (/developer) in Chromium: a signed-in person reaches it from
// the workbench, registers an app, is shown its secret once, rotates it and deletes the app. The token
// endpoint tells whether a secret is the app's: a bogus refresh token with the right secret is
// invalid_grant, with a wrong one invalid_client.

/** What the provider's token endpoint says to this client and secret (RFC 6749 error code). */
async function tokenAnswer(origin: string, clientKey: string, secret: string): Promise<string> {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientKey)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'not-a-token' }),
  });
  return ((await response.json()) as { error: string }).error;
}

test('a person registers an app, sees its secret once, rotates it and deletes the app', async ({
  page,
  server,
  outbox,
}) => {
  await signedInBySmsOnWorkbench(page, server, outbox, { mobile: uniqueMobile() });
  await page.getByRole('link', { name: '开发者控制台' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '开发者控制台' })).toBeVisible();
  await expect(page.getByText('你还没有注册应用。')).toBeVisible();

  await page.getByLabel('应用名称').fill('Video Club');
  await page.getByLabel(/回调地址/).fill('https://video.example.com/callback\nhttp://127.0.0.1:8080/cb');
  await expect(page.getByRole('checkbox', { name: /user_info/ })).toBeChecked();
  await page.getByRole('button', { name: '注册', exact: true }).click();

  const secretHeading = page.getByRole('heading', { name: 'Video Club 的密钥' });
  await expect(secretHeading).toBeFocused();
  const app = page.getByRole('listitem').filter({ hasText: 'Video Club' });
  await expect(app).toContainText('已授权人数：0');
  const clientKey = (await app.locator('dd code').first().textContent()) ?? '';
  const first = (await page.getByTestId('client-secret').textContent()) ?? '';
  expect(clientKey).toMatch(/^[0-9a-f]{20}$/);
  expect(first.length).toBeGreaterThanOrEqual(43);
  expect(await tokenAnswer(server.origin, clientKey, first)).toBe('invalid_grant');
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: '我已保存' }).click();
  await expect(page.getByTestId('client-secret')).toHaveCount(0);
  // The list never shows the secret again.
  await expect(page.getByText(first)).toHaveCount(0);

  await page.getByRole('button', { name: '更换 Video Club 的密钥' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '更换密钥' }).click();
  await expect(secretHeading).toBeFocused();
  const second = (await page.getByTestId('client-secret').textContent()) ?? '';
  expect(second).not.toBe(first);
  expect(await tokenAnswer(server.origin, clientKey, first)).toBe('invalid_client');
  expect(await tokenAnswer(server.origin, clientKey, second)).toBe('invalid_grant');

  await page.getByRole('button', { name: '删除 Video Club' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除', exact: true }).click();
  await expect(page.getByText('你还没有注册应用。')).toBeVisible();
  expect(await tokenAnswer(server.origin, clientKey, second)).toBe('invalid_client');
});
