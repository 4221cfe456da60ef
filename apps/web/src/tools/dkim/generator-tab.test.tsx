import { dkimOperations } from '@rfckit/standards';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { respondWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { GeneratorTab } from './generator-tab.tsx';

/** The API's answer for an Ed25519 key, shaped as generateDkimRecord returns it. */
function answerFor(publicKey: string) {
  const record = `v=DKIM1; k=ed25519; h=sha256; s=email; p=${publicKey}`;
  return {
    success: true,
    data: {
      record,
      dnsName: 'default._domainkey.example.com',
      txtStrings: [record],
      zoneFileLine: `default._domainkey.example.com. IN TXT "${record}"`,
      signer: { a: 'ed25519-sha256', c: 'relaxed/relaxed', d: 'example.com', s: 'default' },
      warnings: [],
      diagnostics: [],
    },
  };
}

describe('DKIM generator', () => {
  let fetchMock: ReturnType<typeof respondWith>;
  let saved: Blob[];

  beforeEach(() => {
    fetchMock = respondWith({ success: true, data: {} });
    vi.stubGlobal('fetch', fetchMock);
    saved = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:test';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('starts with the spec defaults', () => {
    renderWithProviders(<GeneratorTab />);
    expect(screen.getByLabelText(/^Selector/)).toHaveValue('default');
    expect(screen.getByRole('radio', { name: /rsa-sha256/ })).toBeChecked();
    expect(screen.getAllByLabelText(/^Canonicalization/)[0]).toHaveValue('relaxed/relaxed');
    expect(screen.getAllByLabelText(/^Service type/)[0]).toHaveValue('email');
  });

  it('says which fields are required without calling the server', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await user.click(screen.getByRole('button', { name: 'Generate record' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Domain, selector, and public key are required',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('marks rsa-sha1 MUST NOT and warns when it is chosen', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    const sha1 = screen.getByRole('radio', { name: /rsa-sha1/ });
    expect(
      sha1.closest('.mantine-Radio-root')?.querySelector('[data-requirement="MUST NOT"]'),
    ).not.toBeNull();
    await user.click(sha1);
    expect(screen.getByText('rsa-sha1 MUST NOT be used')).toBeInTheDocument();
  });

  it(
    'generates an Ed25519 key pair here, offers the private key once and never sends it',
    // key generation and signing on a busy machine take far longer than the UI around them
    { timeout: 60_000 },
    async () => {
      const user = userEvent.setup();
      renderWithProviders(<GeneratorTab />);
      await user.type(screen.getByLabelText(/^Domain/), 'example.com');
      await user.click(screen.getByRole('radio', { name: /ed25519-sha256/ }));
      await user.click(screen.getByRole('button', { name: 'Generate key pair' }));

      const publicKeyField = screen.getByLabelText(/^Public key/);
      // key generation (WebCrypto) may take longer than waitFor's 1 s default on a busy machine
      await waitFor(() => expect(publicKeyField).not.toHaveValue(''));
      const publicKey = (publicKeyField as HTMLTextAreaElement).value;
      expect(atob(publicKey)).toHaveLength(32);
      // the live preview is computed in the browser
      expect(screen.getByTestId('dkim-preview')).toHaveTextContent(
        `k=ed25519; h=sha256; s=email; p=${publicKey}`,
      );

      await user.click(screen.getByRole('button', { name: 'Download private key (PEM)' }));
      expect(saved).toHaveLength(1);
      const pem = await saved[0]!.text();
      expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PRIVATE KEY-----\n$/);
      expect(screen.queryByRole('button', { name: 'Download private key (PEM)' })).toBeNull();
      expect(screen.getByRole('status')).toHaveTextContent('Private key downloaded');

      fetchMock.mockImplementation(
        async () =>
          new Response(JSON.stringify(answerFor(publicKey)), {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          }),
      );
      await user.click(screen.getByRole('button', { name: 'Generate record' }));
      const panel = await screen.findByRole('region', { name: 'Generated record' });
      expect(await within(panel).findByText('DKIM record generated')).toBeInTheDocument();
      expect(within(panel).getByRole('button', { name: 'Copy record' })).toBeInTheDocument();
      expect(within(panel).getByRole('table', { name: 'Signer settings' })).toHaveTextContent(
        'relaxed/relaxed',
      );

      const [url, init] = fetchMock.mock.calls[0] ?? [];
      expect(url).toBe(`/v1${dkimOperations.generate.path}`);
      const sent = String(init?.body);
      expect(JSON.parse(sent)).toMatchObject({ domain: 'example.com', selector: 'default', publicKey });
      const privateBody = pem.split('\n').slice(1, -2).join('');
      expect(sent).not.toContain(privateBody);
      expect(sent).not.toContain('PRIVATE KEY');
    },
  );

  it('keeps a private key pasted as the public key in the browser: told on blur and on submit', async () => {
    const fetchSpy = respondWith({ success: true, data: {} });
    vi.stubGlobal('fetch', fetchSpy);
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await user.type(screen.getByLabelText(/^Domain/), 'example.com');
    const publicKey = screen.getByLabelText(/^Public key/);
    await user.click(publicKey);
    await user.paste('-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n');
    await user.tab();
    expect(publicKey).toHaveAccessibleDescription(/This is a private key: keep it secret/);
    expect(publicKey).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Generate record' }));
    expect(publicKey).toHaveAccessibleDescription(/This is a private key: keep it secret/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('checks a filled field on blur with the body schema, and leaves a blank one for submit', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    const domain = screen.getByLabelText(/^Domain/);
    const publicKey = screen.getByLabelText(/^Public key/);
    await user.click(publicKey);
    await user.tab();
    expect(publicKey).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(domain);
    await user.paste(`${'a'.repeat(250)}.com`);
    await user.tab();
    expect(domain).toHaveAccessibleDescription(/Domain is too long: at most 253 characters/);
    expect(domain).toHaveAttribute('aria-invalid', 'true');
    // a change takes the finding away until the next blur
    await user.type(domain, '{Backspace}');
    expect(domain).not.toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a refused generation with the spec prefix', async () => {
    fetchMock = respondWith(
      { success: false, error: 'The RSA key has 512 bits', code: 'VALIDATION_ERROR' },
      400,
    );
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await user.type(screen.getByLabelText(/^Domain/), 'example.com');
    await user.type(screen.getByLabelText(/^Public key/), 'AAAA');
    await user.click(screen.getByRole('button', { name: 'Generate record' }));
    expect(
      await screen.findByText('Failed to generate DKIM record: The RSA key has 512 bits'),
    ).toBeInTheDocument();
  });
});
