// Registration on a phone with weak data: every problem shown at once (inline, in a
// summary that links to the fields, with the spec's single toast unchanged), and an
// unfinished form kept on the device across a reload (a discarded background tab), photo
// and receipt included, the password never.
import type { Page } from '@playwright/test';
import { PH_MOBILE_MESSAGE } from '@rally/shared/contracts/rider-details';
import { freeRiderNumber, shownRiderNumber, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { PASSWORD, uniqueEmail } from './support/env';
import { expect, test, toast } from './support/fixtures';
import { pngFixture } from './support/images';

interface StoredDraftView {
  fields: Record<string, unknown>;
  agreed: boolean;
  photo: { size: number; type: string } | null;
  receipt: { size: number; name: string } | null;
}

/**
 * The draft as this origin's IndexedDB holds it, read with the raw API (not the app's
 * code). Opening a database that does not exist yet would create it empty, so that open
 * is aborted and reads as "no draft".
 */
function storedDraft(page: Page): Promise<StoredDraftView | null> {
  return page.evaluate(
    () =>
      new Promise<StoredDraftView | null>((resolve, reject) => {
        const open = indexedDB.open('rally-registration');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction('drafts').objectStore('drafts').get('current');
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            const v = get.result;
            db.close();
            resolve(
              v
                ? {
                    fields: v.fields,
                    agreed: v.agreed,
                    photo: v.profileImage ? { size: v.profileImage.blob.size, type: v.profileImage.type } : null,
                    receipt: v.receipt ? { size: v.receipt.blob.size, name: v.receipt.name } : null,
                  }
                : null,
            );
          };
        };
      }),
  );
}

/** The ids an element's aria-describedby lists must exist, and together read `text`. */
async function expectDescribedBy(page: Page, name: string, message: string) {
  const input = page.locator(`[name="${name}"]`);
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  expect(ids.length).toBeGreaterThan(0);
  const texts = await Promise.all(ids.map(async (id) => (await page.locator(`[id="${id}"]`).textContent()) ?? ''));
  expect(texts.join(' ')).toContain(message);
}

for (const viewport of [
  { name: 'phone', width: 360, height: 740, mobile: true },
  { name: 'desktop', width: 1280, height: 800, mobile: false },
]) {
  test.describe(viewport.name, () => {
    test.use({
      viewport: { width: viewport.width, height: viewport.height },
      isMobile: viewport.mobile,
      hasTouch: viewport.mobile,
    });

    test('every problem shows at once, under its field and in a summary that links to it', async ({ page }, info) => {
      await page.goto('/register');
      await page.getByLabel('First name').fill('Tala');
      await page.getByLabel('Email').fill('not-an-email');
      await page.locator('label:has(input[name=tshirtSize][value=CUSTOM])').click();
      await page.getByLabel('Contact number').fill('12345');
      await page.locator('label:has(input[name=paymentMethod][value=gcash])').click();

      await page.getByRole('button', { name: 'CLAIM YOUR DESTINY' }).click();
      // The spec's one toast, its first failing check, is unchanged.
      await expect(toast(page, 'Please select a rider number (1-1000).')).toBeVisible();

      const summary = page.getByTestId('error-summary');
      await expect(summary.getByRole('heading')).toHaveText('13 things to fix');
      await expect(summary.getByRole('link')).toHaveText([
        'Please enter your last name.',
        'Please enter a valid email address.',
        'Please enter a password.',
        'Please enter your phone number.',
        'Please select a rider number (1-1000).',
        'Please enter your custom T-shirt size.',
        'Please select a finisher sleeve size.',
        'Please select a vest size.',
        'Please enter an emergency contact name.',
        PH_MOBILE_MESSAGE,
        'Please choose your trial.',
        'Payment receipt is required for non-cash payments.',
        'Please agree to the terms and conditions before submitting.',
      ]);

      // The first invalid field in form order has focus, in view.
      const lastName = page.getByLabel('Last name');
      await expect(lastName).toBeFocused();
      await expect(lastName).toBeInViewport();
      await expect(lastName).toHaveAccessibleDescription('Please enter your last name.');
      await expect(page.getByLabel('First name')).not.toHaveAttribute('aria-invalid', 'true');

      for (const [name, message] of [
        ['lastName', 'Please enter your last name.'],
        ['email', 'Please enter a valid email address.'],
        ['password', 'Please enter a password.'],
        ['custom-tshirtSize', 'Please enter your custom T-shirt size.'],
        ['emergencyContactName', 'Please enter an emergency contact name.'],
        ['emergencyContactNumber', PH_MOBILE_MESSAGE],
        ['agreedToTerms', 'Please agree to the terms and conditions before submitting.'],
      ] as const) {
        await expectDescribedBy(page, name, message);
      }
      await expect(page.getByTestId('receipt-input')).toHaveAttribute('aria-invalid', 'true');
      // Groups of choices carry the mark on their fieldset.
      await expect(page.locator('fieldset[aria-invalid="true"]')).toHaveCount(4);

      await page.screenshot({ path: info.outputPath(`errors-top-${viewport.name}.png`) });
      await summary.screenshot({ path: info.outputPath(`errors-summary-${viewport.name}.png`) });

      // A summary link takes the rider to its field.
      await summary.getByRole('link', { name: PH_MOBILE_MESSAGE }).click();
      const contactNumber = page.getByLabel('Contact number');
      await expect(contactNumber).toBeFocused();
      await expect(contactNumber).toBeInViewport();
      await page.screenshot({ path: info.outputPath(`errors-field-${viewport.name}.png`) });

      await summary.getByRole('link', { name: 'Please select a vest size.' }).click();
      await expect(page.locator('input[name=vestSize]').first()).toBeFocused();
      await summary.getByRole('link', { name: 'Please select a rider number (1-1000).' }).click();
      await expect(page.locator('[data-rider-number]:not(:disabled)').first()).toBeFocused();

      // Fixing a field takes its message away at once.
      await contactNumber.fill('+63 917 555 0101');
      await expect(contactNumber).not.toHaveAttribute('aria-invalid', 'true');
      await expect(summary.getByRole('heading')).toHaveText('12 things to fix');

      await expectNoViolations(page);
      if (viewport.mobile) await expectNoSidewaysScroll(page);
    });

    test('an unfinished registration survives a reload, without the password, and goes once registered', async ({
      page,
      request,
    }, info) => {
      const email = uniqueEmail('draft');
      const riderNumber = await freeRiderNumber(request);
      await page.goto('/register');
      await expect(page.getByTestId('draft-notice')).toHaveCount(0);
      // The form arrives prerendered and takes input once hydrated (its fieldset is disabled till
      // then); setInputFiles and focus() do not wait for that as clicks and typing do.
      await expect(page.getByRole('button', { name: 'CLAIM YOUR DESTINY' })).toBeEnabled();

      await page.getByTestId('profile-image-input').setInputFiles({
        name: 'me.png',
        mimeType: 'image/png',
        buffer: pngFixture(640, 480),
      });
      await expect(page.getByTestId('crop-dialog')).toHaveAttribute('data-status', 'ready');
      await page.getByRole('button', { name: 'Crop & Save' }).click();
      await expect(page.getByRole('img', { name: 'Your cropped profile' })).toBeVisible();

      await page.getByLabel('First name').fill('Amihan');
      await page.getByLabel('Last name').fill('Dagohoy');
      await page.getByLabel('Kit name').fill('WIND OF THE NORTH');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Phone number').fill('09171230000');
      await page.getByLabel('Gender').selectOption('female');
      await page.getByLabel('Search numbers').fill(String(riderNumber));
      await page.locator(`[data-rider-number="${riderNumber}"]`).click();
      await page.locator('label:has(input[name=tshirtSize][value=S])').click();
      await page.locator('label:has(input[name=finisherSleeveSize][value=CUSTOM])').click();
      await page.getByLabel('Custom finisher sleeve size').fill('Arm 24 in');
      await page.locator('label:has(input[name=vestSize][value=M])').click();
      await page.getByLabel('Contact name').fill('Datu Dagohoy');
      await page.getByLabel('Contact number').fill('0918 765 4321');
      await page.getByLabel('Blood type').selectOption('O+');
      await page.getByLabel('Allergies').fill('Penicillin');
      await page.getByLabel('Medical conditions').fill('Mild asthma');
      await page.getByLabel('Motorcycle model').fill('Kawasaki KLX 150');
      await page.locator('label[data-category="lakan"]').click();
      await page.locator('label:has(input[name=paymentMethod][value=bank_transfer])').click();
      await page.getByTestId('receipt-input').setInputFiles({
        name: 'bank-slip.png',
        mimeType: 'image/png',
        buffer: pngFixture(300, 600),
      });
      await page.getByRole('checkbox', { name: /agree to the Terms and Conditions/ }).check();

      // The draft reaches the device's database as the rider types, photo and receipt included.
      await expect
        .poll(async () => {
          const d = await storedDraft(page);
          return d ? { agreed: d.agreed, receipt: d.receipt?.name, photo: d.photo?.type } : null;
        })
        .toEqual({ agreed: true, receipt: 'bank-slip.png', photo: 'image/jpeg' });
      const kept = await storedDraft(page);
      expect(kept?.fields).toMatchObject({ firstName: 'Amihan', emergencyContactNumber: '0918 765 4321' });
      expect(kept?.fields).not.toHaveProperty('password');
      expect(kept?.fields).not.toHaveProperty('confirmPassword');
      expect(JSON.stringify(kept)).not.toContain(PASSWORD);

      // The browser discards the tab while the rider pays in the bank app; they come back.
      await page.reload();
      const notice = page.getByTestId('draft-notice');
      await expect(notice).toContainText('We restored your unfinished registration');
      await expect(page.getByLabel('First name')).toHaveValue('Amihan');
      await expect(page.getByLabel('Last name')).toHaveValue('Dagohoy');
      await expect(page.getByLabel('Kit name')).toHaveValue('WIND OF THE NORTH');
      await expect(page.getByLabel('Email')).toHaveValue(email);
      await expect(page.getByLabel('Phone number')).toHaveValue('09171230000');
      await expect(page.getByLabel('Gender')).toHaveValue('female');
      await expect(page.getByTestId('selected-rider-number')).toHaveText(`#${shownRiderNumber(riderNumber)}`);
      await expect(page.locator('input[name=tshirtSize][value=S]')).toBeChecked();
      await expect(page.getByLabel('Custom finisher sleeve size')).toHaveValue('Arm 24 in');
      await expect(page.locator('input[name=vestSize][value=M]')).toBeChecked();
      await expect(page.getByLabel('Contact name')).toHaveValue('Datu Dagohoy');
      await expect(page.getByLabel('Contact number')).toHaveValue('0918 765 4321');
      await expect(page.getByLabel('Blood type')).toHaveValue('O+');
      await expect(page.getByLabel('Allergies')).toHaveValue('Penicillin');
      await expect(page.getByLabel('Medical conditions')).toHaveValue('Mild asthma');
      await expect(page.locator('input[name=category][value=lakan]')).toBeChecked();
      await expect(page.locator('input[name=paymentMethod][value=bank_transfer]')).toBeChecked();
      await expect(page.getByText('bank-slip.png')).toBeVisible();
      await expect(page.getByRole('checkbox', { name: /agree to the Terms and Conditions/ })).toBeChecked();
      const avatar = page.getByRole('img', { name: 'Your cropped profile' });
      await expect(avatar).toBeVisible();
      expect(await avatar.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
        384, 384,
      ]);
      // Never the password.
      await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
      await expect(page.getByLabel('Confirm password', { exact: true })).toHaveValue('');

      await page.screenshot({ path: info.outputPath(`restored-${viewport.name}.png`) });
      await expectNoViolations(page);
      if (viewport.mobile) await expectNoSidewaysScroll(page);

      // Submitting without the password is refused by the spec's check, as before.
      await page.getByRole('button', { name: 'CLAIM YOUR DESTINY' }).click();
      await expect(toast(page, 'Please fill in all required fields: password')).toBeVisible();
      await expect(page.getByLabel('Password', { exact: true })).toBeFocused();

      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await expect(page.getByTestId('error-summary')).toHaveCount(0);
      await page.getByRole('button', { name: 'CLAIM YOUR DESTINY' }).click();
      await page.waitForURL('**/verify', { timeout: 15_000 });

      const token = await page.evaluate(() => localStorage.getItem('authToken'));
      const profile = await request.get('/api/auth/profile', { headers: { Authorization: `Bearer ${token}` } });
      expect((await profile.json()).data.user).toMatchObject({
        email,
        riderNumber,
        category: 'lakan',
        paymentMethod: 'bank_transfer',
        customFinisherSleeveSize: 'Arm 24 in',
        emergencyContactName: 'Datu Dagohoy',
        emergencyContactNumber: '0918 765 4321',
        hasProfileImage: true,
        hasPaymentReceipt: true,
      });
      // Registered: the copy on the device is gone.
      await expect.poll(() => storedDraft(page)).toBeNull();
    });

    test('"Start over" empties the form and forgets the kept copy', async ({ page }) => {
      await page.goto('/register');
      await page.getByLabel('First name').fill('Bagwis');
      await page.getByLabel('Contact name').fill('Ina Bagwis');
      await expect.poll(async () => (await storedDraft(page))?.fields.firstName).toBe('Bagwis');

      await page.reload();
      await expect(page.getByTestId('draft-notice')).toBeVisible();
      await expect(page.getByLabel('First name')).toHaveValue('Bagwis');
      await page.getByRole('button', { name: 'Start over' }).click();
      await expect(page.getByTestId('draft-notice')).toHaveCount(0);
      await expect(page.getByLabel('First name')).toHaveValue('');
      await expect(page.getByLabel('Contact name')).toHaveValue('');
      await expect.poll(() => storedDraft(page)).toBeNull();

      await page.reload();
      await expect(page.getByRole('heading', { name: /Join the Warriors/i })).toBeVisible();
      await expect(page.getByLabel('First name')).toHaveValue('');
      await expect(page.getByTestId('draft-notice')).toHaveCount(0);
    });
  });
}

test.describe('staff console', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('staff see the medical notes given at registration on the rider card, with the fallback when none', async ({
    page,
    request,
  }, info) => {
    const admin = createUser('admin');
    const login = await request.post('/api/auth/login', { data: { email: admin.email, password: admin.password } });
    const adminSession = await login.json();
    const headers = { Authorization: `Bearer ${adminSession.token}` };

    const registerVerified = async (extra: Record<string, string>) => {
      const email = uniqueEmail('medical');
      const res = await request.post('/api/auth/register-with-uploads', {
        multipart: {
          firstName: 'Hiraya',
          lastName: 'Manawari',
          email,
          password: PASSWORD,
          phoneNumber: '09171234567',
          category: 'lakan',
          paymentMethod: 'cash',
          riderNumber: String(await freeRiderNumber(request)),
          tshirtSize: 'L',
          finisherSleeveSize: 'M',
          vestSize: 'L',
          emergencyContactName: 'Ina Manawari',
          emergencyContactNumber: '+639181234567',
          ...extra,
        },
      });
      expect(res.status()).toBe(201);
      const user = (await res.json()).data.user;
      const verified = await request.post('/api/admin/verifications/verify', {
        headers,
        data: { verification_code: user.verificationCode, action: 'verified' },
      });
      expect(verified.ok()).toBe(true);
      return { email, id: user.id as string };
    };
    const withNotes = await registerVerified({
      bloodType: 'AB-',
      allergies: 'Shellfish',
      medicalConditions: 'Diabetic',
    });
    const without = await registerVerified({});

    await signInWithToken(page, adminSession.token, adminSession.data.user);
    await page.goto('/admin?tab=id-cards');
    await expect(page.getByRole('heading', { name: 'QR Sticker Generator' })).toBeVisible();
    const search = page.getByLabel('Search by name, email, kit name or rider number');

    await search.fill(withNotes.email);
    await page
      .locator(`tr[data-user-id="${withNotes.id}"]`)
      .getByRole('button', { name: /View QR sticker of/ })
      .click();
    let preview = page.getByRole('dialog', { name: 'Ready to Print' });
    await expect(preview.getByText('AB-')).toBeVisible();
    await expect(preview.getByText('Shellfish')).toBeVisible();
    await expect(preview.getByText('Diabetic')).toBeVisible();
    await expect(preview.getByText('Ina Manawari · +639181234567')).toBeVisible();
    await preview.screenshot({ path: info.outputPath('sticker-preview-medical.png') });
    await expectNoViolations(page);
    await page.keyboard.press('Escape');
    await expect(preview).toBeHidden();

    await search.fill(without.email);
    await page
      .locator(`tr[data-user-id="${without.id}"]`)
      .getByRole('button', { name: /View QR sticker of/ })
      .click();
    preview = page.getByRole('dialog', { name: 'Ready to Print' });
    await expect(preview.getByText('No known allergies')).toBeVisible();
  });
});
