import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { mailedLink } from './mail.ts';
import { accountPassword, signInThroughApi, uniqueEmail } from './session.ts';

test.beforeEach(async ({ page }) => {
  await withConsentGiven(page);
});

function teamRow(page: Page, email: string) {
  return page.getByRole('region', { name: 'Team members' }).getByRole('row').filter({ hasText: email });
}

test('an admin edits the organisation, invites a colleague who joins, and changes their role', async ({
  page,
  browser,
  request,
}) => {
  // two people, two browsers, a dozen screens: more than the default 30 s on a busy runner
  test.setTimeout(90_000);
  const admin = await signInThroughApi(page, request, 'org-admin');
  const organisationName = `Acme ${Date.now()}`;

  // the account menu leads to the page; the information is read-only until Edit
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Organisation' }).click();
  await expect(page).toHaveURL(/\/organisation$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Organisation Settings' })).toBeVisible();
  const name = page.getByLabel('Organisation name');
  await expect(name).toHaveAttribute('readonly');
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Edit' }).click();
  await name.fill(organisationName);
  await page.getByLabel('Domain').fill('not a domain');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Domain must be a valid domain name, e.g. example.com')).toBeVisible();

  await page.getByLabel('Domain').fill('Acme.Example');
  await page.getByLabel('Admin email').fill('it@acme.example');
  await page.getByLabel('Phone').fill('+44 20 7946 0000');
  await page.getByLabel('Address').fill('1 High Street\nSpringfield');
  await page.getByLabel('Description').fill('Makers of everything.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('organisation updated successfully!')).toBeVisible();
  await expect(name).toHaveAttribute('readonly');
  // stored as the server normalised it, and still there after a reload
  await expect(page.getByLabel('Domain')).toHaveValue('acme.example');
  await page.reload();
  await expect(page.getByLabel('Organisation name')).toHaveValue(organisationName);
  await expect(page.getByLabel('Address')).toHaveValue('1 High Street\nSpringfield');

  // Add Member: a real invitation mail goes out
  const colleague = uniqueEmail('colleague');
  const addMember = page.getByRole('region', { name: 'Add Member' });
  await addMember.getByRole('button', { name: 'Send invitation' }).click();
  await expect(addMember.getByText('First name, last name and email are required')).toBeVisible();
  await addMember.getByLabel('First name').fill('Grace');
  await addMember.getByLabel('Last name').fill('Hopper');
  await addMember.getByLabel('Email').fill(colleague);
  await addMember.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent successfully!')).toBeVisible();
  await expect(teamRow(page, colleague)).toContainText('Pending');
  await expect(teamRow(page, colleague)).toContainText('Member');
  await expect(teamRow(page, admin.email)).toContainText('Active');

  // the colleague opens the mailed link in a browser of their own and creates the account
  const link = await mailedLink(colleague, 'invitation');
  expect(link).toMatch(/^\/invitation\?token=/);
  const context = await browser.newContext();
  const colleaguePage = await context.newPage();
  await withConsentGiven(colleaguePage);
  await colleaguePage.goto(link);
  await expect(
    colleaguePage.getByRole('heading', { level: 1, name: `Join ${organisationName}` }),
  ).toBeVisible();
  await expect(colleaguePage.getByText(`to join ${organisationName} as a Member`)).toBeVisible();
  await colleaguePage.getByRole('textbox', { name: 'Password', exact: true }).fill(accountPassword);
  await colleaguePage.getByLabel('Confirm password').fill(accountPassword);
  await colleaguePage.getByRole('button', { name: 'Create account and join' }).click();
  await expect(colleaguePage).toHaveURL(/\/organisation$/);

  // a member sees the information read-only, with no Edit button
  await expect(colleaguePage.getByLabel('Organisation name')).toHaveValue(organisationName);
  await expect(colleaguePage.getByLabel('Organisation name')).toHaveAttribute('readonly');
  await expect(colleaguePage.getByText('You are a Member')).toBeVisible();
  await expect(colleaguePage.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(colleaguePage.getByRole('region', { name: 'Add Member' })).toHaveCount(0);
  // and the server refuses a direct change
  // the page keeps its access token in memory: the same browser's cookie gets one for the check
  const colleagueRefresh = await colleaguePage.request.post('/v1/auth/refresh');
  expect(colleagueRefresh.status()).toBe(200);
  const colleagueToken = ((await colleagueRefresh.json()) as { data: { token: string } }).data.token;
  const refused = await request.put('/v1/organisation', {
    headers: { authorization: `Bearer ${colleagueToken}` },
    data: { name: 'Taken over' },
  });
  expect(refused.status()).toBe(403);

  // the link works once
  await colleaguePage.goto(link);
  await expect(colleaguePage.getByText('This invitation has already been used.')).toBeVisible();
  await context.close();

  // the admin sees the colleague as an Active Member and makes them an Admin
  await page.reload();
  const row = teamRow(page, colleague);
  await expect(row).toContainText('Grace Hopper');
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Member');
  await row.getByRole('button', { name: 'Manage Grace Hopper' }).click();
  await page.getByRole('menuitem', { name: 'Make Admin' }).click();
  await expect(page.getByText(`${colleague} is now an Admin`)).toBeVisible();
  await expect(row).toContainText('Admin');
  await expect(row).not.toContainText('Member');

  const name2 = await request.get('/v1/organisation', {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect((await name2.json()).data.organisation).toMatchObject({
    name: organisationName,
    domain: 'acme.example',
  });
});

test('an admin revokes an invitation after confirming, and its link then says so', async ({
  page,
  request,
}) => {
  await signInThroughApi(page, request, 'org-revoker');
  await page.goto('/organisation');
  const invitee = uniqueEmail('revokee');
  const addMember = page.getByRole('region', { name: 'Add Member' });
  await addMember.getByLabel('First name').fill('Alan');
  await addMember.getByLabel('Last name').fill('Turing');
  await addMember.getByLabel('Email').fill(invitee);
  await addMember.getByLabel('Role').click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await addMember.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent successfully!')).toBeVisible();
  const row = teamRow(page, invitee);
  await expect(row).toContainText('Admin');
  await expect(row).toContainText('Pending');
  const link = await mailedLink(invitee, 'invitation');

  // keyboard: open the row's menu, choose Revoke, then back out of the dialog once
  await row.getByRole('button', { name: 'Manage Alan Turing' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Revoke invitation' }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke the invitation to ${invitee}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Manage Alan Turing' }).click();
  await page.getByRole('menuitem', { name: 'Revoke invitation' }).click();
  await dialog.getByRole('button', { name: 'Revoke invitation' }).click();
  await expect(page.getByText(`The invitation to ${invitee} was revoked`)).toBeVisible();
  await expect(teamRow(page, invitee)).toHaveCount(0);

  await page.goto(link);
  await expect(page.getByText('This invitation was revoked by the organisation.')).toBeVisible();
});
