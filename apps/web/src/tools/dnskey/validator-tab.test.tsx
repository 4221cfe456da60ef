import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

const record =
  'example.com. 3600 IN DNSKEY 257 3 13 JCivFx/K/20OwB/eYUFTyjt2WlK8gTLx+XCwn2wPFpomA1n1DxCTk9/Ok9su9IiupPZP2P2nnGHkiMjFzQxrKw==';

// The API's answer for `record`, as produced by validateDnskey in @rfckit/standards.
const validResult = {
  valid: true,
  errors: [],
  warnings: [],
  diagnostics: [
    {
      severity: 'info',
      code: 'DNSKEY_FLAGS',
      message:
        'Flags 257: Zone Key (bit 7, 256) + Secure Entry Point (bit 15, 1), a key-signing key (KSK). The SEP bit only tells tools that the DS should point at this key; validators ignore it',
      rfc: 'RFC 4034 §2.1.1',
      span: { start: 28, end: 31 },
    },
    {
      severity: 'info',
      code: 'DNSKEY_ALGORITHM_STATUS',
      message:
        'Algorithm 13 (ECDSAP256SHA256), ECDSA Curve P-256 with SHA-256: MUST for signing zones and MUST for validators',
      requirement: 'MUST',
      rfc: 'RFC 8624 §3.1',
      span: { start: 34, end: 36 },
    },
    {
      severity: 'info',
      code: 'DNSKEY_DS_SHA1',
      message:
        'The SHA-1 DS (digest type 1) is shown for reference only: it MUST NOT be used for delegations',
      requirement: 'MUST NOT',
      rfc: 'RFC 8624 §3.3',
      fix: 'Give your registrar the SHA-256 DS (digest type 2).',
    },
  ],
  parsed: {
    ownerName: 'example.com.',
    ttl: 3600,
    keyType: 'KSK',
    flags: 257,
    flagBits: { zoneKey: true, secureEntryPoint: true, revoked: false },
    protocol: 3,
    algorithm: 13,
    algorithmName: 'ECDSAP256SHA256',
    algorithmStatus: { signing: 'MUST', validation: 'MUST', rfc: 'RFC 8624 §3.1' },
    keyTag: 20078,
    keySize: 256,
    publicKeyBytes: 64,
    ds: [
      {
        digestType: 1,
        digestName: 'SHA-1',
        digest: '315032882323894121FE948405920703326E0F79',
        requirement: 'MUST NOT',
        rfc: 'RFC 8624 §3.3',
        record: 'example.com. 3600 IN DS 20078 13 1 315032882323894121FE948405920703326E0F79',
      },
      {
        digestType: 2,
        digestName: 'SHA-256',
        digest: 'E53DFA46C5CE911A8FFA9B574333CFD0B063FC3222B725E342642EFBB2B82BA6',
        requirement: 'MUST',
        rfc: 'RFC 8624 §3.3',
        record:
          'example.com. 3600 IN DS 20078 13 2 E53DFA46C5CE911A8FFA9B574333CFD0B063FC3222B725E342642EFBB2B82BA6',
      },
      {
        digestType: 4,
        digestName: 'SHA-384',
        digest:
          '0B5FFCCDED309219D23127CCD0099F543A9B1114760A254F540F26C386CE51B4ECF2EE666F65D7E0C15044DEC65F0421',
        requirement: 'MAY',
        rfc: 'RFC 8624 §3.3',
        record:
          'example.com. 3600 IN DS 20078 13 4 0B5FFCCDED309219D23127CCD0099F543A9B1114760A254F540F26C386CE51B4ECF2EE666F65D7E0C15044DEC65F0421',
      },
    ],
  },
};

const invalidResult = {
  valid: false,
  errors: [
    "The public key is not valid base64: base64 length must be a multiple of 4 characters, with '=' padding; found 6",
  ],
  warnings: [],
  diagnostics: [
    {
      severity: 'error',
      code: 'DNSKEY_KEY_BASE64',
      message:
        "The public key is not valid base64: base64 length must be a multiple of 4 characters, with '=' padding; found 6",
      requirement: 'MUST',
      rfc: 'RFC 4034 §2.2',
      fix: 'Copy the public key again in full; only A-Z, a-z, 0-9, +, / and trailing = padding belong in it.',
      span: { start: 8, end: 14 },
    },
  ],
};

function respondWith(body: unknown, status = 200) {
  return vi
    .fn<typeof fetch>()
    .mockImplementation(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
}

describe('DNSKEY validator', { timeout: SLOW_UI_MS }, () => {
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
    expect(url).toBe('/v1/dnskey/validate');
    expect(JSON.parse(String(init?.body))).toEqual({ record });

    expect(screen.getByRole('row', { name: /Key tag/ })).toHaveTextContent('20078');
    expect(screen.getByTestId('dnskey-key-tag')).toHaveTextContent('20078');
    expect(screen.getByRole('row', { name: /Key type/ })).toHaveTextContent(/KSK/);
    expect(screen.getByRole('row', { name: /Algorithm/ })).toHaveTextContent(/13 ECDSAP256SHA256/);
    expect(screen.getByRole('row', { name: /Key size/ })).toHaveTextContent('256 bits');

    const dsSection = screen.getByRole('region', { name: 'DS records' });
    expect(dsSection).toHaveTextContent(validResult.parsed.ds[1]?.record ?? '');
    expect(within(dsSection).getByRole('button', { name: 'Copy SHA-256 DS record' })).toBeInTheDocument();

    const findings = screen.getByRole('region', { name: 'Findings' });
    expect(findings).toHaveTextContent('Give your registrar the SHA-256 DS (digest type 2).');
    expect(findings).toHaveTextContent('RFC 8624 §3.3');
  });

  it('shows errors of an invalid record with severity, level, citation and fix', async () => {
    vi.stubGlobal('fetch', respondWith({ success: true, data: invalidResult }));
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText('DNSKEY record'), '256 3 5 AwEAAa');
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
