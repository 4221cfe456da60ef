import { describe, expect, it } from 'vitest';
import { readSmtpTlsCertificate } from './certificate.ts';

// Made with OpenSSL 3 (expected names are what `openssl x509 -text` prints for it):
// openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout k.pem -out c.pem -days 36500 \
//   -subj "/O=rfckit test/CN=legacy.example.com" -addext "subjectAltName=DNS:mail.example.com,\
//   DNS:*.xn--bcher-kva.example,otherName:1.3.6.1.5.5.7.8.7;IA5STRING:_imaps.example.com,\
//   otherName:1.3.6.1.5.5.7.8.7;IA5STRING:_submission.example.com,URI:https://mail.example.com/,IP:192.0.2.25"
const opensslCertificate = `-----BEGIN CERTIFICATE-----
MIICYjCCAgigAwIBAgIUe4iBU+dJQgfBWLMhXq3bEoBj/D0wCgYIKoZIzj0EAwIw
MzEUMBIGA1UECgwLcmZja2l0IHRlc3QxGzAZBgNVBAMMEmxlZ2FjeS5leGFtcGxl
LmNvbTAgFw0yNjExMjUwMzQ2MjlaGA8yMTI2MTEwMTAzNDYyOVowMzEUMBIGA1UE
CgwLcmZja2l0IHRlc3QxGzAZBgNVBAMMEmxlZ2FjeS5leGFtcGxlLmNvbTBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABA8dZ984tOzVU0I/uGqrJUe6jk0K7+VhSRU4
GHxcMU/5ZY1wtkFHSLSue5n9KMc98Zpbl4BY9oDvwzNttheQIaCjgfcwgfQwHQYD
VR0OBBYEFITW/VG+HkTNyM1iaLTYICegOeeeMB8GA1UdIwQYMBaAFITW/VG+HkTN
yM1iaLTYICegOeeeMA8GA1UdEwEB/wQFMAMBAf8wgaAGA1UdEQSBmDCBlYIQbWFp
bC5leGFtcGxlLmNvbYIXKi54bi0tYmNoZXIta3ZhLmV4YW1wbGWgIAYIKwYBBQUH
CAegFBYSX2ltYXBzLmV4YW1wbGUuY29toCUGCCsGAQUFBwgHoBkWF19zdWJtaXNz
aW9uLmV4YW1wbGUuY29thhlodHRwczovL21haWwuZXhhbXBsZS5jb20vhwTAAAIZ
MAoGCCqGSM49BAMCA0gAMEUCIHH1xsWzYojbhYnaVCQhVsgy74jkQv1UT/LU23fW
3ZRtAiEApgqIO8SvIRtNgNhAagP7mYnUxDkxA8a5zoOZ36y3jSM=
-----END CERTIFICATE-----`;

describe('readSmtpTlsCertificate', () => {
  it('reads DNS-IDs, SRV-IDs (RFC 4985 otherName), URI-IDs, addresses and the CN as OpenSSL shows them', () => {
    const read = readSmtpTlsCertificate(opensslCertificate);
    if (!read.ok) throw new Error(read.error);
    expect(read.result.info).toEqual({
      dnsIds: ['mail.example.com', '*.xn--bcher-kva.example'],
      srvIds: ['_imaps.example.com', '_submission.example.com'],
      commonName: 'legacy.example.com',
    });
    expect(read.result.details).toMatchObject({
      subject: 'O=rfckit test, CN=legacy.example.com',
      issuer: 'O=rfckit test, CN=legacy.example.com',
      notBefore: '2026-11-25T03:46:29.000Z',
      notAfter: '2126-11-01T03:46:29.000Z',
      uriIds: ['https://mail.example.com/'],
      ipAddresses: ['192.0.2.25'],
    });
  });

  it('refuses what is not a certificate, saying what was pasted', () => {
    const key = readSmtpTlsCertificate('-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----');
    expect(key.ok).toBe(false);
    expect(!key.ok && key.error).toMatch(/private key/);
    const text = readSmtpTlsCertificate('mail.example.com');
    expect(!text.ok && text.error).toMatch(/No certificate found/);
  });
});
