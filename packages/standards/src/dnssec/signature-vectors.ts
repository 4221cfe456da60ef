// The signature examples of RFC 5702 §6, RFC 6605 §6 and RFC 8080 §6, for tests of every verifier.
import type { DnsRecord } from '../core/resolver.ts';
import { aRecord, mxRecord } from './test-records.ts';

export interface SignatureVector {
  name: string;
  /** The signer, which owns the key. */
  zone: string;
  /** DNSKEY RDATA in presentation form. */
  key: string;
  rrset: DnsRecord[];
  /** RRSIG RDATA in presentation form. */
  rrsig: string;
  /** A time inside the signature's validity window, seconds. */
  now: number;
}

// RFC 8080 §6 signs this MX set with each of its four example keys.
export const rfc8080Mx = [mxRecord('example.com.', 3600, 10, 'mail.example.com.')];

/** The RFC example vectors: key, RRset, RRSIG and a time inside the signature's validity window. */
export const signatureVectors: SignatureVector[] = [
  {
    name: 'RFC 5702 §6.1 RSA/SHA-256',
    zone: 'example.net.',
    key: '256 3 8 AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7jwY3pexPGcnUFtR2Fh36BponcwtkZ4cAgtvd4Qs8PkxUdp6p/DlUmObdk=',
    rrset: [aRecord('www.example.net.', 3600, '192.0.2.91')],
    rrsig:
      'A 8 3 3600 20300101000000 20000101000000 9033 example.net. kRCOH6u7l0QGy9qpC9l1sLncJcOKFLJ7GhiUOibu4teYp5VE9RncriShZNz85mwlMgNEacFYK/lPtPiVYP4bwg==',
    now: Date.UTC(2020, 0, 1) / 1000,
  },
  {
    name: 'RFC 5702 §6.2 RSA/SHA-512',
    zone: 'example.net.',
    key: '256 3 10 AwEAAdHoNTOW+et86KuJOWRDp1pndvwb6Y83nSVXXyLA3DLroROUkN6X0O6pnWnjJQujX/AyhqFDxj13tOnD9u/1kTg7cV6rklMrZDtJCQ5PCl/D7QNPsgVsMu1J2Q8gpMpztNFLpPBz1bWXjDtaR7ZQBlZ3PFY12ZTSncorffcGmhOL',
    rrset: [aRecord('www.example.net.', 3600, '192.0.2.91')],
    rrsig:
      'A 10 3 3600 20300101000000 20000101000000 3740 example.net. tsb4wnjRUDnB1BUi+t6TMTXThjVnG+eCkWqjvvjhzQL1d0YRoOe0CbxrVDYd0xDtsuJRaeUw1ep94PzEWzr0iGYgZBWm/zpq+9fOuagYJRfDqfReKBzMweOLDiNa8iP5g9vMhpuv6OPlvpXwm9Sa9ZXIbNl1MBGk0fthPgxdDLw=',
    now: Date.UTC(2020, 0, 1) / 1000,
  },
  {
    name: 'RFC 6605 §6.1 ECDSA P-256',
    zone: 'example.net.',
    key: '257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==',
    rrset: [aRecord('www.example.net.', 3600, '192.0.2.1')],
    rrsig:
      'A 13 3 3600 20100909100439 20100812100439 55648 example.net. qx6wLYqmh+l9oCKTN6qIc+bw6ya+KJ8oMz0YP107epXAyGmt+3SNruPFKG7tZoLBLlUzGGus7ZwmwWep666VCw==',
    now: Date.UTC(2010, 7, 20) / 1000,
  },
  {
    name: 'RFC 6605 §6.2 ECDSA P-384',
    zone: 'example.net.',
    key: '257 3 14 xKYaNhWdGOfJ+nPrL8/arkwf2EY3MDJ+SErKivBVSum1w/egsXvSADtNJhyem5RCOpgQ6K8X1DRSEkrbYQ+OB+v8/uX45NBwY8rp65F6Glur8I/mlVNgF6W/qTI37m40',
    rrset: [aRecord('www.example.net.', 3600, '192.0.2.1')],
    rrsig:
      'A 14 3 3600 20100909102025 20100812102025 10771 example.net. /L5hDKIvGDyI1fcARX3z65qrmPsVz73QD1Mr5CEqOiLP95hxQouuroGCeZOvzFaxsT8Glr74hbavRKayJNuydCuzWTSSPdz7wnqXL5bdcJzusdnI0RSMROxxwGipWcJm',
    now: Date.UTC(2010, 7, 20) / 1000,
  },
  {
    name: 'RFC 8080 §6.1 Ed25519 example 1',
    zone: 'example.com.',
    key: '257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=',
    rrset: rfc8080Mx,
    rrsig:
      'MX 15 2 3600 1440021600 1438207200 3613 example.com. oL9krJun7xfBOIWcGHi7mag5/hdZrKWw15jPGrHpjQeRAvTdszaPD+QLs3fx8A4M3e23mRZ9VrbpMngwcrqNAg==',
    now: 1439000000,
  },
  {
    name: 'RFC 8080 §6.1 Ed25519 example 2',
    zone: 'example.com.',
    key: '257 3 15 zPnZ/QwEe7S8C5SPz2OfS5RR40ATk2/rYnE9xHIEijs=',
    rrset: rfc8080Mx,
    rrsig:
      'MX 15 2 3600 1440021600 1438207200 35217 example.com. zXQ0bkYgQTEFyfLyi9QoiY6D8ZdYo4wyUhVioYZXFdT410QPRITQSqJSnzQoSm5poJ7gD7AQR0O7KuI5k2pcBg==',
    now: 1439000000,
  },
  {
    name: 'RFC 8080 §6.2 Ed448 example 1',
    zone: 'example.com.',
    key: '257 3 16 3kgROaDjrh0H2iuixWBrc8g2EpBBLCdGzHmn+G2MpTPhpj/OiBVHHSfPodx1FYYUcJKm1MDpJtIA',
    rrset: rfc8080Mx,
    rrsig:
      'MX 16 2 3600 1440021600 1438207200 9713 example.com. 3cPAHkmlnxcDHMyg7vFC34l0blBhuG1qpwLmjInI8w1CMB29FkEAIJUA0amxWndkmnBZ6SKiwZSAxGILn/NBtOXft0+Gj7FSvOKxE/07+4RQvE581N3Aj/JtIyaiYVdnYtyMWbSNyGEY2213WKsJlwEA',
    now: 1439000000,
  },
  {
    name: 'RFC 8080 §6.2 Ed448 example 2',
    zone: 'example.com.',
    key: '257 3 16 kkreGWoccSDmUBGAe7+zsbG6ZAFQp+syPmYUurBRQc3tDjeMCJcVMRDmgcNLp5HlHAMy12VoISsA',
    rrset: rfc8080Mx,
    rrsig:
      'MX 16 2 3600 1440021600 1438207200 38353 example.com. E1/oLjSGIbmLny/4fcgM1z4oL6aqo+izT3urCyHyvEp4Sp8Syg1eI+lJ57CSnZqjJP41O/9l4m0AsQ4f7qI1gVnML8vWWiyW2KXhT9kuAICUSxv5OWbf81Rq7Yu60npabODB0QFPb/rkW3kUZmQ0YQUA',
    now: 1439000000,
  },
];
