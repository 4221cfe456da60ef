import { daneOperations, generateTlsa, validateTlsaWithChain, webCryptoProvider } from '@rfckit/standards';
import { derivedTlsaCertificate } from '@rfckit/standards/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { respondWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// ../shared/conformance/dnssec-dane/derived-tlsa-cert.pem; its 3 1 1 digest is published in vectors.md §6
const { pem, spkiSha256: digest } = derivedTlsaCertificate;
const crypto = webCryptoProvider()!;

// the API's answers are what the server computes with the same standards code
const generated = await generateTlsa({ chain: pem, host: 'www.example.com' }, crypto);
if (!generated.ok) throw new Error(generated.error);
const matched = await validateTlsaWithChain({ record: `3 1 1 ${digest}`, chain: pem }, crypto);
const unmatched = await validateTlsaWithChain({ record: `3 1 1 ${'ab'.repeat(32)}`, chain: pem }, crypto);
const unassigned = await validateTlsaWithChain({ record: `4 2 3 ${digest}` }, crypto);
const pkixOnSmtp = await generateTlsa({ chain: pem, host: 'mx.example.com', usage: 1 }, crypto);
if (!pkixOnSmtp.ok) throw new Error(pkixOnSmtp.error);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DANE generator', () => {
  it('sends the chain with the defaults 3 1 1 on port 25 and shows the zone file and every record', async () => {
    const fetchMock = respondWith({ success: true, data: generated.result });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<GeneratorTab />);
    fireEvent.change(screen.getByLabelText('Certificate chain'), { target: { value: pem } });
    fireEvent.change(screen.getByLabelText(/^Host/), { target: { value: 'www.example.com' } });
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));

    expect(
      await screen.findByRole('heading', { name: 'TLSA records for _25._tcp.www.example.com.' }),
    ).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${daneOperations.generate.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({
      chain: pem,
      host: 'www.example.com',
      port: 25,
      protocol: 'tcp',
      usage: 3,
      selector: 1,
      matchingType: 1,
    });
    expect(screen.getByTestId('tlsa-zone-file')).toHaveTextContent(
      `_25._tcp.www.example.com. IN TLSA 3 1 1 ${digest}`,
    );
    const recommended = screen.getByTestId('tlsa-3-1-1');
    expect(recommended).toHaveTextContent('Recommended');
    expect(within(recommended).getByRole('button', { name: 'Copy the 3 1 1 record' })).toBeInTheDocument();
    expect(screen.getAllByTestId(/^tlsa-\d-\d-\d$/)).toHaveLength(12);
    expect(screen.getByRole('region', { name: 'Rollover' })).toHaveTextContent('RFC 7671 §8.1');
    expect(screen.queryByText(/protects no mail/)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'TLSA records for _25._tcp.www.example.com.' })).toHaveFocus();
  });

  it('on port 25 marks usages 0 and 1 unusable for SMTP and warns when one is chosen', async () => {
    vi.stubGlobal('fetch', respondWith({ success: true, data: pkixOnSmtp.result }));
    renderWithProviders(<GeneratorTab />);
    fireEvent.change(screen.getByLabelText('Certificate chain'), { target: { value: pem } });
    fireEvent.change(screen.getByLabelText(/^Host/), { target: { value: 'mx.example.com' } });
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));

    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('This record protects no mail');
    expect(warning).toHaveTextContent(/RFC 7672 §3\.1\.3.*Publish 3 1 1 .*with 2 1 1/);
    expect(screen.getByTestId('tlsa-1-1-1')).toHaveTextContent('Unusable for SMTP (RFC 7672 §3.1.3)');
    expect(screen.getByTestId('tlsa-3-1-1')).not.toHaveTextContent('Unusable for SMTP');
  });

  it('names a missing chain before sending anything', async () => {
    const fetchMock = respondWith({ success: true, data: generated.result });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<GeneratorTab />);
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('Certificate chain is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('DANE validator', () => {
  it('posts the record and chain and shows which certificate matched', async () => {
    const fetchMock = respondWith({ success: true, data: matched });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ValidatorTab />);
    fireEvent.change(screen.getByLabelText('TLSA record'), { target: { value: `3 1 1 ${digest}` } });
    fireEvent.change(screen.getByLabelText('Certificate chain (optional)'), { target: { value: pem } });
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));

    expect(
      await screen.findByRole('heading', { name: 'Valid TLSA record that matches the chain' }),
    ).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      record: `3 1 1 ${digest}`,
      chain: pem,
    });
    const chain = screen.getByRole('list', { name: 'Certificate chain' });
    expect(within(chain).getByText('Matches the record')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Notes' })).toHaveTextContent(
      'The record matches the server certificate',
    );
  });

  it('heads a well-formed record that matches no certificate as valid, with the failed match as an error', async () => {
    vi.stubGlobal('fetch', respondWith({ success: true, data: unmatched }));
    renderWithProviders(<ValidatorTab />);
    fireEvent.change(screen.getByLabelText('TLSA record'), { target: { value: `3 1 1 ${'ab'.repeat(32)}` } });
    fireEvent.change(screen.getByLabelText('Certificate chain (optional)'), { target: { value: pem } });
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));

    const heading = await screen.findByRole('heading', {
      name: 'Valid TLSA record that matches no certificate of the pasted chain',
    });
    expect(heading).toHaveFocus();
    expect(screen.getByRole('region', { name: 'Errors' })).toHaveTextContent(
      'No certificate of the pasted chain (1) matches',
    );
  });

  it('says which field each unassigned value is', async () => {
    vi.stubGlobal('fetch', respondWith({ success: true, data: unassigned }));
    renderWithProviders(<ValidatorTab />);
    fireEvent.change(screen.getByLabelText('TLSA record'), { target: { value: `4 2 3 ${digest}` } });
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Invalid TLSA record' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Fields' })).toHaveTextContent(
      'usage 4 (unassigned), selector 2 (unassigned), matching type 3 (unassigned)',
    );
  });
});
