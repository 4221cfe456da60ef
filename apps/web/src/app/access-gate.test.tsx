import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { RegionVerdict } from '../lib/region.ts';
import { renderWithProviders } from '../test/render.tsx';
import { AccessGate } from './access-gate.tsx';

function deferred() {
  let resolve: (verdict: RegionVerdict) => void = () => {};
  const promise = new Promise<RegionVerdict>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('access gate', () => {
  it('shows the Security Check while a slow check runs, then Access Denied with the code', async () => {
    const check = deferred();
    renderWithProviders(
      <AccessGate check={() => check.promise}>
        <p>the app</p>
      </AccessGate>,
    );
    expect(await screen.findByText('Verifying access permissions')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Security Check');
    check.resolve({ allowed: false, country: 'RU', source: 'trace' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Access is not permitted from your location (RU)');
    expect(screen.queryByText('the app')).not.toBeInTheDocument();
  });

  it('shows the app to an allowed visitor', async () => {
    renderWithProviders(
      <AccessGate check={async () => ({ allowed: true, country: 'XX', source: 'trace' })}>
        <p>the app</p>
      </AccessGate>,
    );
    expect(await screen.findByText('the app')).toBeInTheDocument();
    expect(screen.queryByText('Verifying access permissions')).not.toBeInTheDocument();
  });
});
