import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

const record = 'v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQ';

// An answer shaped as validateDkimRecord returns it for a 512-bit key.
const invalidResult = {
  valid: false,
  errors: ['The RSA key has 512 bits: verifiers must not accept signatures made with keys under 1024 bits'],
  warnings: [],
  diagnostics: [
    {
      severity: 'error',
      code: 'DKIM_RSA_TOO_SHORT',
      message:
        'The RSA key has 512 bits: verifiers must not accept signatures made with keys under 1024 bits',
      requirement: 'MUST NOT',
      rfc: 'RFC 8301 §3.2',
      fix: 'Generate a new key of 2048 bits or more and publish it under a new selector.',
      span: { start: 18, end: 60 },
    },
  ],
  parsed: {
    status: 'invalid',
    record,
    strings: 1,
    ownerName: null,
    version: 'DKIM1',
    keyType: 'rsa',
    hashAlgorithms: null,
    serviceTypes: ['*'],
    flags: [],
    notes: null,
    keySize: 512,
    keyEncoding: 'spki',
    publicKeyBytes: 94,
  },
  tags: { v: 'DKIM1', k: 'rsa', p: 'MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQ' },
};

function respondWith(body: unknown, status = 200) {
  return vi
    .fn<typeof fetch>()
    .mockImplementation(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
}

describe('DKIM validator (record mode)', { timeout: SLOW_UI_MS }, () => {
  let fetchMock: ReturnType<typeof respondWith>;

  beforeEach(() => {
    fetchMock = respondWith({ success: true, data: invalidResult });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('requires a record before calling the server', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('DKIM record is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the record and shows the verdict, tags and the RFC 8301 finding', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText(/^DKIM record/), record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Invalid DKIM key record' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/dkim/validate');
    expect(JSON.parse(String(init?.body))).toEqual({ record });
    expect(screen.getByRole('table', { name: 'Key record summary' })).toHaveTextContent('512 bits');
    const findings = screen.getByRole('list', { name: 'Findings' });
    const finding = within(findings)
      .getByText(/512 bits/)
      .closest('li');
    expect(finding).toHaveAttribute('data-code', 'DKIM_RSA_TOO_SHORT');
    expect(finding).toHaveTextContent('RFC 8301 §3.2');
    expect(finding?.querySelector('[data-requirement="MUST NOT"]')).not.toBeNull();
  });

  it("prefixes a server error with 'Validation failed: '", async () => {
    vi.stubGlobal(
      'fetch',
      respondWith({ success: false, error: 'DKIM record is too long', code: 'VALIDATION_ERROR' }, 400),
    );
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByLabelText(/^DKIM record/), record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Validation failed: DKIM record is too long')).toBeInTheDocument();
  });
});
