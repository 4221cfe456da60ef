import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { Providers } from '../providers.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

describe('ThemeToggle', () => {
  it('switches theme and stores the bare value under rfckit.theme', async () => {
    const user = userEvent.setup();
    render(
      <Providers>
        <ThemeToggle />
      </Providers>,
    );
    await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(window.localStorage.getItem('rfckit.theme')).toBe('dark');
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');

    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(window.localStorage.getItem('rfckit.theme')).toBe('light');
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  it('starts from the stored theme', () => {
    window.localStorage.setItem('rfckit.theme', 'dark');
    render(
      <Providers>
        <ThemeToggle />
      </Providers>,
    );
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toBeInTheDocument();
  });
});
