import type { Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { expect } from './test';

/** The QR code the sign-in page shows, decoded from a screenshot of it (jsQR over the PNG's pixels). */
export async function decodeQr(page: Page): Promise<string> {
  const image = page.getByRole('img', { name: '登录二维码' });
  await expect(image).toBeVisible();
  const png = PNG.sync.read(await image.screenshot());
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!found) throw new Error('no QR code in the screenshot of the QR image');
  return found.data;
}

/**
 * The phone confirms: it picks, among its three choices, the number the desktop page shows once the
 * code is scanned. Answers that number.
 */
export async function pickShownNumber(desktop: Page, phone: Page): Promise<string> {
  const shown = desktop.locator('.qr-login-number');
  await expect(shown).toBeVisible();
  const number = (await shown.textContent())?.trim() ?? '';
  await phone
    .getByRole('group', { name: '选择电脑屏幕上显示的数字' })
    .getByRole('button', { name: number, exact: true })
    .click();
  return number;
}
