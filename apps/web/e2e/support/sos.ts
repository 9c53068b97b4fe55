import { expect, type Page } from '@playwright/test';

export async function openSosSheet(page: Page) {
  await page.getByTestId('sos-open').click();
  await expect(page.getByRole('dialog', { name: 'SOS: what happened?' })).toBeVisible();
}

/** Presses the hold button for `ms` with a real pointer. */
export async function hold(page: Page, ms: number) {
  const box = await page.getByTestId('sos-hold').boundingBox();
  if (!box) throw new Error('no hold button');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(ms);
  await page.mouse.up();
}
