import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../test/render.tsx';
import { passwordStrength, PasswordStrengthMeter } from './password-strength.tsx';

describe('passwordStrength', () => {
  it.each([
    ['', 0, 'Very Weak', 0],
    ['abc', 1, 'Very Weak', 20],
    ['abcdefgh', 2, 'Weak', 40],
    ['abcdefgH', 3, 'Fair', 60],
    ['abcdefH1', 4, 'Good', 80],
    ['abcdeH1!', 5, 'Strong', 100],
    ['ABC1!', 3, 'Fair', 60],
    ['        ', 2, 'Weak', 40],
  ])('%j scores %i: %s at %i percent', (password, score, label, percent) => {
    expect(passwordStrength(password)).toEqual({ score, label, percent });
  });
});

describe('PasswordStrengthMeter', () => {
  it('shows nothing for an empty password', () => {
    renderWithProviders(<PasswordStrengthMeter password="" />);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the label and the percentage of 5', () => {
    renderWithProviders(<PasswordStrengthMeter password="abcdefH1" />);
    expect(screen.getByText('Password strength: Good (80%)')).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: 'Password strength' });
    expect(bar).toHaveAttribute('aria-valuenow', '80');
  });
});
