import {
  type CertificateScan,
  tlsAnalysis,
  type TlsScanProgress,
  type TlsScanReport,
} from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { failWith, streamingFetch } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { nextProgressPercent, progressValueText, TesterTab } from './tester-tab.tsx';

/** The old server's trusted RSA 2048 certificate. */
const rsaCertificate: CertificateScan = {
  chain: [
    {
      subject: 'CN=old.example.com',
      issuer: 'CN=Example CA',
      subjectAltNames: ['DNS:old.example.com'],
      validFrom: '2026-01-01T00:00:00.000Z',
      validTo: '2027-01-01T00:00:00.000Z',
      serialNumber: '0A',
      fingerprint256: '01:02',
      selfSigned: false,
      keyType: 'rsa',
      keyBits: 2048,
      signatureAlgorithm: 'sha256WithRSAEncryption',
      sctCount: 2,
      pem: '',
    },
  ],
  trusted: true,
  nameMatches: true,
  expired: false,
  notYetValid: false,
  source: 'handshake',
};

// An old server as the scanner reports it: TLS 1.0 and 1.2 with CBC suites and 3DES, a trusted
// RSA 2048 certificate, no fallback SCSV. The answer is what the server computes: tlsAnalysis.
const oldServer: TlsScanReport = {
  host: 'old.example.com',
  port: 443,
  address: '192.0.2.10',
  versions: [
    {
      version: 'TLSv1.0',
      supported: true,
      suites: [
        { code: 0x000a, hex: '0x00,0x0A', name: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA', openssl: 'DES-CBC3-SHA' },
      ],
    },
    {
      version: 'TLSv1.2',
      supported: true,
      suites: [
        {
          code: 0xc02f,
          hex: '0xC0,0x2F',
          name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
          openssl: 'ECDHE-RSA-AES128-GCM-SHA256',
          keyExchange: { group: 'secp256r1' },
        },
      ],
    },
    { version: 'TLSv1.3', supported: false, suites: [], refusal: 'protocol_version alert' },
  ],
  groups: { tls12: ['secp256r1'], tls13: [], dhPrimeBits: [] },
  features: {
    alpn: null,
    ocspStapling: 'no',
    secureRenegotiation: 'yes',
    fallbackScsv: 'no',
    compression: 'no',
    sessionTickets: 'no',
    heartbeat: 'no',
    extendedMasterSecret: 'no',
  },
  certificate: rsaCertificate,
  certificates: [rsaCertificate],
  vulnerabilities: [
    {
      id: 'no-fallback-scsv',
      title: 'No TLS_FALLBACK_SCSV',
      status: 'vulnerable',
      severity: 'medium',
      references: ['RFC 7507'],
      evidence: 'A TLS 1.0 hello with TLS_FALLBACK_SCSV was accepted',
      fix: 'Upgrade the TLS library so it honours TLS_FALLBACK_SCSV',
    },
  ],
  notes: [],
  incomplete: false,
  stats: { connections: 41, durationMs: 1800 },
};
const analysis = tlsAnalysis(oldServer, { checked: true, note: 'https://old.example.com/ sends no HSTS' });

async function submit(host: string) {
  const user = userEvent.setup();
  renderWithProviders(<TesterTab />);
  if (host !== '') await user.type(screen.getByLabelText(/^Hostname/), host);
  await user.click(screen.getByRole('button', { name: 'Test TLS' }));
}

describe('TLS tester', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks for a hostname before sending anything', async () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    await submit('');
    expect(await screen.findByText('Hostname is required')).toBeVisible();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('streams the scan: progress while it runs, then the grade, its caps and their fixes', async () => {
    const stream = streamingFetch();
    vi.stubGlobal('fetch', stream.fetchMock);
    await submit('old.example.com');

    const [url, init] = stream.fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/tls-cipher/analyse');
    expect(JSON.parse(String(init?.body))).toEqual({ host: 'old.example.com', port: 443 });
    expect(new Headers(init?.headers).get('accept')).toMatch(/text\/event-stream/);
    expect(screen.getByRole('button', { name: 'Testing TLS...' })).toBeDisabled();

    stream.send('progress', { phase: 'suites', version: 'TLSv1.2', done: 3, total: 12 });
    expect(await screen.findByText('Finding the TLS 1.2 cipher suites · 3 of 12 probes')).toBeVisible();
    const bar = screen.getByRole('progressbar', { name: /Scan progress/ });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(bar).toHaveAttribute('aria-valuetext', 'Finding the TLS 1.2 cipher suites, 3 of 12 probes so far');
    // more probes found: 4 of 20 is less than 3 of 12, the bar stays where it was
    stream.send('progress', { phase: 'suites', version: 'TLSv1.2', done: 4, total: 20 });
    expect(await screen.findByText('Finding the TLS 1.2 cipher suites · 4 of 20 probes')).toBeVisible();
    expect(bar).toHaveAttribute('aria-valuenow', '25');

    stream.send('result', { success: true, data: analysis });
    stream.end();
    // TLS 1.0 caps at B; 3DES with TLS 1.1+ is not seen (3DES only with TLS 1.0), no fallback SCSV at A-
    const result = await screen.findByRole('region', { name: 'TLS test result' });
    expect(await within(result).findByLabelText('Grade B')).toBeVisible();
    const caps = within(result).getByRole('region', { name: 'What limits the grade' });
    expect(within(caps).getByText(/TLS 1.0 and 1.1 are deprecated/)).toBeVisible();
    expect(within(caps).getByText('Accept TLS 1.2 and TLS 1.3 only')).toBeVisible();
    expect(within(caps).getAllByRole('button', { name: /Copy the fix/ }).length).toBeGreaterThan(0);
    const suites = within(result).getByRole('region', { name: 'Protocol versions and cipher suites' });
    expect(within(suites).getByText('Not accepted: TLS 1.3')).toBeVisible();
    expect(within(suites).getByLabelText(/^Security level HIGH/)).toBeVisible();
    const vulnerabilities = within(result).getByRole('region', { name: 'Vulnerabilities' });
    expect(
      within(vulnerabilities).getByText('A TLS 1.0 hello with TLS_FALLBACK_SCSV was accepted'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Test TLS' })).toBeEnabled();
  });

  it('says a refused target in the spec’s words', async () => {
    vi.stubGlobal(
      'fetch',
      failWith('example.com resolves to 10.0.0.1, an address we do not connect to', 'OUTBOUND_BLOCKED', 422),
    );
    await submit('example.com');
    expect(
      await screen.findByText(
        'Failed to test TLS configuration: example.com resolves to 10.0.0.1, an address we do not connect to',
      ),
    ).toBeVisible();
  });

  it('shows a failure inside the stream in the spec’s words', async () => {
    const stream = streamingFetch();
    vi.stubGlobal('fetch', stream.fetchMock);
    await submit('old.example.com');
    stream.send('progress', { phase: 'versions', done: 1, total: 6 });
    stream.send('error', {
      success: false,
      error: 'The scan failed on our side',
      code: 'INTERNAL_ERROR',
      status: 500,
    });
    stream.end();
    expect(
      await screen.findByText('Failed to test TLS configuration: The scan failed on our side'),
    ).toBeVisible();
  });

  it.each([
    [
      'an invalid port',
      { host: 'example.org', port: '70000' },
      'Port must be a whole number from 1 to 65535',
    ],
    ['a URL', { host: 'https://example.org/', port: '443' }, 'Enter a domain such as example.com, not a URL'],
  ])('a new submission stopped by %s clears the last failure', async (_name, next, fieldError) => {
    const fetchMock = failWith('nowhere.example.com does not exist', 'NXDOMAIN', 422);
    vi.stubGlobal('fetch', fetchMock);
    await submit('nowhere.example.com');
    const failure = 'Failed to test TLS configuration: nowhere.example.com does not exist';
    expect(await screen.findByText(failure)).toBeVisible();

    const user = userEvent.setup();
    const host = screen.getByLabelText(/^Hostname/);
    await user.clear(host);
    await user.type(host, next.host);
    const port = screen.getByLabelText(/^Port/);
    await user.clear(port);
    await user.type(port, next.port);
    await user.click(screen.getByRole('button', { name: 'Test TLS' }));

    expect(await screen.findByText(fieldError)).toBeVisible();
    expect(screen.queryByText(failure)).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a port that does not serve TLS says to check the port or choose STARTTLS, without a retry', async () => {
    vi.stubGlobal(
      'fetch',
      failWith(
        'mail.example.com:25 does not speak TLS: it answered "220 mail.example.com ESMTP"; it answered like an SMTP server: choose STARTTLS SMTP',
        'PROTOCOL_ERROR',
        422,
      ),
    );
    await submit('mail.example.com');
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('choose STARTTLS SMTP');
    expect(notice).toHaveTextContent(
      'Trying again will not help: the port does not serve TLS from the first byte. Check the port, or choose STARTTLS',
    );
    expect(notice).not.toHaveTextContent('This says nothing about your configuration');
    expect(screen.queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
  });

  it('a closed port is a check we could not make, with a retry', async () => {
    vi.stubGlobal('fetch', failWith('Nothing answered on port 443 at example.com', 'CONNECT_FAILED', 422));
    await submit('example.com');
    expect(await screen.findByText('Nothing answered on port 443 at example.com')).toBeVisible();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeVisible();
  });
});

describe('the scan progress bar', () => {
  it('only moves forward while the total grows, stays under 95 % until the result, then 100', () => {
    // a stream as the scanner sent it: the total grows as probes are found
    const events: TlsScanProgress[] = [
      { phase: 'versions', done: 0, total: 7 },
      { phase: 'versions', done: 6, total: 7 },
      { phase: 'suites', version: 'TLSv1.2', done: 8, total: 10 },
      { phase: 'suites', version: 'TLSv1.2', done: 10, total: 10 },
      { phase: 'preference', version: 'TLSv1.2', done: 24, total: 25 },
      { phase: 'features', done: 25, total: 43 },
      { phase: 'certificate', done: 43, total: 43 },
      { phase: 'done', done: 43, total: 43 },
    ];
    const shown: number[] = [];
    let percent = nextProgressPercent(0, null);
    for (const event of events) {
      percent = nextProgressPercent(percent, event);
      shown.push(percent);
    }
    expect(shown).toEqual([0, 86, 86, 95, 95, 95, 95, 100]);
  });

  it('tells a screen reader the phase and the counts', () => {
    expect(progressValueText(null)).toBe('Connecting to the server');
    expect(progressValueText({ phase: 'suites', version: 'TLSv1.3', done: 3, total: 12 })).toBe(
      'Finding the TLS 1.3 cipher suites, 3 of 12 probes so far',
    );
    expect(progressValueText({ phase: 'versions', done: 0, total: 0 })).toBe(
      'Finding the protocol versions the server accepts',
    );
  });
});
