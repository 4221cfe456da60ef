import { dnskeyOperations, validateDnskey } from '@rfckit/standards';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { respondWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const record =
  'example.com. 3600 IN DNSKEY 257 3 13 JCivFx/K/20OwB/eYUFTyjt2WlK8gTLx+XCwn2wPFpomA1n1DxCTk9/Ok9su9IiupPZP2P2nnGHkiMjFzQxrKw==';

// The API's answers are what the server computes: validateDnskey from @rfckit/standards.
const validResult = await validateDnskey(record);
const invalidRecord = '256 3 5 AwEAAa';
const invalidResult = await validateDnskey(invalidRecord);

describe('DNSKEY validator', () => {
  let fetchMock: ReturnType<typeof respondWith>;

  beforeEach(() => {
    fetchMock = respondWith({ success: true, data: validResult });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts the record and shows the verdict, fields, key tag and DS records', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('DNSKEY record'), record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Valid DNSKEY record' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${dnskeyOperations.validate.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ record });

    expect(screen.getByRole('row', { name: /Key tag/ })).toHaveTextContent('20078');
    expect(screen.getByTestId('dnskey-key-tag')).toHaveTextContent('20078');
    expect(screen.getByRole('row', { name: /Key type/ })).toHaveTextContent(/KSK/);
    expect(screen.getByRole('row', { name: /Algorithm/ })).toHaveTextContent(/13 ECDSAP256SHA256/);
    expect(screen.getByRole('row', { name: /Key size/ })).toHaveTextContent('256 bits');

    const dsSection = screen.getByRole('region', { name: 'DS records' });
    expect(dsSection).toHaveTextContent(validResult.parsed?.ds[1]?.record ?? '');
    expect(within(dsSection).getByRole('button', { name: 'Copy SHA-256 DS record' })).toBeInTheDocument();

    const findings = screen.getByRole('region', { name: 'Findings' });
    expect(findings).toHaveTextContent('Give your registrar the SHA-256 DS (digest type 2).');
    expect(findings).toHaveTextContent('RFC 8624 §3.3');
  });

  it('shows errors of an invalid record with severity, level, citation and fix', async () => {
    vi.stubGlobal('fetch', respondWith({ success: true, data: invalidResult }));
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('DNSKEY record'), invalidRecord);
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Invalid DNSKEY record' })).toBeInTheDocument();
    const finding = screen
      .getByRole('region', { name: 'Findings' })
      .querySelector('[data-code="DNSKEY_KEY_BASE64"]');
    expect(finding).toHaveTextContent('Error');
    expect(finding).toHaveTextContent('MUST');
    expect(finding).toHaveTextContent('RFC 4034 §2.2');
    expect(finding).toHaveTextContent(/Fix: Copy the public key again in full/);
    expect(screen.queryByRole('region', { name: 'DS records' })).not.toBeInTheDocument();
  });

  it('rejects a blank record without calling the API', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('DNSKEY record'), '   ');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('DNSKEY record is required')).toBeInTheDocument();
    expect(screen.getByLabelText('DNSKEY record')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('validates on Ctrl+Enter and shows the busy label meanwhile', async () => {
    let release: (response: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>().mockImplementation(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    renderWithProviders(<ValidatorTab />);
    const textarea = screen.getByLabelText('DNSKEY record');
    fireEvent.change(textarea, { target: { value: record } });
    fireEvent.keyDown(textarea, { key: 'Enter', ctrlKey: true });

    const busy = await screen.findByRole('button', { name: 'Validating...' });
    expect(busy).toBeDisabled();
    release(new Response(JSON.stringify({ success: true, data: validResult }), { status: 200 }));
    expect(await screen.findByRole('heading', { name: 'Valid DNSKEY record' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Validate' })).toBeEnabled();
  });

  it("shows the server's error message in the Error panel", async () => {
    vi.stubGlobal(
      'fetch',
      respondWith({ success: false, error: 'Authentication required', code: 'UNAUTHENTICATED' }, 401),
    );
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('DNSKEY record'), record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('Authentication required');
  });
});
