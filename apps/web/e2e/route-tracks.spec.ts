// Routes as lines: an organiser uploads a trial's GPX on Event Day, a bad file is refused
// with the server's reason, and the landing map draws the uploaded road (solid, in the
// route's colour, revealed) instead of the dashed waypoint loop, until the line is removed.
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { bearer, sessionOf, signInWithToken } from './support/api';
import { expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { expect, test, toast } from './support/fixtures';

const GPX = fileURLToPath(new URL('../../server/src/test/fixtures/routes/davao-calinan-1.1.gpx', import.meta.url));
const LAKAN = RALLY_ROUTES.lakan;

/** The line's current state on the server, whatever another test of this worker left. */
async function removeLine(request: APIRequestContext, token: string) {
  const res = await request.delete('/api/admin/routes/lakan/track', { headers: bearer(token) });
  expect([200, 404]).toContain(res.status());
}

async function landingMap(page: Page, trial: string) {
  await page.goto('/');
  const routes = page.locator('#routes');
  await routes.scrollIntoViewIfNeeded();
  await expect(routes.locator('.leaflet-container')).toBeAttached();
  await routes.getByRole('button', { name: new RegExp(trial) }).click();
  await expect(routes.getByRole('heading', { level: 3 })).toHaveText(trial);
  return routes;
}

test('an uploaded GPX is drawn on the landing map instead of the waypoint loop', async ({ page, request }) => {
  const admin = await sessionOf(request, createUser('admin'));
  await removeLine(request, admin.token);
  page.on('dialog', (dialog) => void dialog.accept());

  try {
    await signInWithToken(page, admin.token, admin.user);
    await page.goto('/admin?tab=event-day');
    const panel = page.getByRole('region', { name: 'Route Lines' });
    await expect(panel.getByRole('heading', { name: 'Route Lines' })).toBeVisible();
    const lakanRow = panel.locator('[data-testid="route-track"][data-trial="lakan"]');
    await expect(lakanRow).toContainText('No line yet');

    // Not GPX: refused with the server's reason, nothing stored.
    await panel.getByLabel('Trial', { exact: true }).selectOption('lakan');
    await panel.getByLabel('GPX file').setInputFiles({
      name: 'stations.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('lat,lon\n7.07,125.61\n'),
    });
    await panel.getByRole('button', { name: 'Upload Line' }).click();
    await expect(panel.getByRole('alert')).toHaveText(
      'The file is not a GPX track: it is not XML (a GPX file begins with "<?xml" or "<gpx")',
    );
    await expect(lakanRow).toContainText('No line yet');
    // The panel itself (the tab's other panels are checked by their own specs), error shown.
    const axe = await new AxeBuilder({ page })
      .include('section[aria-labelledby="route-tracks-heading"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await panel.getByLabel('GPX file').setInputFiles(GPX);
    await expect(panel.getByRole('alert')).toHaveCount(0);
    await panel.getByRole('button', { name: 'Upload Line' }).click();
    await expect(toast(page, /Lakan line saved: \d+\.\d km/)).toBeVisible();
    await expect(lakanRow.getByTestId('route-track-length')).toHaveText(/^2\d\.\d km$/);
    await expect(lakanRow).toContainText('davao-calinan-1.1.gpx');

    // The landing map: the road itself, solid in Lakan's colour, and the route revealed.
    const routes = await landingMap(page, LAKAN.name);
    const line = routes.locator('path.leaflet-interactive.route-line');
    await expect(line).toHaveCount(1);
    await expect(line).toHaveAttribute('stroke', LAKAN.color);
    await expect(line).not.toHaveAttribute('stroke-dasharray', /.+/);
    await expect(page.getByTestId('route-overlay')).toHaveCount(0);
    await expectNoViolations(page);
    // A trial without a line keeps its dashed loop under the overlay.
    await routes.getByRole('button', { name: /Bagani/ }).click();
    await expect(routes.locator('path.route-line')).toHaveCount(0);
    await expect(routes.locator(`path.leaflet-interactive[stroke="${RALLY_ROUTES.bagani.color}"]`)).toHaveAttribute(
      'stroke-dasharray',
      '10 10',
    );
    await expect(page.getByTestId('route-overlay')).toContainText('ROUTE CLASSIFIED');

    // Removed in the console: the landing map falls back to the loop.
    await page.goto('/admin?tab=event-day');
    await lakanRow.getByRole('button', { name: 'Remove the Lakan line' }).click();
    await expect(toast(page, 'Lakan line removed')).toBeVisible();
    await expect(lakanRow).toContainText('No line yet');
    const after = await landingMap(page, LAKAN.name);
    await expect(after.locator(`path.leaflet-interactive[stroke="${LAKAN.color}"]`)).toHaveAttribute(
      'stroke-dasharray',
      '10 10',
    );
    await expect(after.locator('path.route-line')).toHaveCount(0);
    await expect(page.getByTestId('route-overlay')).toBeVisible();
  } finally {
    // The worker's other specs (the landing page's) expect every route classified.
    await removeLine(request, admin.token);
  }
});
