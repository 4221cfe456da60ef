import { suiteSummary, validateCipherSuite } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { failWith, succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { SuiteSummaryCard } from './summary-card.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// The API's answers are what the server computes: validateCipherSuite from @rfckit/standards.
describe('TLS cipher validator', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends the suite and shows its details with the level badge', async () => {
    const fetchMock = succeedWith(validateCipherSuite('c02f'));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('Cipher suite'), 'c02f');
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(
      await screen.findByRole('heading', { name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256' }),
    ).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/tls-cipher/validate');
    expect(JSON.parse(String(init?.body))).toEqual({ cipherSuite: 'c02f' });
    expect(screen.getByRole('row', { name: 'Code point' })).toHaveTextContent('0xC0,0x2F');
    expect(screen.getByRole('row', { name: 'OpenSSL name' })).toHaveTextContent(
      'ECDHE-RSA-AES128-GCM-SHA256',
    );
    expect(screen.getByRole('row', { name: 'Forward secrecy' })).toHaveTextContent('Yes');
    expect(screen.getByRole('row', { name: 'TLS versions' })).toHaveTextContent('TLS 1.2');
    expect(screen.getByLabelText(/^Security level HIGH/)).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Recommendations' })).getByText(/IANA TLS registry/),
    ).toBeVisible();
  });

  it('shows an unknown suite as UNKNOWN', async () => {
    vi.stubGlobal('fetch', succeedWith(validateCipherSuite('TLS_MADE_UP')));
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('Cipher suite'), 'TLS_MADE_UP');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('heading', { name: 'UNKNOWN: TLS_MADE_UP' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Security level UNKNOWN/)).toBeInTheDocument();
  });

  it('explains a signalling value instead of rating it', async () => {
    vi.stubGlobal('fetch', succeedWith(validateCipherSuite('TLS_FALLBACK_SCSV')));
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('Cipher suite'), 'TLS_FALLBACK_SCSV');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('heading', { name: 'TLS_FALLBACK_SCSV' })).toBeInTheDocument();
    expect(screen.getByText(/A signalling value, not a cipher suite/)).toBeVisible();
    expect(screen.getByLabelText(/^Security level N\/A: a signalling value/)).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Code point' })).toHaveTextContent('0x56,0x00');
  });

  it('rates an SSL 2.0 cipher kind INSECURE', async () => {
    vi.stubGlobal('fetch', succeedWith(validateCipherSuite('SSL_CK_RC4_128_WITH_MD5')));
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('Cipher suite'), 'SSL_CK_RC4_128_WITH_MD5');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('heading', { name: 'SSL_CK_RC4_128_WITH_MD5' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Security level INSECURE/)).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'TLS versions' })).toHaveTextContent('SSL 2.0');
    expect(screen.getByRole('row', { name: 'Code point' })).toHaveTextContent('0x01,0x00,0x80');
  });

  it('asks for a suite before sending anything', async () => {
    const fetchMock = succeedWith(validateCipherSuite('c02f'));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Please enter a cipher suite to validate')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says why a call failed with the spec’s text', async () => {
    vi.stubGlobal('fetch', failWith('Cipher suite is too long', 'VALIDATION_ERROR', 400));
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('Cipher suite'), 'c02f');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(
      await screen.findByText('Failed to validate cipher: Cipher suite is too long'),
    ).toBeInTheDocument();
  });
});

describe('suite database summary', () => {
  it('shows the counts of the database', () => {
    renderWithProviders(<SuiteSummaryCard />);
    const counts = suiteSummary();
    // conformance/tls/README.md: 350 IANA-assigned suites
    expect(counts.total).toBe(350);
    const card = screen.getByRole('region', { name: 'Cipher suite database' });
    expect(within(card).getByTestId('suite-count-Cipher suites')).toHaveTextContent('350');
    expect(within(card).getByTestId('suite-count-High security')).toHaveTextContent(String(counts.high));
    expect(within(card).getByTestId('suite-count-Forward secrecy')).toHaveTextContent(String(counts.pfs));
    expect(within(card).getByTestId('suite-count-Recommended')).toHaveTextContent(String(counts.recommended));
  });
});
