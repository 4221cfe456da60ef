import { describe, expect, it } from 'vitest';
import { validateSmtpTlsIdentity } from './identity.ts';
import type { SmtpTlsCertificateInfo, SmtpTlsValidation } from './schema.ts';
import type { SmtpTlsServiceType } from './services.ts';

type Flags = SmtpTlsValidation['validationSummary'];
interface Case {
  name: string;
  serverHostname?: string;
  emailDomain?: string;
  serviceType?: SmtpTlsServiceType;
  port?: number;
  includeSRV?: boolean;
  certificate: Partial<SmtpTlsCertificateInfo>;
  flags: Flags;
  status: SmtpTlsValidation['status'];
  matchedBy: SmtpTlsValidation['matchedBy'];
  codes?: string[];
}

const flags = (dns: boolean, srv: boolean, cn: boolean, compliant: boolean): Flags => ({
  dnsIdCompliant: dns,
  srvIdCompliant: srv,
  cnIdCompliant: cn,
  rfc7817Compliant: compliant,
});

// The RFC 7817 §3 / RFC 6125 §6 rules, one certificate per row; flags written from the RFC text.
const certificates: Case[] = [
  {
    name: 'DNS-ID exact',
    certificate: { dnsIds: ['mail.example.com'], commonName: 'mail.example.com' },
    flags: flags(true, true, true, true),
    status: 'success',
    matchedBy: 'dns-id',
  },
  {
    name: 'DNS-ID exact, upper case with a trailing dot (RFC 6125 §6.4.1)',
    certificate: { dnsIds: ['MAIL.EXAMPLE.COM.'] },
    flags: flags(true, true, true, true),
    status: 'success',
    matchedBy: 'dns-id',
  },
  {
    name: 'DNS-ID wildcard for one left-most label',
    certificate: { dnsIds: ['*.example.com'] },
    flags: flags(true, true, true, true),
    status: 'success',
    matchedBy: 'dns-id',
  },
  {
    name: 'wildcard does not cover the bare parent',
    serverHostname: 'example.com',
    certificate: { dnsIds: ['*.example.com'] },
    flags: flags(false, true, true, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_MATCHING_IDENTIFIER'],
  },
  {
    name: 'wildcard does not cover two labels',
    serverHostname: 'imap.mail.example.com',
    certificate: { dnsIds: ['*.example.com'] },
    flags: flags(false, true, true, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_MATCHING_IDENTIFIER'],
  },
  {
    name: 'partial-label wildcard never matches (RFC 7817 §3 MUST NOT)',
    certificate: { dnsIds: ['m*.example.com'] },
    flags: flags(false, true, true, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_MATCHING_IDENTIFIER', 'SMTP_TLS_UNUSABLE_IDENTIFIER'],
  },
  {
    name: 'SRV-ID of the service at the email domain, with SRV discovery',
    serviceType: 'imaps',
    includeSRV: true,
    certificate: { srvIds: ['_imaps.example.com'] },
    flags: flags(false, true, true, true),
    status: 'success',
    matchedBy: 'srv-id',
  },
  {
    name: 'SRV-ID of another service does not match',
    serviceType: 'imaps',
    includeSRV: true,
    certificate: { srvIds: ['_pop3s.example.com'] },
    flags: flags(false, false, true, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_MATCHING_IDENTIFIER'],
  },
  {
    name: 'SRV-ID is not used without SRV discovery',
    serviceType: 'imaps',
    certificate: { srvIds: ['_imaps.example.com'] },
    flags: flags(false, true, true, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_MATCHING_IDENTIFIER'],
  },
  {
    name: 'SRV discovery with a DNS-ID only: passes, SRV-ID missing',
    serviceType: 'smtp',
    includeSRV: true,
    certificate: { dnsIds: ['mail.example.com'] },
    flags: flags(true, false, true, true),
    status: 'warning',
    matchedBy: 'dns-id',
    codes: ['SMTP_TLS_NO_SRV_ID'],
  },
  {
    name: 'submissions on 465 takes _submissions (RFC 8314 §5.1)',
    serviceType: 'smtp',
    port: 465,
    includeSRV: true,
    certificate: { dnsIds: ['mail.example.com'], srvIds: ['_submissions.example.com'] },
    flags: flags(true, true, true, true),
    status: 'success',
    matchedBy: 'dns-id',
  },
  {
    name: 'ManageSieve takes _sieve (RFC 5804)',
    serviceType: 'sieve',
    includeSRV: true,
    certificate: { srvIds: ['_sieve.example.com'] },
    flags: flags(false, true, true, true),
    status: 'success',
    matchedBy: 'srv-id',
  },
  {
    name: 'CN only: the CN-ID fallback (MAY) passes with a warning',
    certificate: { commonName: 'mail.example.com' },
    flags: flags(false, true, true, true),
    status: 'warning',
    matchedBy: 'cn-id',
    codes: ['SMTP_TLS_CN_ONLY'],
  },
  {
    name: 'CN ignored when a DNS-ID is present (RFC 6125 §6.4.4)',
    certificate: { dnsIds: ['other.example.net'], commonName: 'mail.example.com' },
    flags: flags(false, true, true, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_MATCHING_IDENTIFIER'],
  },
  {
    name: 'CN of another name beside a matching DNS-ID: the CN is not looked at (RFC 6125 §6.4.4)',
    certificate: { dnsIds: ['mail.example.com', 'www.example.com'], commonName: 'www.example.com' },
    flags: flags(true, true, true, true),
    status: 'success',
    matchedBy: 'dns-id',
  },
  {
    name: 'CN of another name beside a matching SRV-ID: the CN is not looked at (RFC 6125 §6.4.4)',
    serviceType: 'imaps',
    includeSRV: true,
    certificate: { srvIds: ['_imaps.example.com'], commonName: 'www.example.com' },
    flags: flags(false, true, true, true),
    status: 'success',
    matchedBy: 'srv-id',
  },
  {
    name: 'CN only, naming another host: the CN-ID fallback does not match',
    certificate: { commonName: 'www.example.com' },
    flags: flags(false, true, false, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_MATCHING_IDENTIFIER'],
  },
  {
    name: 'IDN host typed in Unicode, DNS-ID as A-label',
    serverHostname: 'mail.bücher.example',
    emailDomain: 'bücher.example',
    certificate: { dnsIds: ['mail.xn--bcher-kva.example'] },
    flags: flags(true, true, true, true),
    status: 'success',
    matchedBy: 'dns-id',
  },
  {
    name: 'IDN wildcard over an A-label parent',
    serverHostname: 'mail.xn--bcher-kva.example',
    emailDomain: 'xn--bcher-kva.example',
    certificate: { dnsIds: ['*.xn--bcher-kva.example'] },
    flags: flags(true, true, true, true),
    status: 'success',
    matchedBy: 'dns-id',
  },
  {
    name: 'IDN SRV-ID as A-label',
    serverHostname: 'mail.xn--bcher-kva.example',
    emailDomain: 'bücher.example',
    serviceType: 'imap',
    includeSRV: true,
    certificate: { srvIds: ['_imap.xn--bcher-kva.example'] },
    flags: flags(false, true, true, true),
    status: 'success',
    matchedBy: 'srv-id',
  },
  {
    name: 'IDN DNS-ID written with U-labels: matches, but a certificate must carry A-labels',
    serverHostname: 'mail.xn--bcher-kva.example',
    certificate: { dnsIds: ['mail.bücher.example'] },
    flags: flags(true, true, true, true),
    status: 'warning',
    matchedBy: 'dns-id',
    codes: ['SMTP_TLS_U_LABEL_IN_CERTIFICATE'],
  },
  {
    name: 'wildcard inside an A-label never matches (RFC 6125 §6.4.3)',
    serverHostname: 'xn--bcher-kva.example',
    certificate: { dnsIds: ['xn--*.example'] },
    flags: flags(false, true, true, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_MATCHING_IDENTIFIER', 'SMTP_TLS_UNUSABLE_IDENTIFIER'],
  },
  {
    name: 'no identifier at all',
    certificate: {},
    flags: flags(false, true, true, false),
    status: 'error',
    matchedBy: null,
    codes: ['SMTP_TLS_NO_IDENTIFIERS'],
  },
  {
    name: 'port 25 relay: outside RFC 7817, pointed at MTA-STS and DANE',
    serviceType: 'smtp',
    port: 25,
    certificate: { dnsIds: ['mail.example.com'] },
    flags: flags(true, true, true, true),
    status: 'warning',
    matchedBy: 'dns-id',
    codes: ['SMTP_TLS_MTA_RELAY_OUT_OF_SCOPE'],
  },
];

describe('validateSmtpTlsIdentity: the certificates of RFC 7817 §3', () => {
  it.each(certificates)('$name', (row) => {
    const result = validateSmtpTlsIdentity({
      serverHostname: row.serverHostname ?? 'mail.example.com',
      emailDomain: row.emailDomain ?? 'example.com',
      serviceType: row.serviceType ?? 'imap',
      port: row.port,
      includeSRV: row.includeSRV ?? false,
      presented: { dnsIds: [], srvIds: [], commonName: null, ...row.certificate },
      source: 'certificateInfo',
    });
    expect(result.validationSummary).toEqual(row.flags);
    expect(result.status).toBe(row.status);
    expect(result.matchedBy).toBe(row.matchedBy);
    const codes = [...result.issues, ...result.warnings].map((finding) => finding.code);
    expect(codes.sort()).toEqual([...(row.codes ?? [])].sort());
    for (const finding of [...result.issues, ...result.warnings]) {
      expect(finding.rfc).toMatch(/^RFC \d+/);
      expect(finding.fix).toBeTruthy();
    }
  });

  it('names the reference identifiers it compared, the SRV-ID at the email domain', () => {
    const result = validateSmtpTlsIdentity({
      serverHostname: 'Mail.Bücher.Example',
      emailDomain: 'bücher.example',
      serviceType: 'pop3s',
      includeSRV: true,
      presented: { dnsIds: [], srvIds: [], commonName: null },
      source: 'certificateInfo',
    });
    expect(result.referenceIdentifiers).toEqual({
      dnsId: 'mail.xn--bcher-kva.example',
      dnsIdUnicode: 'mail.bücher.example',
      srvIds: ['_pop3s.xn--bcher-kva.example'],
    });
    expect(result.scope).toEqual({
      serviceType: 'pop3s',
      port: 995,
      tls: 'implicit',
      coveredByRfc7817: true,
    });
  });

  it('fails an expired certificate whatever its names', () => {
    const result = validateSmtpTlsIdentity({
      serverHostname: 'mail.example.com',
      emailDomain: 'example.com',
      serviceType: 'imaps',
      includeSRV: false,
      presented: { dnsIds: ['mail.example.com'], srvIds: [], commonName: null },
      source: 'pem',
      certificate: {
        subject: 'CN=mail.example.com',
        issuer: 'CN=CA',
        notBefore: '2020-01-01T00:00:00.000Z',
        notAfter: '2021-01-01T00:00:00.000Z',
        dnsIds: ['mail.example.com'],
        srvIds: [],
        commonName: 'mail.example.com',
        uriIds: [],
        ipAddresses: [],
      },
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(result.status).toBe('error');
    expect(result.issues.map((issue) => issue.code)).toEqual(['SMTP_TLS_CERTIFICATE_EXPIRED']);
  });
});
