import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

const content =
  'Contact: mailto:security@example.com\nPolicy: http://example.com/policy\nExpires: 2026-12-31T23:59:59Z\n';

// The API's answer for `content`, in the shape validateSecurityTxt returns
const result = {
  valid: false,
  errors: ['Policy is a web URI over plain http: it must begin with https://'],
  warnings: [
    'A Contact is an email address, but there is no Encryption field for encrypted reports',
    'The file is not digitally signed',
  ],
  diagnostics: [
    {
      severity: 'error',
      code: 'no_https',
      message: 'Policy is a web URI over plain http: it must begin with https://',
      requirement: 'MUST',
      rfc: 'RFC 9116 §2.5.7',
      fix: "Write 'https://example.com/policy' and serve that page over https.",
      line: 2,
      span: { start: 45, end: 70 },
    },
    {
      severity: 'warning',
      code: 'no_encryption',
      message: 'A Contact is an email address, but there is no Encryption field for encrypted reports',
      requirement: 'SHOULD',
      rfc: 'RFC 9116 §2.5.3, §2.5.4',
    },
    {
      severity: 'warning',
      code: 'not_signed',
      message: 'The file is not digitally signed',
      requirement: 'SHOULD',
      rfc: 'RFC 9116 §2.3',
    },
  ],
  parsed: {
    signed: false,
    fields: [
      { name: 'Contact', value: 'mailto:security@example.com', line: 1, known: true },
      { name: 'Policy', value: 'http://example.com/policy', line: 2, known: true },
      { name: 'Expires', value: '2026-12-31T23:59:59Z', line: 3, known: true },
    ],
    expires: { value: '2026-12-31T23:59:59Z', line: 3, date: '2026-12-31T23:59:59.000Z' },
    preferredLanguages: null,
    signature: null,
  },
};

function respondWith(body: unknown, status = 200) {
  return vi
    .fn<typeof fetch>()
    .mockImplementation(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
}

describe('security.txt validator', { timeout: SLOW_UI_MS }, () => {
  let fetchMock: ReturnType<typeof respondWith>;

  beforeEach(() => {
    fetchMock = respondWith({ success: true, data: result });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts the content as typed and shows each finding with its line', async () => {
    renderWithProviders(<ValidatorTab />);
    fireEvent.change(screen.getByLabelText(/^security\.txt content/), { target: { value: content } });
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Invalid security.txt' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/security-txt/validate');
    expect(JSON.parse(String(init?.body))).toEqual({ content });

    const errors = screen.getByRole('region', { name: 'Errors' });
    const finding = errors.querySelector('[data-code="no_https"]') as HTMLElement;
    expect(finding).toHaveTextContent('Line 2');
    expect(finding).toHaveTextContent('MUST');
    expect(finding).toHaveTextContent('RFC 9116 §2.5.7');
    // the line the finding is about, quoted from the pasted text
    expect(within(finding).getByLabelText('Line 2')).toHaveTextContent('Policy: http://example.com/policy');
    expect(finding).toHaveTextContent(
      "Fix: Write 'https://example.com/policy' and serve that page over https.",
    );

    const recommendations = screen.getByRole('region', { name: 'Recommendations' });
    expect(recommendations.querySelectorAll('li')).toHaveLength(2);
    expect(recommendations).toHaveTextContent('Whole file');
    expect(screen.getByText('1 error, 2 recommendations, 0 notes')).toBeInTheDocument();
    const fields = screen.getByRole('table', { name: 'Fields as read, with their lines' });
    expect(within(fields).getByRole('row', { name: /Policy/ })).toHaveTextContent(
      '2Policyhttp://example.com/policy',
    );
  });

  it('sends the public key when one is given and reports the signature', async () => {
    const signed = {
      ...result,
      valid: true,
      errors: [],
      warnings: [],
      diagnostics: [
        {
          severity: 'info',
          code: 'signature_good',
          message: 'Good signature from key 8C3E410C8F05020AF2CB66A381B64166B7AC7D8C',
          rfc: 'RFC 9116 §2.3',
          line: 8,
        },
      ],
      parsed: {
        ...result.parsed,
        signed: true,
        signature: {
          hashes: ['SHA512'],
          signers: [{ keyId: '81B64166B7AC7D8C', fingerprint: null, hashAlgorithm: 'SHA512', created: null }],
          verification: {
            status: 'good',
            keyId: '81B64166B7AC7D8C',
            fingerprint: '8C3E410C8F05020AF2CB66A381B64166B7AC7D8C',
            created: null,
            userIds: [],
          },
        },
      },
    };
    vi.stubGlobal('fetch', (fetchMock = respondWith({ success: true, data: signed })));
    renderWithProviders(<ValidatorTab />);
    fireEvent.change(screen.getByLabelText(/^security\.txt content/), { target: { value: content } });
    fireEvent.change(screen.getByLabelText(/public key/), {
      target: { value: '-----BEGIN PGP PUBLIC KEY BLOCK-----' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Valid security.txt' })).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      content,
      publicKey: '-----BEGIN PGP PUBLIC KEY BLOCK-----',
    });
    expect(screen.getByTestId('security-txt-signature')).toHaveTextContent(
      'Good signature from 8C3E410C8F05020AF2CB66A381B64166B7AC7D8C.',
    );
  });

  it('refuses blank content before any call', async () => {
    renderWithProviders(<ValidatorTab />);
    fireEvent.change(screen.getByLabelText(/^security\.txt content/), { target: { value: ' \n ' } });
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('security.txt content is required')).toBeInTheDocument();
    expect(screen.getByLabelText(/^security\.txt content/)).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('validates on Ctrl+Enter and shows the busy label meanwhile', async () => {
    let release: (response: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>().mockImplementation(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    renderWithProviders(<ValidatorTab />);
    const textarea = screen.getByLabelText(/^security\.txt content/);
    fireEvent.change(textarea, { target: { value: content } });
    fireEvent.keyDown(textarea, { key: 'Enter', ctrlKey: true });
    expect(await screen.findByRole('button', { name: 'Validating...' })).toBeDisabled();
    release(new Response(JSON.stringify({ success: true, data: result }), { status: 200 }));
    expect(await screen.findByRole('heading', { name: 'Invalid security.txt' })).toBeInTheDocument();
  });

  it("shows the server's error, or 'Error: ' and the message without an answer", async () => {
    vi.stubGlobal(
      'fetch',
      respondWith({ success: false, error: 'security.txt content is too long', code: 'X' }, 400),
    );
    const { unmount } = renderWithProviders(<ValidatorTab />);
    fireEvent.change(screen.getByLabelText(/^security\.txt content/), { target: { value: content } });
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('security.txt content is too long');
    unmount();

    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));
    renderWithProviders(<ValidatorTab />);
    fireEvent.change(screen.getByLabelText(/^security\.txt content/), { target: { value: content } });
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Network error. Please try again.');
  });
});

describe('security.txt validator: fetch mode', { timeout: SLOW_UI_MS }, () => {
  const wellKnown = 'https://example.com/.well-known/security.txt';
  const fetchedContent = `Canonical: ${wellKnown}\nContact: https://example.com/report\nExpires: 2026-12-31T23:59:59Z\n`;
  const expired = {
    valid: false,
    errors: ['The https certificate is not valid: the certificate has expired (on 2026-01-31T00:00:00.000Z)'],
    warnings: ['The file is not digitally signed'],
    diagnostics: [
      {
        severity: 'error',
        code: 'invalid_cert',
        message:
          'The https certificate is not valid: the certificate has expired (on 2026-01-31T00:00:00.000Z)',
        requirement: 'MUST',
        rfc: 'RFC 9116 §3, RFC 9110 §4.3.4',
      },
      { severity: 'warning', code: 'not_signed', message: 'The file is not digitally signed' },
    ],
    parsed: { ...result.parsed, fields: [{ name: 'Canonical', value: wellKnown, line: 1, known: true }] },
    domain: 'example.com',
    source: {
      url: 'https://example.com/security.txt',
      finalUrl: wellKnown,
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      content: fetchedContent,
      redirects: [
        { url: 'https://example.com/security.txt', status: 301, location: '/.well-known/security.txt' },
      ],
      certificate: {
        host: 'example.com',
        verified: false,
        problem: 'expired',
        message: 'the certificate has expired (on 2026-01-31T00:00:00.000Z)',
        subject: 'CN=example.com',
        issuer: 'O=Lab\nCN=Lab Root CA',
        validFrom: '2025-01-01T00:00:00.000Z',
        validTo: '2026-01-31T00:00:00.000Z',
      },
    },
    attempts: [
      { url: wellKnown, status: 404, finalUrl: wellKnown, error: 'HTTP 404 Not Found' },
      { url: 'https://example.com/security.txt', status: 200, finalUrl: wellKnown, error: null },
    ],
  };

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  async function fetchMode() {
    renderWithProviders(<ValidatorTab />);
    await userEvent.click(screen.getByRole('radio', { name: 'Fetch from a site' }));
  }

  it('posts the domain and shows where the file came from, then the findings', async () => {
    const fetchMock = respondWith({ success: true, data: expired });
    vi.stubGlobal('fetch', fetchMock);
    await fetchMode();
    expect(screen.queryByLabelText(/^security\.txt content/)).not.toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: /^Site/ }), 'https://example.com/about');
    await userEvent.click(screen.getByRole('button', { name: 'Fetch and validate' }));

    expect(await screen.findByRole('heading', { name: 'Invalid security.txt' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/security-txt/fetch');
    expect(JSON.parse(String(init?.body))).toEqual({ domain: 'https://example.com/about' });

    const facts = screen.getByTestId('security-txt-source');
    expect(within(facts).getByRole('row', { name: /^URL/ })).toHaveTextContent(wellKnown);
    expect(within(facts).getByRole('row', { name: /^Redirects/ })).toHaveTextContent(
      'https://example.com/security.txt answered 301, to /.well-known/security.txt',
    );
    expect(within(facts).getByRole('row', { name: /^Status/ })).toHaveTextContent('200');
    expect(within(facts).getByRole('row', { name: /^Content-Type/ })).toHaveTextContent(
      'text/plain; charset=utf-8',
    );
    const certificate = within(facts).getByRole('row', { name: /^Certificate/ });
    expect(certificate).toHaveTextContent('Not valid');
    expect(certificate).toHaveTextContent('the certificate has expired');
    expect(certificate).toHaveTextContent(
      'example.com: issued by Lab Root CA, valid 2025-01-01 00:00 UTC to 2026-01-31 00:00 UTC',
    );
    // the file was not at the first location: the locations are listed
    const tried = screen.getByRole('region', { name: 'Locations tried' });
    expect(within(tried).getAllByRole('row')).toHaveLength(3);
    expect(tried).toHaveTextContent('HTTP 404 Not Found');

    const errors = screen.getByRole('region', { name: 'Errors' });
    expect(errors.querySelector('[data-code="invalid_cert"]')).toHaveTextContent(
      'the certificate has expired',
    );
    expect(screen.getByRole('table', { name: 'Fields as read, with their lines' })).toHaveTextContent(
      wellKnown,
    );
  });

  it('says when no location has the file', async () => {
    const notFound = {
      valid: false,
      errors: ['No security.txt was found (tried …)'],
      warnings: [],
      diagnostics: [
        { severity: 'error', code: 'no_security_txt', message: 'No security.txt was found (tried …)' },
      ],
      domain: 'example.com',
      source: null,
      attempts: [{ url: wellKnown, status: 404, finalUrl: wellKnown, error: 'HTTP 404 Not Found' }],
    };
    vi.stubGlobal('fetch', respondWith({ success: true, data: notFound }));
    await fetchMode();
    await userEvent.type(screen.getByRole('textbox', { name: /^Site/ }), 'example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Fetch and validate' }));
    expect(await screen.findByRole('heading', { name: 'No security.txt found' })).toBeInTheDocument();
    expect(screen.queryByTestId('security-txt-source')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Locations tried' })).toHaveTextContent(wellKnown);
  });

  it("refuses a blank domain before any call, and shows the server's error", async () => {
    const fetchMock = respondWith(
      {
        success: false,
        error: 'Refusing to connect to intranet.example.com (10.0.0.5): private address',
        code: 'OUTBOUND_BLOCKED',
      },
      422,
    );
    vi.stubGlobal('fetch', fetchMock);
    await fetchMode();
    await userEvent.click(screen.getByRole('button', { name: 'Fetch and validate' }));
    expect(await screen.findByText('Domain is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.type(screen.getByRole('textbox', { name: /^Site/ }), 'intranet.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Fetch and validate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Refusing to connect to intranet.example.com (10.0.0.5): private address',
    );
  });
});
