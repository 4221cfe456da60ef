import { describe, expect, it } from 'vitest';
import { generateSmtpTls } from './generate.ts';
import { smtpTlsGenerateBody } from './schema.ts';

const generate = (body: Record<string, unknown>) => generateSmtpTls(smtpTlsGenerateBody.parse(body));

describe('generateSmtpTls', () => {
  it('IMAPS with SRV: DNS-ID, SRV-ID and the _imaps._tcp record (RFC 6186 §3)', () => {
    const result = generate({
      serverHostname: 'mail.example.com',
      emailDomain: 'example.com',
      serviceType: 'imaps',
    });
    expect(result.status).toBe('success');
    expect(result.port).toBe(993);
    expect(result.tls).toBe('implicit');
    expect(result.certificate.dnsIds).toEqual(['mail.example.com']);
    expect(result.certificate.srvIds).toEqual(['_imaps.example.com']);
    expect(result.certificate.opensslConfig).toContain(
      'subjectAltName = DNS:mail.example.com, otherName:1.3.6.1.5.5.7.8.7;IA5STRING:_imaps.example.com',
    );
    expect(result.dnsRecords.map((record) => record.zoneLine)).toEqual([
      '_imaps._tcp.example.com. 3600 IN SRV 0 1 993 mail.example.com.',
      null,
    ]);
    expect(result.dnsRecords[1]).toMatchObject({ type: 'TLSA', name: '_993._tcp.mail.example.com.' });
  });

  it.each([
    ['smtp', undefined, '_submission._tcp', 587, 'starttls'],
    ['smtp', 465, '_submissions._tcp', 465, 'implicit'],
    ['imap', undefined, '_imap._tcp', 143, 'starttls'],
    ['pop3', undefined, '_pop3._tcp', 110, 'starttls'],
    ['pop3s', undefined, '_pop3s._tcp', 995, 'implicit'],
    ['sieve', undefined, '_sieve._tcp', 4190, 'starttls'],
  ])('%s on port %s: %s on %i (%s)', (serviceType, port, owner, expectedPort, tls) => {
    const result = generate({
      serverHostname: 'mx.example.org',
      emailDomain: 'example.org',
      serviceType,
      port,
    });
    expect(result.port).toBe(expectedPort);
    expect(result.tls).toBe(tls);
    expect(result.dnsRecords[0]?.name).toBe(`${owner}.example.org.`);
  });

  it('port 25: an MX record and the pointer to MTA-STS and DANE, no SRV', () => {
    const result = generate({ serverHostname: 'mx.example.org', emailDomain: 'example.org', port: 25 });
    expect(result.message).toMatch(/^SMTP relay \(MTA-to-MTA\) on mx\.example\.org:25 \(STARTTLS\)/);
    expect(result.status).toBe('warning');
    expect(result.dnsRecords[0]?.zoneLine).toBe('example.org. 3600 IN MX 10 mx.example.org.');
    expect(result.certificate.srvIds).toEqual([]);
    expect(result.notes.map((note) => note.code)).toContain('SMTP_TLS_MTA_RELAY_OUT_OF_SCOPE');
  });

  it('a wildcard for the parent when asked, never over a public suffix', () => {
    expect(
      generate({ serverHostname: 'mail.example.com', emailDomain: 'example.com', enableWildcard: true })
        .certificate.dnsIds,
    ).toEqual(['mail.example.com', '*.example.com']);
    const broad = generate({
      serverHostname: 'example.co.uk',
      emailDomain: 'example.co.uk',
      enableWildcard: true,
    });
    expect(broad.certificate.dnsIds).toEqual(['example.co.uk']);
    expect(broad.status).toBe('warning');
  });

  it('an IDN host as A-labels; no SNI said', () => {
    const result = generate({
      serverHostname: 'mail.bücher.example',
      emailDomain: 'bücher.example',
      serviceType: 'imap',
      enableSNI: false,
    });
    expect(result.certificate.dnsIds).toEqual(['mail.xn--bcher-kva.example']);
    expect(result.sni).toBeNull();
    expect(result.notes.map((note) => note.code)).toContain('SMTP_TLS_NO_SNI');
  });

  it('needs serverHostname and emailDomain (spec part 2 §5)', () => {
    const parsed = smtpTlsGenerateBody.safeParse({ serverHostname: '', emailDomain: '' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      'Server hostname is required',
      'Email domain is required',
    ]);
  });
});
