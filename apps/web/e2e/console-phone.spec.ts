// The console on a marshal's phone (360 x 740): every tab a role sees fits the screen,
// the long lists (users, masterlist, QR stickers) turn into cards whose actions work,
// they stay tables on a desktop, and the Kit Tracker hands a whole kit over in one tap.
import type { APIRequestContext, Locator, Page, TestInfo } from '@playwright/test';
import { CONSOLE_TABS, can } from '@rally/shared/permissions';
import { type RegisteredRider, registerRider, type Session, sessionOf, signInWithToken } from './support/api';
import { expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { expect, test, toast } from './support/fixtures';

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/** A registered rider whose payment an admin approved: in users, masterlist, stickers and kits. */
async function verifiedRider(request: APIRequestContext, admin: Session): Promise<RegisteredRider> {
  const rider = await registerRider(request);
  const approved = await request.post('/api/admin/verifications/verify', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { verification_code: rider.user.verificationCode, action: 'verified' },
  });
  expect(approved.ok()).toBeTruthy();
  return rider;
}

/**
 * Nothing in the page or the tab's panel reaches past the screen: the page does not
 * scroll sideways, no box inside the panel scrolls sideways (a table cut off in its own
 * frame counts), and no element sticks out unless a frame inside the screen clips it
 * (a map's tiles).
 */
async function sidewaysProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const problems: string[] = [];
    const de = document.documentElement;
    if (de.scrollWidth > de.clientWidth) problems.push(`the page scrolls sideways: ${de.scrollWidth} > ${vw}`);
    const main = document.querySelector('main');
    if (!main) return ['no main panel'];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const inside = (r: DOMRect) => r.left >= -0.5 && r.right <= vw + 0.5;
    for (const el of [main, ...main.querySelectorAll('*')]) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const overflowX = getComputedStyle(el).overflowX;
      if ((overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`${name(el)} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
      }
      if (inside(r)) continue;
      let clipped = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const ox = getComputedStyle(a).overflowX;
        if (ox === 'hidden' || ox === 'clip') {
          clipped = inside(a.getBoundingClientRect());
          break;
        }
        if (ox === 'auto' || ox === 'scroll') break;
      }
      if (!clipped) problems.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return problems.slice(0, 10);
  });
}

async function openTab(page: Page, id: string, title: string) {
  await page.goto(`/admin?tab=${id}`);
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  await expect(page.locator('main [role="status"] .animate-spin')).toHaveCount(0);
}

/** Every console tab the role sees, at 360 px: no sideways scroll, and a screenshot to look at. */
async function everyTabFits(page: Page, role: string, info: TestInfo, axeOn: readonly string[]) {
  const tabs = CONSOLE_TABS.filter((tab) => can(role, tab.permission));
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Console sections' }).first().getByRole('button')).toHaveText(
    tabs.map((t) => t.title),
  );
  for (const tab of tabs) {
    await openTab(page, tab.id, tab.title);
    expect(await sidewaysProblems(page), `${role} · ${tab.title}`).toEqual([]);
    await page.screenshot({ path: info.outputPath(`${role}-${tab.id}-360.png`), fullPage: true });
    if (axeOn.includes(tab.id)) await expectNoViolations(page);
  }
}

/** A stacked cell shows its column's name before its content. */
function cellLabel(cell: Locator) {
  return cell.evaluate((td) => getComputedStyle(td, '::before').content);
}

/** The control is on the screen and a thumb can hit it. */
async function expectTappable(control: Locator) {
  await expect(control).toBeVisible();
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  expect(box.height).toBeGreaterThanOrEqual(44);
}

test('every console tab an admin sees fits a 360 px phone', async ({ page, request }, info) => {
  test.slow();
  const admin = await sessionOf(request, createUser('admin'));
  await verifiedRider(request, admin);
  await registerRider(request);
  await page.setViewportSize(PHONE);
  await signInWithToken(page, admin.token, admin.user);
  await everyTabFits(page, 'admin', info, ['users', 'masterlist', 'id-cards', 'kit-tracker']);
});

test('every console tab a marshal sees fits a 360 px phone', async ({ page, request }, info) => {
  test.slow();
  const marshal = await sessionOf(request, createUser('marshall'));
  await page.setViewportSize(PHONE);
  await signInWithToken(page, marshal.token, marshal.user);
  await everyTabFits(page, 'marshall', info, []);
});

test('on a phone users, masterlist and QR stickers are cards whose actions work; on a desktop they stay tables', async ({
  page,
  request,
}) => {
  const admin = await sessionOf(request, createUser('admin'));
  const rider = await verifiedRider(request, admin);
  const id = rider.user.id;
  const name = `${rider.user.firstName} ${rider.user.lastName}`;
  await page.setViewportSize(PHONE);
  await signInWithToken(page, admin.token, admin.user);

  // User Management: open the rider's edit from their card.
  await openTab(page, 'users', 'User Management');
  await page.getByLabel('Search by kit name, full name or email').fill(rider.email);
  let card = page.locator(`tr[data-user-id="${id}"]`);
  await expect(card).toBeVisible();
  await expect(page.locator('thead')).toBeHidden();
  for (const label of ['Rider #', 'Category', 'Status', 'Last Active'])
    expect(await cellLabel(card.locator(`td[data-label="${label}"]`))).toBe(`"${label}"`);
  for (const action of [/^View details of/, /^Edit /, /^Delete /, /^Undo verification of/])
    await expectTappable(card.getByRole('button', { name: action }));
  await expectTappable(card.getByRole('button', { name: /^Status: Active/ }));
  await card.getByRole('button', { name: /^Edit / }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Warrior' });
  await expect(edit).toBeVisible();
  await expect(edit.getByLabel('Full Name')).toHaveValue(name);
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  expect(await sidewaysProblems(page)).toEqual([]);

  // Participant Masterlist: the details from the card.
  await openTab(page, 'masterlist', 'Participant Masterlist');
  await page.getByLabel('Search participants by name, kit name, email or rider number').fill(rider.email);
  card = page.locator(`tr[data-user-id="${id}"]`);
  await expect(card).toBeVisible();
  expect(await cellLabel(card.locator('td[data-label="Contact"]'))).toBe('"Contact"');
  for (const action of [/^View /, /^Receipt of/, /^Photo of/, /^Reset password of/])
    await expectTappable(card.getByRole('button', { name: action }));
  await card.getByRole('button', { name: `View ${name}` }).click();
  const details = page.getByRole('dialog', { name: 'Warrior Details' });
  await expect(details).toBeVisible();
  await expect(details.getByText(rider.email)).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await sidewaysProblems(page)).toEqual([]);

  // QR Sticker Generator: pick the rider for a sheet and preview the sticker from the card.
  await openTab(page, 'id-cards', 'QR Sticker Generator');
  await page.getByLabel('Search by name, email, kit name or rider number').fill(rider.email);
  card = page.locator(`tr[data-user-id="${id}"]`);
  await expect(card).toBeVisible();
  expect(await cellLabel(card.locator('td[data-label="Print status"]'))).toBe('"Print status"');
  const pick = card.getByText('to the sticker sheet');
  await expectTappable(card.locator('label').filter({ has: page.getByRole('checkbox') }));
  await pick.click();
  await expect(card.getByRole('checkbox', { name: `Add ${name} to the sticker sheet` })).toBeChecked();
  await expect(page.getByTestId('print-selected')).toHaveText('Print selected (1)');
  await expectTappable(card.getByRole('button', { name: /^Mark as printed: / }));
  const view = card.getByRole('button', { name: `View QR sticker of ${name}` });
  await expectTappable(view);
  await view.click();
  await expect(page.getByRole('dialog', { name: 'Ready to Print' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await sidewaysProblems(page)).toEqual([]);

  // A desktop keeps the tables: a header row and cells in columns.
  await page.setViewportSize(DESKTOP);
  for (const [tab, title, search] of [
    ['users', 'User Management', 'Search by kit name, full name or email'],
    ['masterlist', 'Participant Masterlist', 'Search participants by name, kit name, email or rider number'],
    ['id-cards', 'QR Sticker Generator', 'Search by name, email, kit name or rider number'],
  ] as const) {
    await openTab(page, tab, title);
    await page.getByLabel(search).fill(rider.email);
    const row = page.locator(`tr[data-user-id="${id}"]`);
    await expect(row).toBeVisible();
    await expect(page.locator('thead')).toBeVisible();
    expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe('table-row');
    expect(
      await row
        .locator('td')
        .first()
        .evaluate((td) => getComputedStyle(td).display),
    ).toBe('table-cell');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width);
  }
});

test('the Kit Tracker hands over all three items in one tap, from the card and from the details', async ({
  page,
  request,
}) => {
  const admin = await sessionOf(request, createUser('admin'));
  const first = await verifiedRider(request, admin);
  const second = await verifiedRider(request, admin);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await page.setViewportSize(PHONE);
  await signInWithToken(page, admin.token, admin.user);

  const find = async (rider: RegisteredRider) => {
    await page.getByLabel('Search by name, kit name, email or rider number').fill(rider.email);
    const card = page.locator(`tr[data-user-id="${rider.user.id}"]`);
    await expect(card).toBeVisible();
    return card;
  };
  const boxes = (card: Locator, rider: RegisteredRider) =>
    ['T-shirt', 'Vest', 'Finisher Sleeve'].map((item) =>
      card.getByRole('checkbox', { name: `${item} given to ${rider.user.firstName} ${rider.user.lastName}` }),
    );

  await openTab(page, 'kit-tracker', 'Kit Tracker');
  let card = await find(first);
  // The shirt was given earlier; one tap gives the rest.
  await boxes(card, first)[0]?.click();
  await expect(card.getByTestId('kit-dot')).toHaveAttribute('title', 'Kit 1/3 complete');
  const handOver = card.getByTestId('hand-over-all');
  await expectTappable(handOver);
  await expectTappable(
    card.locator('label', {
      has: page.getByRole('checkbox', { name: `Vest given to ${first.user.firstName} ${first.user.lastName}` }),
    }),
  );
  const asked = dialogs.length;
  await handOver.click();
  for (const box of boxes(card, first)) await expect(box).toBeChecked();
  await expect(card.getByTestId('kit-dot')).toHaveAttribute('data-complete', 'true');
  await expect(handOver).toBeHidden();
  // No question first: the toast offers the way back instead.
  expect(dialogs).toHaveLength(asked);
  const done = toast(page, `Kit handed over to ${first.user.firstName} ${first.user.lastName}`);
  await expect(done.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expectNoViolations(page);
  expect(await sidewaysProblems(page)).toEqual([]);

  // Undo takes back what the tap gave, not the shirt given before it.
  await done.getByRole('button', { name: 'Undo' }).click();
  await expect(toast(page, /^Hand-over undone for/)).toBeVisible();
  const [shirt, vest, sleeve] = boxes(card, first);
  await expect(shirt as Locator).toBeChecked();
  await expect(vest as Locator).not.toBeChecked();
  await expect(sleeve as Locator).not.toBeChecked();
  await handOver.click();
  await expect(card.getByTestId('kit-dot')).toHaveAttribute('data-complete', 'true');

  // It is stored: a reload shows the kit complete.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Kit Tracker' })).toBeVisible();
  card = await find(first);
  for (const box of boxes(card, first)) await expect(box).toBeChecked();
  await expect(card.getByTestId('hand-over-all')).toHaveCount(0);

  // From the details modal, for the second rider.
  card = await find(second);
  await card.getByRole('button', { name: /^View kit details of/ }).click();
  const modal = page.getByRole('dialog', { name: 'Participant Kit Details' });
  await expect(modal.getByText('Kit 0/3 complete')).toBeVisible();
  await modal.getByTestId('hand-over-all').click();
  await expect(modal.getByText('Kit 3/3 complete')).toBeVisible();
  // The open dialog makes the toast under it inert, so the modal offers the undo itself.
  await modal.getByRole('button', { name: 'Undo hand-over' }).click();
  await expect(modal.getByText('Kit 0/3 complete')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Undo hand-over' })).toHaveCount(0);
  await modal.getByTestId('hand-over-all').click();
  await expect(modal.getByText('Kit 3/3 complete')).toBeVisible();
  await expect(modal.getByText('Given', { exact: true })).toHaveCount(3);
  await expect(modal.getByTestId('hand-over-all')).toHaveCount(0);
  await expectNoViolations(page);
  await page.keyboard.press('Escape');
  for (const box of boxes(card, second)) await expect(box).toBeChecked();
  expect(dialogs).toHaveLength(asked);
  await page.reload();
  card = await find(second);
  await expect(card.getByTestId('kit-dot')).toHaveAttribute('data-complete', 'true');
});
