import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import LoginPage from './login-page.tsx';

describe('LoginPage', () => {
  it.each([
    ['/login?unlocked=1', 'Sign-in unlocked'],
    ['/login?unlock=failed', 'Unlock failed'],
    ['/login?undone=1', 'Change undone'],
    ['/login?undo=failed', 'Undo failed'],
  ])('tells what the account mail link at %s did', (route, title) => {
    renderWithProviders(<LoginPage />, { route });
    expect(screen.getByText(title)).toBeInTheDocument();
  });

  it('shows no notice without one of those parameters', () => {
    renderWithProviders(<LoginPage />, { route: '/login?unlocked=yes' });
    for (const title of ['Sign-in unlocked', 'Unlock failed', 'Change undone', 'Undo failed']) {
      expect(screen.queryByText(title)).toBeNull();
    }
  });
});
