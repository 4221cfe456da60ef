import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { accountPassword, signInThroughApi } from './session.ts';

// Registration (create), verification (update) and the first sign-in (login) make 3 records; the
// journey adds 22 sign-ins and 20 profile updates through the API: 45 in all, 23 sign-ins and 21
// updates.
const SIGN_INS = 22;
const PROFILE_UPDATES = 20;

async function makeActivity(request: APIRequestContext, email: string, token: string): Promise<void> {
  for (let i = 0; i < SIGN_INS; i++) {
    const response = await request.post('/v1/auth/login', { data: { email, password: accountPassword } });
    expect(response.status(), await response.text()).toBe(200);
  }
  for (let i = 0; i < PROFILE_UPDATES; i++) {
    const response = await request.put('/v1/auth/profile', {
      headers: { authorization: `Bearer ${token}` },
      data: { firstName: `Ada ${i}` },
    });
    expect(response.status(), await response.text()).toBe(200);
  }
}

function records(page: Page) {
  return page.getByRole('region', { name: 'Activity records' }).getByRole('row');
}

function counter(page: Page, label: string) {
  return page.getByRole('listitem').filter({ hasText: label });
}

test('45 records: counters, three pages of 20, filters, clearing and a CSV of the filtered list', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await withConsentGiven(page);
  const { email, token } = await signInThroughApi(page, request, 'activity');
  await makeActivity(request, email, token);

  // the dashboard leads here
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'View Activity' }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Activity History' })).toBeVisible();

  await expect(counter(page, 'Total records')).toContainText('45');
  await expect(counter(page, 'Sign-ins')).toContainText('23');
  await expect(counter(page, 'Users')).toContainText('1');
  await expect(page.getByText('Records 1–20 of 45, page 1 of 3')).toBeVisible();
  await expect(records(page)).toHaveCount(21); // the header row and 20 records
  const pages = page.getByRole('navigation', { name: 'Activity pages' });
  await expect(pages.getByRole('button', { name: /^Page \d+$/ })).toHaveText(['1', '2', '3']);
  await expect(pages.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  await expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();

  // paging reloads the list and keeps the page in the URL
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/activity\?page=2$/);
  await expect(page.getByText('Records 21–40 of 45, page 2 of 3')).toBeVisible();
  await expect(records(page)).toHaveCount(21);
  await pages.getByRole('button', { name: 'Page 3' }).click();
  await expect(page.getByText('Records 41–45 of 45, page 3 of 3')).toBeVisible();
  await expect(records(page)).toHaveCount(6);
  // the oldest record is the registration
  await expect(records(page).last()).toContainText('Create');
  await expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.goBack();
  await expect(page.getByText('Records 21–40 of 45, page 2 of 3')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Records 21–40 of 45, page 2 of 3')).toBeVisible();

  // filtering by action returns to page 1
  await page.getByLabel('Action').selectOption('update');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/\/activity\?action=update$/);
  await expect(page.getByText('Records 1–20 of 21, page 1 of 2')).toBeVisible();
  await expect(counter(page, 'Total records')).toContainText('21');
  await expect(counter(page, 'Sign-ins')).toContainText('0');
  const badges = page
    .getByRole('region', { name: 'Activity records' })
    .getByRole('cell')
    .filter({
      hasText: /^(Sign-in|Sign-out|Create|Update|Delete|Unknown)$/,
    });
  await expect(badges).toHaveCount(20);
  for (const text of await badges.allTextContents()) expect(text).toBe('Update');
  await pages.getByRole('button', { name: 'Page 2' }).click();
  await expect(page.getByText('Records 21–21 of 21, page 2 of 2')).toBeVisible();

  // the export holds the filtered list, not just the page on screen
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^activity-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile(await download.path())).toString('utf8');
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const lines = csv.slice(1).split('\r\n');
  expect(lines[0]).toBe('id,created_at,action,username,organisation_name,description,details,ip_address');
  expect(lines.at(-1)).toBe('');
  const rows = lines.slice(1, -1);
  expect(rows).toHaveLength(21);
  for (const row of rows) {
    expect(row.split(',')[2]).toBe('update');
    expect(row.split(',')[3]).toBe(email);
  }
  expect(rows.filter((row) => row.includes('Profile updated'))).toHaveLength(PROFILE_UPDATES);
  await expect(page.getByText(/^Exported 21 records to activity-/)).toBeVisible();

  // clearing the filters returns to page 1 of everything
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(page.getByLabel('Action')).toHaveValue('');
  await expect(page.getByText('Records 1–20 of 45, page 1 of 3')).toBeVisible();
  await expect(counter(page, 'Total records')).toContainText('45');

  // back returns to the filtered second page, form included
  await page.goBack();
  await expect(page.getByText('Records 21–21 of 21, page 2 of 2')).toBeVisible();
  await expect(page.getByLabel('Action')).toHaveValue('update');
});

test('a date range without records shows the empty state; the account menu leads here', async ({
  page,
  request,
}) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'activity-empty');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(page.getByText('Records 1–3 of 3, page 1 of 1')).toBeVisible();
  // a single page needs no page buttons
  await expect(page.getByRole('navigation', { name: 'Activity pages' })).toHaveCount(0);

  await page.getByLabel('From date').fill('2001-01-01');
  await page.getByLabel('To date').fill('2001-01-31');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/dateFrom=2001-01-01&dateTo=2001-01-31/);
  await expect(page.getByRole('heading', { name: 'No Activity Records' })).toBeVisible();
  await expect(page.getByText('No activity records found for the current filters.')).toBeVisible();
  await expect(counter(page, 'Total records')).toContainText('0');

  // an end before the start is refused in the form
  await page.getByLabel('From date').fill('2001-02-10');
  await page.getByLabel('To date').fill('2001-02-01');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText('The end date must be on or after the start date')).toBeVisible();
  await expect(page).toHaveURL(/dateFrom=2001-01-01&dateTo=2001-01-31/);
});
