import { checkHost, createFixtureResolver } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { TestTab } from './test-tab.tsx';

// The API's answer is what the server computes: checkHost from @rfckit/standards over zone data.
const resolver = createFixtureResolver({
  'example.com': { TXT: 'v=spf1 include:_spf.example.net exp=why.example.com -all' },
  '_spf.example.net': { TXT: 'v=spf1 ip4:192.0.2.0/24 -all' },
  'why.example.com': { TXT: '%{i} is not one of our servers' },
});

describe('SPF test tab', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('needs an IP and a sender, HELO or domain, then shows the result, the deciding term and the trace', async () => {
    const input = { ip: '203.0.113.9', sender: 'user@example.com', helo: 'mx.example.org' };
    const fetchMock = succeedWith(await checkHost(input, { resolver, now: 0 }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<TestTab />);

    const run = screen.getByRole('button', { name: 'Run test' });
    await user.click(run);
    expect(screen.getByLabelText(/^IP address/)).toHaveAccessibleDescription(
      expect.stringContaining('IP address is required'),
    );
    await user.type(screen.getByLabelText(/^IP address/), input.ip);
    await user.click(run);
    expect(screen.getByLabelText(/^Sender/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter a sender, a HELO name or a domain'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/^Sender/), input.sender);
    await user.type(screen.getByLabelText(/^HELO name/), input.helo);
    await user.click(run);

    expect(await screen.findByRole('heading', { name: 'SPF result: fail' })).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual(input);
    const summary = screen.getByRole('table', { name: 'Check summary' });
    expect(within(summary).getByTestId('spf-check-result')).toHaveTextContent('fail');
    expect(within(summary).getByText('-all')).toBeInTheDocument();
    expect(screen.getByTestId('spf-explanation')).toHaveTextContent('203.0.113.9 is not one of our servers');
    const trace = screen.getByRole('list', { name: 'Evaluation trace' });
    expect(within(trace).getAllByText('_spf.example.net').length).toBeGreaterThan(0);
  });

  it('shows the field message of an address that is not an IP, without calling the server', async () => {
    const fetchMock = succeedWith(await checkHost({ ip: '192.0.2.1', domain: 'example.com' }, { resolver }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<TestTab />);
    await user.type(screen.getByLabelText(/^IP address/), 'mail.example.com');
    await user.type(screen.getByLabelText(/^Domain/), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    expect(await screen.findByText('Enter an IPv4 or IPv6 address')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
