import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderApp } from '../../test/render-app.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

const key = 'rfckit.cookie-consent';

function stored(): Record<string, unknown> {
  const raw = window.localStorage.getItem(key);
  expect(raw).not.toBeNull();
  return JSON.parse(raw ?? '{}') as Record<string, unknown>;
}

function banner() {
  return screen.queryByRole('region', { name: 'Cookie consent' });
}

describe('cookie consent', { timeout: SLOW_UI_MS }, () => {
  it('Reject All stores necessary only and hides the banner', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(
      within(await screen.findByRole('region', { name: 'Cookie consent' })).getByRole('button', {
        name: 'Reject All',
      }),
    );
    expect(stored()).toEqual({
      necessary: true,
      analytics: false,
      functionality: false,
      marketing: false,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(banner()).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('Accept All enables all four categories', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(await screen.findByRole('button', { name: 'Accept All' }));
    expect(stored()).toMatchObject({
      necessary: true,
      analytics: true,
      functionality: true,
      marketing: true,
    });
    expect(banner()).not.toBeInTheDocument();
  });

  it('Customise then Save Preferences stores the chosen set; Necessary and Functionality are locked', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(await screen.findByRole('button', { name: 'Customise' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cookie preferences' });
    const necessary = within(dialog).getByRole('switch', { name: 'Necessary' });
    const functionality = within(dialog).getByRole('switch', { name: 'Functionality' });
    expect(necessary).toBeChecked();
    expect(necessary).toBeDisabled();
    expect(functionality).toBeDisabled();
    await user.click(within(dialog).getByRole('switch', { name: 'Analytics' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Preferences' }));
    expect(stored()).toMatchObject({
      necessary: true,
      analytics: true,
      functionality: false,
      marketing: false,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(banner()).not.toBeInTheDocument();
  });

  it('stays hidden when consent is stored, and Cookie Settings reopens the dialog prefilled', async () => {
    window.localStorage.setItem(
      key,
      JSON.stringify({
        necessary: true,
        analytics: false,
        functionality: false,
        marketing: true,
        date: '2026-01-01T00:00:00.000Z',
      }),
    );
    const user = userEvent.setup();
    renderApp();
    await screen.findByRole('heading', { level: 1 });
    expect(banner()).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cookie Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cookie preferences' });
    expect(within(dialog).getByRole('switch', { name: 'Marketing' })).toBeChecked();
    expect(within(dialog).getByRole('switch', { name: 'Analytics' })).not.toBeChecked();
  });
});
