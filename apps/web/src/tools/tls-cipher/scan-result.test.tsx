import { type CertificateScan, tlsAnalysis, type TlsScanReport } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { ScanResult } from './scan-result.tsx';

// A current server as the scanner reports it: TLS 1.2 and 1.3, an RSA key that signs TLS 1.3
// handshakes with RSASSA-PSS only (RFC 8446 §4.2.3) and TLS 1.2 ones with PKCS #1 v1.5 too.
const currentServer: TlsScanReport = {
  host: 'www.example.com',
  port: 443,
  address: '192.0.2.20',
  versions: [
    {
      version: 'TLSv1.2',
      supported: true,
      suites: [
        {
          code: 0xc02f,
          hex: '0xC0,0x2F',
          name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
          openssl: 'ECDHE-RSA-AES128-GCM-SHA256',
          keyExchange: { group: 'x25519' },
        },
      ],
    },
    {
      version: 'TLSv1.3',
      supported: true,
      suites: [
        {
          code: 0x1301,
          hex: '0x13,0x01',
          name: 'TLS_AES_128_GCM_SHA256',
          openssl: 'TLS_AES_128_GCM_SHA256',
          keyExchange: { group: 'x25519' },
        },
      ],
    },
  ],
  groups: { tls12: ['x25519'], tls13: ['x25519'], dhPrimeBits: [] },
  signatureAlgorithms: ['rsa_pss_rsae_sha256', 'rsa_pkcs1_sha256'],
  tls13SignatureAlgorithms: ['rsa_pss_rsae_sha256', 'rsa_pss_rsae_sha384', 'rsa_pss_rsae_sha512'],
  features: {
    alpn: 'h2',
    ocspStapling: 'no',
    secureRenegotiation: 'yes',
    fallbackScsv: 'yes',
    compression: 'no',
    sessionTickets: 'yes',
    heartbeat: 'no',
    extendedMasterSecret: 'yes',
  },
  certificates: [],
  vulnerabilities: [],
  notes: [
    'Reading the certificate: The TLS handshake with www.example.com on port 443 took longer than 5000 ms',
  ],
  incomplete: false,
  stats: { connections: 60, durationMs: 900 },
};

describe('TLS scan result', () => {
  it('shows the signature schemes of TLS 1.2 and of TLS 1.3 apart, and the scan notes', () => {
    renderWithProviders(<ScanResult analysis={tlsAnalysis(currentServer, { checked: false })} />);
    const row = (name: string) => screen.getByRole('rowheader', { name }).closest('tr');
    expect(row('Signature algorithms (TLS 1.2)')).toHaveTextContent('rsa_pss_rsae_sha256, rsa_pkcs1_sha256');
    expect(row('Signature algorithms (TLS 1.3)')).toHaveTextContent(
      'rsa_pss_rsae_sha256, rsa_pss_rsae_sha384, rsa_pss_rsae_sha512',
    );
    expect(
      screen.getByText(
        'Reading the certificate: The TLS handshake with www.example.com on port 443 took longer than 5000 ms',
      ),
    ).toBeVisible();
  });

  it('says when no probe could tell the TLS 1.3 schemes', () => {
    const { tls13SignatureAlgorithms: _unknown, ...report } = currentServer;
    renderWithProviders(<ScanResult analysis={tlsAnalysis(report, { checked: false })} />);
    expect(
      screen.getByRole('rowheader', { name: 'Signature algorithms (TLS 1.3)' }).closest('tr'),
    ).toHaveTextContent('not learnt');
  });

  it('shows no grade letter or score when the server could not be graded, and the reason', () => {
    renderWithProviders(<ScanResult analysis={tlsAnalysis(currentServer, { checked: false })} />);
    expect(screen.queryByTestId('tls-grade')).toBeNull();
    expect(screen.queryByText(/\/100/)).toBeNull();
    expect(screen.getByTestId('tls-not-graded')).toHaveTextContent(
      'Not gradedThe server sent no certificate we could read, so its key cannot be graded.',
    );
  });

  it('tells versions not tested and groups not learnt apart from those refused', () => {
    const report: TlsScanReport = {
      ...currentServer,
      versions: [
        { version: 'SSLv2', supported: false, suites: [], refusal: 'connection closed' },
        { version: 'TLSv1.0', supported: false, suites: [], tested: false },
        ...currentServer.versions,
      ],
      groups: { tls12: [], tls13: ['x25519'], dhPrimeBits: [], unanswered: ['tls12', 'tls13'] },
      incomplete: true,
    };
    renderWithProviders(<ScanResult analysis={tlsAnalysis(report, { checked: false })} />);
    expect(screen.getByText('Not accepted: SSL 2.0')).toBeVisible();
    expect(screen.getByText('Not tested (the scan notes say why): TLS 1.0')).toBeVisible();
    const row = (name: string) => screen.getByRole('rowheader', { name }).closest('tr');
    expect(row('Groups (TLS 1.2 and below)')).toHaveTextContent(/not learnt$/);
    expect(row('Groups (TLS 1.3)')).toHaveTextContent('x25519; others not learnt');
    expect(screen.getByText(/Not everything could be learnt/)).toBeVisible();
  });
});

/** A trusted leaf for www.example.com with the given key; the rest as a CA issues it. */
function certificate(
  key: Pick<CertificateScan['chain'][number], 'keyType' | 'keyBits' | 'curve'>,
  fingerprint: string,
): CertificateScan {
  return {
    chain: [
      {
        subject: 'CN=www.example.com',
        issuer: 'CN=Example CA',
        subjectAltNames: ['DNS:www.example.com'],
        validFrom: '2026-01-01T00:00:00.000Z',
        validTo: '2027-01-01T00:00:00.000Z',
        serialNumber: fingerprint,
        fingerprint256: fingerprint,
        selfSigned: false,
        signatureAlgorithm: key.keyType === 'ec' ? 'ecdsa-with-SHA256' : 'sha256WithRSAEncryption',
        sctCount: 2,
        pem: '',
        ...key,
      },
    ],
    trusted: true,
    nameMatches: true,
    expired: false,
    notYetValid: false,
    source: 'handshake',
  };
}

describe('TLS scan result: certificates', () => {
  it('shows each certificate of a dual-certificate server under its key type', () => {
    const ecdsa = certificate({ keyType: 'ec', curve: 'prime256v1' }, 'EC:01');
    const rsa = { ...certificate({ keyType: 'rsa', keyBits: 1024 }, 'RS:01'), nameMatches: false };
    const report = { ...currentServer, certificate: ecdsa, certificates: [ecdsa, rsa] };
    renderWithProviders(<ScanResult analysis={tlsAnalysis(report, { checked: false })} />);
    const section = screen.getByRole('region', { name: 'Certificates' });
    expect(within(section).getByText(/The server has 2 certificates/)).toBeVisible();
    const ecdsaSection = within(section).getByRole('region', { name: 'ECDSA certificate' });
    expect(within(ecdsaSection).getByRole('heading', { name: 'ECDSA certificate' })).toBeVisible();
    expect(within(ecdsaSection).getByText(/Key: EC prime256v1/)).toBeVisible();
    expect(within(ecdsaSection).getByText('Name matches')).toBeVisible();
    const rsaSection = within(section).getByRole('region', { name: 'RSA certificate' });
    expect(within(rsaSection).getByText(/Key: RSA 1024 bits/)).toBeVisible();
    expect(within(rsaSection).getByText('Name does not match')).toBeVisible();
  });

  it('shows a single certificate as the chain, without a key-type heading', () => {
    const rsa = certificate({ keyType: 'rsa', keyBits: 2048 }, 'RS:02');
    const report = { ...currentServer, certificate: rsa, certificates: [rsa] };
    renderWithProviders(<ScanResult analysis={tlsAnalysis(report, { checked: false })} />);
    const section = screen.getByRole('region', { name: 'Certificate chain' });
    expect(within(section).getByText(/Key: RSA 2048 bits/)).toBeVisible();
    expect(within(section).queryByRole('heading', { name: 'RSA certificate' })).toBeNull();
  });
});
