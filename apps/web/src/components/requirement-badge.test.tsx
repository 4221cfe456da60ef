import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../test/render.tsx';
import { RequirementBadge } from './requirement-badge.tsx';
import { requirementLevels, requirementStyles } from './requirement-levels.ts';

describe('RequirementBadge', () => {
  it('shows the explanation in a tooltip on hover', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RequirementBadge level="MUST" />);
    const badge = screen.getByText('MUST');
    await user.hover(badge);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/absolute requirement of the specification/);
  });

  it('shows the explanation when focused with the keyboard', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RequirementBadge level="SHOULD NOT" />);
    await user.tab();
    expect(screen.getByText('SHOULD NOT').closest('[data-requirement]')).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/NOT RECOMMENDED/);
  });

  it.each(requirementLevels)('gives %s an accessible description', (level) => {
    renderWithProviders(<RequirementBadge level={level} />);
    const badge = screen.getByText(level).closest('[data-requirement]');
    expect(badge).toHaveAccessibleDescription(requirementStyles[level].explanation);
  });

  it('can show the source wording while keeping the level', () => {
    renderWithProviders(<RequirementBadge level="SHOULD" text="RECOMMENDED" />);
    const badge = screen.getByText('RECOMMENDED').closest('[data-requirement]');
    expect(badge).toHaveAttribute('data-requirement', 'SHOULD');
    expect(badge).toHaveAccessibleDescription(/^RECOMMENDED means SHOULD\./);
  });

  it('explains WILL, HAVE and COULD as rfckit guidance rather than RFC 2119', () => {
    for (const level of ['WILL', 'HAVE', 'COULD'] as const) {
      expect(requirementStyles[level].source).toBe('rfckit guidance');
      expect(requirementStyles[level].explanation).toMatch(/not an RFC 2119 keyword/);
    }
  });
});
