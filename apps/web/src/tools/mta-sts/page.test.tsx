import { mtaStsCheckResultSchema } from '@rfckit/standards';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLocation, useNavigate } from 'react-router';

import { json, succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import MtaStsPage from './page.tsx';

// a domain without MTA-STS: the smallest answer the result schema takes
const noMtaSts = (domain: string) =>
  mtaStsCheckResultSchema.parse({
    domain,
    verdict: 'none',
    summary: `${domain} publishes no MTA-STS record.`,
    record: { name: `_mta-sts.${domain}`, found: false, raw: null, id: null, diagnostics: [] },
    policy: {
      url: `https://mta-sts.${domain}/.well-known/mta-sts.txt`,
      fetched: false,
      status: null,
      contentType: null,
      bytes: 0,
      raw: null,
      mode: null,
      maxAge: null,
      mx: [],
      diagnostics: [],
    },
    mx: { nullMx: false, dnsError: null, hosts: [] },
    failingHosts: [],
    diagnostics: [],
  });

/** The address the page is at, and the browser's Back button. */
function AddressBar() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="Address">{location.search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
    </>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('MTA-STS page and the address', () => {
  it('keeps each tab and each live check in the history, so Back returns to the one before', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockImplementation(async (_url, init) => {
      const { domain } = JSON.parse(String(init?.body)) as { domain: string };
      return json({ success: true, data: noMtaSts(domain) });
    });
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <MtaStsPage />
        <AddressBar />
      </>,
      { route: '/tools/mta-sts' },
    );
    const address = screen.getByRole('status', { name: 'Address' });

    await user.click(screen.getByRole('tab', { name: 'Generator' }));
    await user.click(screen.getByRole('tab', { name: 'Live check' }));
    expect(address).toHaveTextContent('?tab=check');

    const domainField = screen.getByLabelText(/^Mail domain/);
    await user.type(domainField, 'first.example');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByRole('heading', { name: /first\.example/, level: 3 })).toBeInTheDocument();
    expect(address).toHaveTextContent('?tab=check&domain=first.example');

    await user.clear(domainField);
    await user.type(domainField, ' second.example ');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByRole('heading', { name: /second\.example/, level: 3 })).toBeInTheDocument();
    expect(address).toHaveTextContent('?tab=check&domain=second.example');

    // Back: the first domain's check again, in the field and in the result
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: /first\.example/, level: 3 })).toBeInTheDocument();
    expect(domainField).toHaveValue('first.example');
    expect(fetchMock).toHaveBeenCalledTimes(3);

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(address).toHaveTextContent('?tab=generator');
    expect(screen.getByRole('tab', { name: 'Generator' })).toHaveAttribute('aria-selected', 'true');
  });

  it('writes nothing into the address for a domain the form refuses', async () => {
    const fetchMock = succeedWith(noMtaSts('example.com'));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <MtaStsPage />
        <AddressBar />
      </>,
      { route: '/tools/mta-sts?tab=check' },
    );
    await user.type(screen.getByLabelText(/^Mail domain/), 'bad domain!');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByRole('status', { name: 'Address' })).toHaveTextContent(/^\?tab=check$/);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
