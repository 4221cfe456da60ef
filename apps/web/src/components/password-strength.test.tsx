import { screen } from '@testing-library/react';
import { loadPasswordStrength } from '@rfckit/standards';
import { beforeAll, describe, expect, it } from 'vitest';

import { renderWithProviders } from '../test/render.tsx';
import { passwordStrength, PasswordStrengthMeter } from './password-strength.tsx';

beforeAll(() => loadPasswordStrength(), 30_000);

describe('passwordStrength', () => {
  it.each([
    ['password', 0, 'Very Weak', 20],
    ['12345678', 0, 'Very Weak', 20],
    ['        ', 0, 'Very Weak', 20],
    ['kJ8#qL2!vZ9@xR4$', 4, 'Strong', 100],
  ])('%j scores %i with zxcvbn: %s at %i percent', (password, score, label, percent) => {
    expect(passwordStrength(password)).toEqual({ score, label, percent });
  });

  it('counts the user inputs as easy to guess', () => {
    expect(passwordStrength('zebulonquaxley1')?.score).toBe(4);
    expect(passwordStrength('zebulonquaxley1', ['zebulonquaxley@example.org'])?.score).toBe(1);
  });
});

describe('PasswordStrengthMeter', () => {
  it('shows nothing for an empty password', () => {
    renderWithProviders(<PasswordStrengthMeter password="" />);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the label and the percentage of 5', () => {
    renderWithProviders(<PasswordStrengthMeter password="kJ8#qL2!vZ9@xR4$" />);
    expect(screen.getByText('Password strength: Strong (100%)')).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: 'Password strength' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
  });
});
