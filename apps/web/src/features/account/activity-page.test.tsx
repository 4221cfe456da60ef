import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { storeAccessToken } from '../../lib/access-token.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { testProfile } from '../../test/profile.ts';
import ActivityPage from './activity-page.tsx';

const profile = testProfile({ lastName: null });

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function record(index: number, action = 'login') {
  return {
    id: `a-${index}`,
    action,
    username: 'ada@example.org',
    organisation_name: 'Acme Ltd',
    created_at: new Date(Date.UTC(2025, 0, 1, 12, index)).toISOString(),
    description: `event ${index}`,
    ip_address: '192.0.2.1',
  };
}

type Answer = Response | 'network error';

/** The server's answers by path, as a real fetch would give them. */
function serve(list: Answer, summary: Answer = json({ success: true, data: counts })) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    const answer: Answer = url.pathname.endsWith('/auth/profile')
      ? json({ success: true, data: { user: profile } })
      : url.pathname.endsWith('/activity/summary')
        ? summary
        : url.pathname.endsWith('/activity/users')
          ? json({ success: true, data: { users: [{ id: 'u-1', email: 'ada@example.org', name: 'Ada' }] } })
          : list;
    if (answer === 'network error') throw new TypeError('Failed to fetch');
    return answer.clone();
  });
}

const counts = { totalRecords: 45, last24Hours: 3, logins: 23, users: 2 };

describe('ActivityPage', () => {
  beforeEach(() => {
    storeAccessToken('header.payload.signature');
  });

  it('shows the counters, the records with their action badges and the page buttons', async () => {
    const activities = [record(1, 'login'), record(2, 'update'), record(3, 'export')];
    const fetchMock = serve(json({ success: true, data: { activities, totalPages: 3, totalRecords: 45 } }));
    renderWithProviders(<ActivityPage />, { route: '/activity?page=2&action=login' });

    const table = await screen.findByRole('table');
    const badges = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[1]?.textContent);
    expect(badges).toEqual(['Sign-in', 'Update', 'Unknown']);
    expect(screen.getByText('Records 21–23 of 45, page 2 of 3')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Activity pages' });
    expect(within(nav).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect((await screen.findByText('Sign-ins')).parentElement).toHaveTextContent('23');
    expect(screen.getByLabelText('Action')).toHaveValue('login');

    const listCall = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .find((url) => url.pathname === '/v1/organisation/activity');
    expect(Object.fromEntries(listCall!.searchParams)).toEqual({ page: '2', limit: '20', action: 'login' });
  });

  it.each([
    [
      'a failed result',
      json({ success: false, error: 'Internal failure', code: 'INTERNAL' }, 500),
      'Failed to fetch activities',
    ],
    ['no answer at all', 'network error' as const, 'Error loading activity data'],
    ['an unreadable answer', new Response('<html>', { status: 502 }), 'Error loading activity data'],
  ])('names %s in the error panel', async (_case, answer, message) => {
    serve(answer);
    renderWithProviders(<ActivityPage />, { route: '/activity' });
    const alert = await screen.findByText(message);
    expect(alert.closest('[role="alert"]')).toHaveTextContent('Error Loading Activities');
  });

  it('says so when the counters cannot be fetched', async () => {
    serve(
      json({ success: true, data: { activities: [], totalPages: 0, totalRecords: 0 } }),
      json({ success: false, error: 'nope', code: 'INTERNAL' }, 500),
    );
    renderWithProviders(<ActivityPage />, { route: '/activity' });
    expect(await screen.findByText('Failed to fetch activity')).toBeInTheDocument();
  });

  it('shows the empty state, and refuses an end date before the start date', async () => {
    const fetchMock = serve(
      json({ success: true, data: { activities: [], totalPages: 0, totalRecords: 0 } }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ActivityPage />, { route: '/activity' });
    expect(await screen.findByRole('heading', { name: 'No Activity Records' })).toBeInTheDocument();
    expect(screen.getByText('No activity records found for the current filters.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Activity pages' })).toBeNull();

    await user.type(screen.getByLabelText('From date'), '2025-02-10');
    await user.type(screen.getByLabelText('To date'), '2025-02-01');
    const calls = fetchMock.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(screen.getByText('The end date must be on or after the start date')).toBeInTheDocument();
    expect(fetchMock.mock.calls.length).toBe(calls);
  });
});
