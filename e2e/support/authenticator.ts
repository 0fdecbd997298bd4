import type { CDPSession, Page } from '@playwright/test';
import { expect } from './test';

/**
 * Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain: a CTAP2 platform
 * authenticator with resident keys and user verification, which answers by itself).
 */

/** A platform authenticator that holds discoverable credentials and verifies its user, in `page`. */
export async function virtualAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Adds a passkey named `name` on the account security page (the session's verification is fresh). */
export async function addPasskey(page: Page, name: string) {
  const section = page.getByRole('region', { name: '通行密钥', exact: true });
  await section.getByRole('button', { name: '添加通行密钥' }).click();
  await section.getByRole('textbox', { name: '名称' }).fill(name);
  await section.getByRole('button', { name: '创建通行密钥' }).click();
  await expect(section.getByRole('status')).toHaveText(`已添加通行密钥“${name}”。`);
}
