import { arcOperations } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { respondWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { GeneratorTab } from './generator-tab.tsx';

const pem =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n';

// An answer shaped as POST /v1/arc/generate gives it for a message without ARC sets and no key given.
const sealed = {
  instance: 1,
  cv: 'none',
  algorithm: 'rsa-sha256',
  arcSeal: 'a=rsa-sha256;\r\n b=c2VhbA==;\r\n cv=none; d=example.org; i=1; s=arc; t=1732352400',
  arcMessageSignature:
    'a=rsa-sha256;\r\n b=c2lnbmF0dXJl;\r\n bh=Ym9keQ==; c=relaxed/relaxed; d=example.org; h=from:to:subject:date; i=1; s=arc; t=1732352400',
  arcAuthenticationResults: 'i=1; example.org; arc=none',
  headers:
    'ARC-Authentication-Results: i=1; example.org; arc=none\r\nARC-Message-Signature: …\r\nARC-Seal: …',
  sealedMessage:
    'ARC-Authentication-Results: i=1; example.org; arc=none\r\nFrom: a@example.com\r\n\r\nHi\r\n',
  chain: { existingSets: 0, reason: null },
  warnings: [],
  key: {
    generated: true,
    privateKeyPem: pem,
    dnsName: 'arc._domainkey.example.org',
    record: 'v=DKIM1; k=rsa; p=MIIBIjANBgkq',
    keyBits: 2048,
  },
};

describe('ARC generator', () => {
  let fetchMock: ReturnType<typeof respondWith>;
  let saved: { blob: Blob; name: string }[];

  beforeEach(() => {
    fetchMock = respondWith({ success: true, data: sealed });
    vi.stubGlobal('fetch', fetchMock);
    saved = [];
    let lastBlob: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      lastBlob = blob as Blob;
      return 'blob:test';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (lastBlob) saved.push({ blob: lastBlob, name: this.download });
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function fillDomainAndSelector(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByRole('textbox', { name: /^Domain/ }), 'example.org');
    await user.type(screen.getByRole('textbox', { name: /^Selector/ }), 'arc');
  }

  it('starts with the spec defaults; Seal message names what is missing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    expect(screen.getByRole('textbox', { name: /^Instance/ })).toHaveValue('1');
    expect(screen.getByRole('radio', { name: /rsa-sha256/ })).toBeChecked();
    expect(screen.getAllByLabelText(/^Canonicalization/)[0]).toHaveValue('relaxed/relaxed');
    expect(screen.getAllByLabelText(/^Chain validation status/)[0]).toHaveValue(
      'none: no ARC set on arrival (i=1)',
    );
    const headers = screen.getAllByLabelText(/^Signed header fields/)[0]!.closest('.mantine-TagsInput-root');
    for (const name of ['from', 'to', 'subject', 'date']) expect(headers).toHaveTextContent(name);
    expect(screen.getByRole('list', { name: 'Preview notes' })).toHaveTextContent(
      'Domain and selector are required',
    );
    await user.click(screen.getByRole('button', { name: 'Seal message' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Domain and selector are required');
  });

  it('updates the preview live from the settings', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await fillDomainAndSelector(user);
    const preview = screen.getByRole('region', { name: 'Live preview' });
    const seal = within(preview).getByLabelText('ARC-Seal preview');
    const signature = within(preview).getByLabelText('ARC-Message-Signature preview');
    expect(seal.textContent?.replace(/\s+/g, ' ')).toBe(
      'ARC-Seal: a=rsa-sha256; b=; cv=none; d=example.org; i=1; s=arc',
    );
    expect(signature.textContent?.replace(/\s+/g, ' ')).toBe(
      'ARC-Message-Signature: a=rsa-sha256; b=; bh=; c=relaxed/relaxed; d=example.org; h=from:to:subject:date; i=1; s=arc',
    );
    expect(within(preview).getByLabelText('ARC-Authentication-Results preview')).toHaveTextContent(
      'ARC-Authentication-Results: i=1; example.org; arc=none',
    );
    expect(within(preview).getByRole('list', { name: 'Preview notes' })).toHaveTextContent(
      /bh= .* and b= .* are computed when a message is sealed/,
    );

    // simple/simple is the default of c=, so the field leaves it out; l= appears with a body length
    await user.click(screen.getAllByLabelText(/^Canonicalization/)[0]!);
    await user.click(screen.getByRole('option', { name: 'simple/simple' }));
    await user.type(screen.getByRole('textbox', { name: /^Body length/ }), '120');
    await user.click(screen.getByRole('radio', { name: /ed25519-sha256/ }));
    expect(signature.textContent?.replace(/\s+/g, ' ')).toBe(
      'ARC-Message-Signature: a=ed25519-sha256; b=; bh=; d=example.org; h=from:to:subject:date; i=1; l=120; s=arc',
    );
    expect(seal).toHaveTextContent('a=ed25519-sha256');
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

  it('checks the signed header fields on blur with the body schema', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    const headers = screen.getAllByLabelText(/^Signed header fields/)[0]!;
    await user.type(headers, 'x-ünïcode{Enter}');
    await user.tab();
    expect(headers).toHaveAccessibleDescription(
      /A header name may only hold printable ASCII other than the colon/,
    );
    expect(headers).toHaveAttribute('aria-invalid', 'true');
    // the blank domain and selector are told only on submit, on the form
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Seal message' }));
    expect(headers).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks for a message before calling the server', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await fillDomainAndSelector(user);
    await user.click(screen.getByRole('button', { name: 'Seal message' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Message is required to seal');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it(
    'seals with a fresh key: shows the three fields and offers the key once',
    // key generation and signing on a busy machine take far longer than the UI around them
    { timeout: 60_000 },
    async () => {
      const user = userEvent.setup();
      renderWithProviders(<GeneratorTab />);
      await fillDomainAndSelector(user);
      await user.type(
        screen.getByRole('textbox', { name: /^Message/ }),
        'From: a@example.com{enter}{enter}Hi',
      );
      await user.click(screen.getByRole('button', { name: 'Seal message' }));

      const panel = await screen.findByRole('region', { name: 'Seal result' });
      expect(
        await within(panel).findByRole('heading', { name: 'Message sealed: ARC set i=1, cv=none' }),
      ).toBeInTheDocument();
      const [url, init] = fetchMock.mock.calls[0] ?? [];
      expect(url).toBe(`/v1${arcOperations.generate.path}`);
      const sent = JSON.parse(String(init?.body)) as Record<string, unknown>;
      // instance 1 and cv none are the defaults: left to the server, which takes them from the message
      expect(sent).toEqual({
        algorithm: 'rsa-sha256',
        domain: 'example.org',
        selector: 'arc',
        headers: ['from', 'to', 'subject', 'date'],
        canonicalization: 'relaxed/relaxed',
        message: 'From: a@example.com\n\nHi',
      });
      expect(within(panel).getByLabelText('ARC-Seal')).toHaveTextContent('cv=none; d=example.org');
      // a folded b= line wraps inside the value, not after its leading space (no blank-looking line)
      expect(within(panel).getByLabelText('ARC-Seal')).toHaveStyle({ wordBreak: 'break-all' });
      expect(within(panel).getByLabelText('ARC-Message-Signature')).toHaveTextContent('bh=Ym9keQ==');
      expect(within(panel).getByLabelText('ARC-Authentication-Results')).toHaveTextContent(
        'i=1; example.org; arc=none',
      );
      for (const name of [
        'ARC-Seal',
        'ARC-Message-Signature',
        'ARC-Authentication-Results',
        'sealed message',
      ]) {
        expect(within(panel).getByRole('button', { name: `Copy ${name}` })).toBeInTheDocument();
      }
      expect(within(panel).getByLabelText('DKIM key record')).toHaveTextContent(
        'v=DKIM1; k=rsa; p=MIIBIjANBgkq',
      );
      expect(within(panel).getByLabelText('DNS name (TXT)')).toHaveTextContent('arc._domainkey.example.org');

      await user.click(within(panel).getByRole('button', { name: 'Download private key (PEM)' }));
      expect(saved).toHaveLength(1);
      expect(saved[0]!.name).toBe('arc.example.org.key.pem');
      expect(await saved[0]!.blob.text()).toBe(pem);
      expect(within(panel).queryByRole('button', { name: 'Download private key (PEM)' })).toBeNull();
      expect(within(panel).getByRole('status')).toHaveTextContent('Private key downloaded');
    },
  );

  it('sends a pasted private key and shows the warnings', async () => {
    fetchMock = respondWith({
      success: true,
      data: {
        ...sealed,
        warnings: ['The message had no ARC set: cv=none was used, not pass'],
        key: { ...sealed.key, generated: false, privateKeyPem: null },
      },
    });
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await fillDomainAndSelector(user);
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'From: a@example.com{enter}{enter}Hi');
    await user.click(screen.getByRole('textbox', { name: /^Private key/ }));
    await user.paste(pem);
    // Ctrl+Enter in a text area submits, as in the other tools
    await user.keyboard('{Control>}{Enter}{/Control}');

    const panel = await screen.findByRole('region', { name: 'Seal result' });
    expect(await within(panel).findByRole('list', { name: 'Sealing warnings' })).toHaveTextContent(
      'cv=none was used, not pass',
    );
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toMatchObject({ privateKey: pem });
    expect(within(panel).queryByRole('button', { name: 'Download private key (PEM)' })).toBeNull();
  });

  it('says in a sentence why the existing chain failed', async () => {
    vi.stubGlobal(
      'fetch',
      respondWith({
        success: true,
        data: {
          ...sealed,
          instance: 2,
          cv: 'fail',
          chain: {
            existingSets: 1,
            reason: 'the newest ARC-Message-Signature (i=1) did not validate: body hash did not verify',
          },
        },
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await fillDomainAndSelector(user);
    await user.click(screen.getByRole('textbox', { name: /^Message/ }));
    await user.paste('From: a@example.com\n\nHi');
    await user.click(screen.getByRole('button', { name: 'Seal message' }));
    const panel = await screen.findByRole('region', { name: 'Seal result' });
    expect(
      await within(panel).findByText(
        'The message had 1 ARC set; validating it gave cv=fail. The chain did not validate: the newest ARC-Message-Signature (i=1) did not validate: body hash did not verify.',
      ),
    ).toBeInTheDocument();
  });

  it("shows a refused seal with the server's reason", async () => {
    vi.stubGlobal(
      'fetch',
      respondWith(
        { success: false, error: 'The private key is not a PEM key', code: 'VALIDATION_ERROR' },
        400,
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<GeneratorTab />);
    await fillDomainAndSelector(user);
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'From: a@example.com');
    await user.click(screen.getByRole('button', { name: 'Seal message' }));
    expect(await screen.findByText('Sealing failed: The private key is not a PEM key')).toBeInTheDocument();
  });
});
