import {
  daneOperations,
  evaluateDaneEndpoint,
  parsePemChain,
  summariseDaneCheck,
  webCryptoProvider,
  type DaneEndpointInput,
} from '@rfckit/standards';
import { derivedTlsaCertificate } from '@rfckit/standards/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { LiveCheckTab } from './live-check-tab.tsx';

// the API's answers are what the server computes: the standards verdict over the derived certificate
// of ../shared/conformance (vectors.md §6) presented by mx.example.com
const crypto = webCryptoProvider()!;
const chain = parsePemChain(derivedTlsaCertificate.pem);
if (!chain.ok) throw new Error(chain.error);
const owner = '_25._tcp.mx.example.com';
const now = new Date('2027-01-01T00:00:00Z');

async function checked(rdata: string) {
  const input: DaneEndpointInput = {
    protocol: 'smtp',
    host: 'mx.example.com',
    port: 25,
    referenceNames: ['mx.example.com'],
    addresses: {
      name: 'mx.example.com',
      owner: 'mx.example.com',
      status: 'secure',
      records: ['mx.example.com. 300 IN A 192.0.2.25'],
      failure: null,
      answer: 'ok',
      denial: null,
    },
    tlsa: {
      name: owner,
      owner,
      status: 'secure',
      records: [`${owner}. 300 IN TLSA ${rdata}`],
      failure: null,
      answer: 'ok',
      denial: null,
      found: 'records',
      tried: [owner],
    },
    tls: {
      status: 'ok',
      starttls: 'smtp',
      certificates: [
        { der: chain.ok ? chain.result[0]!.der : new Uint8Array(), names: ['www.example.com'], issuer: null },
      ],
      pkixTrusted: false,
    },
    now,
  };
  return summariseDaneCheck({
    host: 'example.com',
    port: 25,
    protocol: 'smtp',
    mx: {
      lookup: {
        name: 'example.com',
        owner: 'example.com',
        status: 'secure',
        records: ['example.com. 300 IN MX 10 mx.example.com.'],
        failure: null,
        answer: 'ok',
        denial: null,
      },
      hosts: [{ preference: 10, host: 'mx.example.com' }],
      implicit: false,
    },
    endpoints: [await evaluateDaneEndpoint(input, crypto)],
    now,
  });
}

// what the server answers for a mail domain whose NXDOMAIN a signed zone proves with NSEC
const nonexistent = summariseDaneCheck({
  host: 'nope.example.com',
  port: 25,
  protocol: 'smtp',
  mx: {
    lookup: {
      name: 'nope.example.com',
      owner: 'nope.example.com',
      status: 'secure',
      records: [],
      failure: null,
      answer: 'nxdomain',
      denial: { method: 'NSEC', proven: true, message: 'NSEC proves nope.example.com does not exist' },
    },
    hosts: [],
    implicit: false,
  },
  endpoints: [],
  now,
});
const passing = await checked(`3 1 1 ${derivedTlsaCertificate.spkiSha256}`);
const failing = await checked(`3 1 1 ${'ab'.repeat(32)}`);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DANE live check', () => {
  it('sends the mail domain on port 25 and shows the verdict, the records, the chain and the links to the chain of trust', async () => {
    const fetchMock = succeedWith(passing);
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<LiveCheckTab />);
    fireEvent.change(screen.getByLabelText(/^Mail domain/), { target: { value: 'example.com' } });
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));

    expect(await screen.findByRole('heading', { name: 'DANE passes for example.com' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${daneOperations.check.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ host: 'example.com', protocol: 'smtp', port: 25 });
    expect(screen.getByLabelText('Verdict: pass')).toBeInTheDocument();
    const endpoint = screen.getByRole('region', { name: 'mx.example.com:25' });
    expect(within(endpoint).getByLabelText('mx.example.com:25 verdict: pass')).toBeInTheDocument();
    expect(within(endpoint).getByLabelText('Record: matches')).toBeInTheDocument();
    expect(within(endpoint).getByText('Matches the server certificate.')).toBeInTheDocument();
    expect(
      within(within(endpoint).getByRole('list', { name: 'Certificate chain' })).getByText(
        'Matches the record',
      ),
    ).toBeInTheDocument();
    expect(within(endpoint).getByRole('link', { name: `Chain of trust of ${owner} TLSA` })).toHaveAttribute(
      'href',
      `/tools/dnskey?tab=chain&domain=${encodeURIComponent(owner)}&type=TLSA`,
    );
    expect(
      within(endpoint).getByRole('region', { name: 'Rollover readiness of mx.example.com:25' }),
    ).toHaveTextContent('not ready (RFC 7671 §8.1)');
    // usages 0 and 1 are unusable between MTAs (RFC 7672 §3.1.3): public CA trust is not reported
    expect(endpoint).not.toHaveTextContent('Public CA trust');
    expect(endpoint).toHaveTextContent('Usages 0 and 1 are not used for SMTP (RFC 7672 §3.1.3).');
    // the disabled Check button dropped focus: it goes to the answer, not the page body
    expect(screen.getByRole('heading', { name: 'DANE passes for example.com' })).toHaveFocus();
  });

  it('explains a mismatch with its fix', async () => {
    vi.stubGlobal('fetch', succeedWith(failing));
    renderWithProviders(<LiveCheckTab />);
    fireEvent.change(screen.getByLabelText(/^Mail domain/), { target: { value: 'example.com' } });
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));

    expect(await screen.findByRole('heading', { name: 'DANE fails for example.com' })).toBeInTheDocument();
    const endpoint = screen.getByRole('region', { name: 'mx.example.com:25' });
    expect(within(endpoint).getByLabelText('Record: no match')).toBeInTheDocument();
    expect(endpoint).toHaveTextContent(/must not deliver/);
    expect(endpoint).toHaveTextContent(
      /Generate the record again from the certificate the server presents now/,
    );
  });

  it('says a domain does not exist, with its DNSSEC proof, instead of listing no MX hosts', async () => {
    vi.stubGlobal('fetch', succeedWith(nonexistent));
    renderWithProviders(<LiveCheckTab />);
    fireEvent.change(screen.getByLabelText(/^Mail domain/), { target: { value: 'nope.example.com' } });
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));

    expect(
      await screen.findByRole('heading', { name: 'DANE does not apply for nope.example.com' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'nope.example.com does not exist (NXDOMAIN): it has no mail host, and DANE does not apply.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'NXDOMAIN: nope.example.com does not exist (secure denial, proven by signed NSEC records).',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'MX hosts by preference' })).not.toBeInTheDocument();
  });

  it('moves the port with the protocol until one is typed, and names a bad host before sending', async () => {
    const fetchMock = succeedWith(passing);
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<LiveCheckTab />);
    await userEvent.selectOptions(screen.getByLabelText('Protocol'), 'https');
    expect(screen.getByLabelText('Port')).toHaveValue('443');
    expect(screen.getByLabelText(/^Server/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^Server/), {
      target: { value: `${'a'.repeat(64)}.example.com` },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText(/over the 63 a DNS label may have/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
