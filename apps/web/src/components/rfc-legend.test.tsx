import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../test/render.tsx';
import { wordings } from './diagnostic-list.tsx';
import { requirementLevels, requirementSynonyms } from './requirement-levels.ts';
import { RfcLegend } from './rfc-legend.tsx';

/** The terms (badge words) of a definition list in the open popover. */
function terms(list: HTMLElement): string[] {
  return [...list.querySelectorAll('dt')].map((term) => term.textContent ?? '');
}

async function openWithKeyboard(
  toolBadges = [{ label: 'Not authorised: no reports', meaning: 'No reports go there.' }],
) {
  const user = userEvent.setup();
  renderWithProviders(<RfcLegend toolBadges={toolBadges} />);
  await user.tab();
  const button = screen.getByRole('button', { name: 'Requirement levels' });
  expect(button).toHaveFocus();
  await user.keyboard('{Enter}');
  const dialog = await screen.findByRole('dialog', { name: 'Requirement levels' });
  return { user, button, dialog };
}

describe('Requirement levels popover', () => {
  it('lists every word a requirement badge can print: each level and each RFC 2119 synonym', async () => {
    const { dialog } = await openWithKeyboard();
    const listed = terms(within(dialog).getByLabelText('Requirement levels') as HTMLElement);
    // RequirementBadge prints `text ?? level`: text is a synonym, level one of the levels
    const printable = [...requirementLevels, ...Object.keys(requirementSynonyms)];
    expect([...listed].sort()).toEqual([...printable].sort());
    expect(listed).toEqual(
      expect.arrayContaining([
        'MUST',
        'REQUIRED',
        'SHALL',
        'SHALL NOT',
        'RECOMMENDED',
        'NOT RECOMMENDED',
        'OPTIONAL',
      ]),
    );
  });

  it('explains a synonym by its level (RFC 2119) and every finding badge', async () => {
    const { dialog } = await openWithKeyboard();
    const levels = within(dialog).getByLabelText('Requirement levels');
    const recommended = [...levels.querySelectorAll('dt')].find((term) => term.textContent === 'RECOMMENDED');
    expect(recommended?.nextElementSibling).toHaveTextContent(/^Means SHOULD/);
    const findings = terms(within(dialog).getByLabelText('Finding badges') as HTMLElement);
    const shown = new Set(
      Object.values(wordings).flatMap((wording) => Object.values(wording).map((w) => w.label)),
    );
    expect([...findings].sort()).toEqual([...shown].sort());
    expect(terms(within(dialog).getByLabelText('Result badges') as HTMLElement)).toEqual([
      'Not authorised: no reports',
    ]);
  });

  it('closes on Escape and gives the focus back to its button', async () => {
    const { user, button } = await openWithKeyboard();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
  });
});
