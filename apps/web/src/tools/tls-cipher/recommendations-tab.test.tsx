import { tlsServerConfig } from '@rfckit/standards';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { failWith, succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { RecommendationsTab } from './recommendations-tab.tsx';

// The API's answer is what the server computes: tlsServerConfig from @rfckit/standards.
describe('TLS recommendations', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks for the chosen profile and server and shows the configuration to copy', async () => {
    const fetchMock = succeedWith(tlsServerConfig('modern', 'apache'));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<RecommendationsTab />);
    await user.selectOptions(screen.getByLabelText('Profile'), 'modern');
    await user.selectOptions(screen.getByLabelText('Server'), 'apache');
    await user.click(screen.getByRole('button', { name: 'Load Recommendations' }));

    expect(
      await screen.findByRole('heading', { name: 'Apache httpd, Mozilla modern profile' }),
    ).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/tls-cipher/recommendations?profile=modern&server=apache');
    expect(init?.method).toBe('GET');
    expect(init?.body ?? null).toBeNull();
    expect(screen.getByTestId('tls-config')).toHaveTextContent('SSLProtocol -all +TLSv1.3');
    expect(screen.getByRole('button', { name: 'Copy the Apache httpd configuration' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Protocols/ })).toHaveTextContent('TLSv1.3');
  });

  it('says why loading failed with the spec’s text', async () => {
    vi.stubGlobal('fetch', failWith('Too many requests', 'RATE_LIMITED', 429));
    const user = userEvent.setup();
    renderWithProviders(<RecommendationsTab />);
    await user.click(screen.getByRole('button', { name: 'Load Recommendations' }));
    expect(await screen.findByText(/^Failed to load recommendations: /)).toBeInTheDocument();
  });
});
