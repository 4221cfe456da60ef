import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { updateSessionUser } from '../../lib/session.ts';
import { storeAccessToken } from '../../lib/access-token.ts';
import { renderWithProviders } from '../../test/render.tsx';
import ApiKeysPage from './api-keys-page.tsx';

const member = {
  id: 'u-2',
  email: 'bob@example.org',
  firstName: 'Bob',
  lastName: null,
  name: null,
  role: 'member' as const,
  organisation: { id: 'o-1', name: 'Acme Ltd' },
  emailVerified: true,
  company: null,
  phone: null,
  pendingEmail: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

const KEY = 'rfk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function listed(id: string, name: string, revoked = false) {
  return {
    id,
    name,
    prefix: 'rfk_01234567',
    createdBy: { id: 'u-1', email: 'ada@example.org', name: 'Ada Lovelace' },
    createdAt: '2025-03-01T10:00:00.000Z',
    lastUsedAt: null,
    revokedAt: revoked ? '2025-03-02T10:00:00.000Z' : null,
    revoked,
  };
}

describe('ApiKeysPage', () => {
  beforeEach(() => {
    storeAccessToken('header.payload.signature');
  });

  it('tells a member that only admins manage keys, without asking for the list', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => json({ success: true, data: { user: member } }));
    renderWithProviders(<ApiKeysPage />, { route: '/api-keys' });

    expect(await screen.findByText('Only organisation admins can manage API keys')).toBeInTheDocument();
    expect(screen.getByText(/Only admins of Acme Ltd can create and revoke API keys/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create key' })).toBeNull();
    const paths = fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);
    expect(paths).toEqual(['/v1/auth/profile']);
  });

  it('lets an admin create a key, shows it once, and revokes a key after confirmation', async () => {
    const admin = { ...member, id: 'u-1', email: 'ada@example.org', role: 'admin' as const };
    // the session of the test before, or the profile call of a fresh one
    updateSessionUser(admin);
    let keys = [listed('k-old', 'Old script', true)];
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const method = init?.method ?? 'GET';
      if (path === '/v1/organisation/api-keys' && method === 'POST') {
        const body = JSON.parse(String(init?.body)) as { name: string };
        const created = listed('k-new', body.name);
        keys = [created, ...keys];
        return json(
          {
            success: true,
            data: {
              message: 'API key created successfully! Copy it now: it will not be shown again.',
              apiKey: created,
              key: KEY,
            },
          },
          201,
        );
      }
      if (path === '/v1/organisation/api-keys/k-new' && method === 'DELETE') {
        keys = keys.map((key) => (key.id === 'k-new' ? listed('k-new', key.name, true) : key));
        return json({ success: true, data: { message: 'API key revoked successfully!', apiKey: keys[0] } });
      }
      if (path === '/v1/auth/profile') return json({ success: true, data: { user: admin } });
      return json({ success: true, data: { apiKeys: keys } });
    });
    const user = userEvent.setup();
    renderWithProviders(<ApiKeysPage />, { route: '/api-keys' });

    const table = await screen.findByRole('table');
    expect(within(table).getByRole('row', { name: /Old script/ })).toHaveTextContent('Revoked');

    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.type(screen.getByLabelText(/Key name/), '  Deploy bot ');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('API key "Deploy bot" created successfully!')).toBeInTheDocument();
    expect(screen.getByText('Store it now: it will not be shown again.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'New API key' })).toHaveValue(KEY);
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ name: 'Deploy bot' });
    const row = await screen.findByRole('row', { name: /Deploy bot/ });
    expect(row).toHaveTextContent('Active');
    expect(row).toHaveTextContent('Never');
    expect(row).not.toHaveTextContent(KEY);

    await user.click(screen.getByRole('button', { name: 'I have stored the key' }));
    expect(screen.queryByRole('textbox', { name: 'New API key' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Create key' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke Deploy bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API key' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText('API key revoked successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('row', { name: /Deploy bot/ })).toHaveTextContent('Revoked'));
    expect(screen.queryByRole('button', { name: 'Revoke Deploy bot' })).toBeNull();
  });
});
