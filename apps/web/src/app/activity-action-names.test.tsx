import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { storeAccessToken } from '../lib/access-token.ts';
import { json } from '../test/api.ts';
import { renderWithProviders } from '../test/render.tsx';
import { testProfile } from '../test/profile.ts';
import ActivityPage from '../features/account/activity-page.tsx';
import DashboardPage from '../features/dashboard/dashboard-page.tsx';

const profile = testProfile();

const actions = ['login', 'logout', 'create', 'update', 'delete', 'export'];
const activities = actions.map((action, index) => ({
  id: `a-${index}`,
  action,
  username: 'ada@example.org',
  organisation_name: 'Acme Ltd',
  created_at: new Date(Date.UTC(2025, 0, 1, 12, index)).toISOString(),
  description: `event ${index}`,
  ip_address: null,
}));

/** The server's answers by path, as a real fetch would give them. */
function serveAccount() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    if (path.endsWith('/auth/profile')) return json({ success: true, data: { user: profile } });
    if (path.endsWith('/activity/summary'))
      return json({ success: true, data: { totalRecords: 6, last24Hours: 6, logins: 1, users: 1 } });
    if (path.endsWith('/activity/users')) return json({ success: true, data: { users: [] } });
    return json({ success: true, data: { activities, totalPages: 1, totalRecords: activities.length } });
  });
}

const expectedLabels = ['Sign-in', 'Sign-out', 'Create', 'Update', 'Delete', 'Unknown'];

describe('the name of an activity action', () => {
  beforeEach(() => {
    storeAccessToken('header.payload.signature');
    serveAccount();
  });

  it('is the same on the dashboard as on the activity page', async () => {
    const dashboard = renderWithProviders(<DashboardPage toolGroups={[]} />, { route: '/dashboard' });
    await screen.findByText('event 0');
    const onDashboard = [...document.querySelectorAll('[data-action]')].map((badge) => badge.textContent);
    dashboard.unmount();

    renderWithProviders(<ActivityPage />, { route: '/activity' });
    const table = await screen.findByRole('table');
    const onActivityPage = [...table.querySelectorAll('[data-action]')].map((badge) => badge.textContent);

    expect(onDashboard).toEqual(expectedLabels);
    expect(onActivityPage).toEqual(expectedLabels);
  });

  it('is offered by the same name in the activity filter', async () => {
    renderWithProviders(<ActivityPage />, { route: '/activity' });
    const filter = await screen.findByLabelText('Action');
    const options = within(filter)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['All actions', ...expectedLabels.slice(0, 5)]);
  });
});
