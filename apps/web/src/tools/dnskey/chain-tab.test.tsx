import { dnskeyOperations } from '@rfckit/standards';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { succeedWith } from '../../test/api.ts';
import { secureChain } from '../../test/dnssec-chains.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { ChainTab } from './chain-tab.tsx';

describe('DNSKEY Chain tab', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts the domain and type and shows the verdict', async () => {
    const fetchMock = succeedWith(secureChain);
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ChainTab />);
    await user.type(screen.getByLabelText('Domain'), 'www.example.test');
    await user.selectOptions(screen.getByLabelText('Record type'), 'AAAA');
    await user.click(screen.getByRole('button', { name: 'Validate chain' }));
    expect(await screen.findByRole('heading', { name: 'www.example.test A: secure' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${dnskeyOperations.chain.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ domain: 'www.example.test', type: 'AAAA' });
  });

  it('rejects a label over 63 characters without calling the API', async () => {
    const fetchMock = succeedWith(secureChain);
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ChainTab />);
    await user.type(screen.getByLabelText('Domain'), `${'a'.repeat(64)}.example.test`);
    await user.click(screen.getByRole('button', { name: 'Validate chain' }));
    expect(
      await screen.findByText(/has 64 characters, over the 63 a DNS label may have/),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('runs the chain of a name linked with ?domain= and ?type=', async () => {
    const fetchMock = succeedWith(secureChain);
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ChainTab />, { route: '/tools/dnskey?tab=chain&domain=www.example.test&type=aaaa' });
    expect(await screen.findByRole('heading', { name: 'www.example.test A: secure' })).toBeInTheDocument();
    expect(screen.getByLabelText('Domain')).toHaveValue('www.example.test');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ domain: 'www.example.test', type: 'AAAA' });
  });

  it('shows why a linked name is not checked instead of sending it', async () => {
    const fetchMock = succeedWith(secureChain);
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ChainTab />, { route: `/tools/dnskey?tab=chain&domain=${'a'.repeat(64)}.test` });
    expect(
      await screen.findByText(/has 64 characters, over the 63 a DNS label may have/),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
