import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { storeAccessToken } from '../lib/access-token.ts';
import { json } from '../test/api.ts';
import { renderApp } from '../test/render-app.tsx';
import { testProfile } from '../test/profile.ts';

const profile = testProfile();

describe('the sign-in and registration forms for a signed-in user', () => {
  beforeEach(() => {
    storeAccessToken('header.payload.signature');
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if (path.endsWith('/auth/profile')) return json({ success: true, data: { user: profile } });
      return json({ success: true, data: { activities: [], totalPages: 0, totalRecords: 0 } });
    });
  });

  it.each(['/login', '/register'])(
    '%s goes on to the dashboard instead of showing the form',
    async (path) => {
      renderApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Lovelace' })).toBeVisible();
      expect(screen.queryByLabelText(/password/i)).not.toBeInTheDocument();
    },
  );
});
