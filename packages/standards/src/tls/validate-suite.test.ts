// Expected values from the IANA TLS Cipher Suites registry and ciphersuite.info's ratings
// (../shared/conformance/tls): names, code points, Recommended column, weaknesses.
import { describe, expect, it } from 'vitest';
import { validateCipherSuite, versionRange } from './validate-suite.ts';

describe('validateCipherSuite', () => {
  it.each([
    // input, IANA name, level, PFS, versions
    ['TLS_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256', 'HIGH', true, 'TLS 1.3'],
    ['0x13,0x02', 'TLS_AES_256_GCM_SHA384', 'HIGH', true, 'TLS 1.3'],
    ['c02f', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'HIGH', true, 'TLS 1.2'],
    ['ECDHE-RSA-AES128-SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'LOW', true, 'TLS 1.0 – TLS 1.2'],
    ['AES128-GCM-SHA256', 'TLS_RSA_WITH_AES_128_GCM_SHA256', 'MEDIUM', false, 'TLS 1.2'],
    ['DES-CBC3-SHA', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'LOW', false, 'SSL 3.0 – TLS 1.2'],
    ['0x00,0x05', 'TLS_RSA_WITH_RC4_128_SHA', 'INSECURE', false, 'SSL 3.0 – TLS 1.2'],
    ['TLS_RSA_ARCFOUR_128_MD5', 'TLS_RSA_WITH_RC4_128_MD5', 'INSECURE', false, 'SSL 3.0 – TLS 1.2'],
  ])('%s is %s, %s', (input, iana, level, pfs, versions) => {
    const result = validateCipherSuite(input);
    expect(result).toMatchObject({
      cipher: iana,
      known: true,
      level,
      supportsPFS: pfs,
      tlsVersion: versions,
      isSecure: level === 'HIGH',
      isInsecure: level === 'INSECURE',
    });
    expect(result.suite?.iana).toBe(iana);
  });

  it('advises on every weakness with its reference', () => {
    const result = validateCipherSuite('DES-CBC3-SHA');
    expect(result.advice.map((item) => item.weakness)).toEqual([
      'Non-ephemeral Key Exchange',
      'RSA Authentication',
      'Triple-DES',
      'Cipher Block Chaining',
      'Secure Hash Algorithm 1',
    ]);
    for (const item of result.advice) expect(item.reference, item.weakness).not.toBe('');
    expect(result.recommendations).toContain(
      'Disable this cipher suite unless old clients still need it; prefer an ECDHE AEAD suite.',
    );
    expect(result.recommendations.join(' ')).toContain('SWEET32');
  });

  it('notes the IANA Recommended flag and Mozilla profiles', () => {
    const { recommendations } = validateCipherSuite('TLS_CHACHA20_POLY1305_SHA256');
    expect(recommendations).toContain('Marked Recommended in the IANA TLS registry (RFC 8447 §8).');
    expect(recommendations).toContain('Listed in Mozilla’s modern, intermediate, old profiles.');
  });

  it.each(['{0xC0,0x2F}', '{ 0xC0, 0x2F }', '0xC0, 0x2F'])(
    'reads %j, the form RFC 5289 §3 prints',
    (input) => {
      expect(validateCipherSuite(input)).toMatchObject({
        cipher: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
        kind: 'suite',
        code: '0xC0,0x2F',
      });
    },
  );

  // IANA registry: 0x00,0xFF TLS_EMPTY_RENEGOTIATION_INFO_SCSV [RFC5746], 0x56,0x00 TLS_FALLBACK_SCSV [RFC7507]
  it.each([
    ['TLS_FALLBACK_SCSV', 'TLS_FALLBACK_SCSV', '0x56,0x00', 'RFC 7507 §3'],
    ['{0x56,0x00}', 'TLS_FALLBACK_SCSV', '0x56,0x00', 'RFC 7507 §3'],
    ['tls_empty_renegotiation_info_scsv', 'TLS_EMPTY_RENEGOTIATION_INFO_SCSV', '0x00,0xFF', 'RFC 5746 §3.3'],
    ['00ff', 'TLS_EMPTY_RENEGOTIATION_INFO_SCSV', '0x00,0xFF', 'RFC 5746 §3.3'],
  ])('answers %j as the signalling value %s, not a suite', (input, name, code, rfc) => {
    const result = validateCipherSuite(input);
    expect(result).toMatchObject({
      cipher: name,
      known: true,
      kind: 'signalling',
      level: 'N/A',
      code,
      isSecure: false,
      isInsecure: false,
      supportsPFS: false,
      tlsVersion: 'N/A',
      suite: null,
    });
    expect(result.description).toContain('not a cipher suite');
    expect(result.description).toContain(rfc);
    expect(result.recommendations.join(' ')).toContain('Nothing to put in a cipher list');
  });

  // draft-ietf-tls-ssl-version2 Appendix C: SSL_CK_RC4_128_WITH_MD5 = 0x01,0x00,0x80
  it.each([
    ['SSL_CK_RC4_128_WITH_MD5', 'SSL_CK_RC4_128_WITH_MD5', '0x01,0x00,0x80'],
    ['0x01,0x00,0x80', 'SSL_CK_RC4_128_WITH_MD5', '0x01,0x00,0x80'],
    ['010080', 'SSL_CK_RC4_128_WITH_MD5', '0x01,0x00,0x80'],
    ['ssl_ck_des_192_ede3_cbc_with_md5', 'SSL_CK_DES_192_EDE3_CBC_WITH_MD5', '0x07,0x00,0xC0'],
    ['0x0700C0', 'SSL_CK_DES_192_EDE3_CBC_WITH_MD5', '0x07,0x00,0xC0'],
  ])('answers %j as the SSL 2.0 cipher kind %s, INSECURE', (input, name, code) => {
    const result = validateCipherSuite(input);
    expect(result).toMatchObject({
      cipher: name,
      known: true,
      kind: 'ssl2',
      level: 'INSECURE',
      code,
      isSecure: false,
      isInsecure: true,
      supportsPFS: false,
      tlsVersion: 'SSL 2.0',
      suite: null,
    });
    expect(result.recommendations.join(' ')).toContain('RFC 6176');
    expect(result.recommendations.join(' ')).toContain('DROWN');
  });

  it('says an SSL 2.0 export kind has 40 secret key bits', () => {
    expect(validateCipherSuite('SSL_CK_RC4_128_EXPORT40_WITH_MD5').description).toContain(
      '40 secret key bits',
    );
    expect(validateCipherSuite('SSL_CK_RC4_128_WITH_MD5').description).not.toContain('40 secret key bits');
  });

  it.each(['TLS_MADE_UP', '0xZZ,0x01', 'ffff', '', '0x01,0x00,0x81', '{0xC0,0x2F'])(
    'answers %j as UNKNOWN',
    (input) => {
      expect(validateCipherSuite(input)).toMatchObject({
        known: false,
        level: 'UNKNOWN',
        isSecure: false,
        isInsecure: false,
        tlsVersion: 'UNKNOWN',
        kind: 'unknown',
        code: null,
        suite: null,
      });
    },
  );
});

describe('versionRange', () => {
  it.each([
    [['TLSv1.3'], 'TLS 1.3'],
    [['TLSv1.0', 'TLSv1.1', 'TLSv1.2'], 'TLS 1.0 – TLS 1.2'],
    [[], 'none'],
  ] as const)('%j → %s', (versions, text) => expect(versionRange(versions)).toBe(text));
});
