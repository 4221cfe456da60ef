import { describe, expect, it } from 'vitest';
import {
  findSuite,
  formatSuiteHex,
  parseSuiteHex,
  suiteByCode,
  suiteByHex,
  suiteByName,
  suiteSummary,
} from './lookup.ts';
import { type SecurityLevel, keyBitsOf, securityLevelOf } from './suite.ts';
import { cipherSuites } from './suites.ts';

// Expected values are copied from the IANA registry (iana-tls-cipher-suites.csv: Value,
// Description, Recommended, Reference), the defining RFCs and OpenSSL's `openssl ciphers -V`
// naming, never computed by the code under test.
const vectors = [
  {
    code: 0x1301,
    iana: 'TLS_AES_128_GCM_SHA256',
    openssl: 'TLS_AES_128_GCM_SHA256',
    gnutls: null,
    recommended: true,
    reference: '[RFC8446]',
    security: 'HIGH',
    pfs: true, // RFC 8446 §2: every TLS 1.3 key exchange but PSK-only is (EC)DHE
    aead: true,
    keyBits: 128,
    versions: ['TLSv1.3'],
  },
  {
    code: 0xc02f,
    iana: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    openssl: 'ECDHE-RSA-AES128-GCM-SHA256',
    gnutls: 'TLS_ECDHE_RSA_AES_128_GCM_SHA256',
    recommended: true,
    reference: '[RFC5289]',
    security: 'HIGH',
    pfs: true,
    aead: true,
    keyBits: 128,
    versions: ['TLSv1.2'], // RFC 5289 §4: GCM suites are TLS 1.2 only
  },
  {
    code: 0xcca9,
    iana: 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
    openssl: 'ECDHE-ECDSA-CHACHA20-POLY1305',
    gnutls: 'TLS_ECDHE_ECDSA_CHACHA20_POLY1305',
    recommended: true,
    reference: '[RFC7905]',
    security: 'HIGH',
    pfs: true,
    aead: true,
    keyBits: 256,
    versions: ['TLSv1.2'],
  },
  {
    code: 0x009f,
    iana: 'TLS_DHE_RSA_WITH_AES_256_GCM_SHA384',
    openssl: 'DHE-RSA-AES256-GCM-SHA384',
    gnutls: 'TLS_DHE_RSA_AES_256_GCM_SHA384',
    recommended: true,
    reference: '[RFC5288]',
    security: 'MEDIUM', // one medium weakness: finite-field DHE (DHEat)
    pfs: true,
    aead: true,
    keyBits: 256,
    versions: ['TLSv1.2'],
  },
  {
    code: 0xc027,
    iana: 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
    openssl: 'ECDHE-RSA-AES128-SHA256',
    gnutls: 'TLS_ECDHE_RSA_AES_128_CBC_SHA256',
    recommended: false,
    reference: '[RFC5289]',
    security: 'MEDIUM', // one medium weakness: CBC
    pfs: true,
    aead: false,
    keyBits: 128,
    versions: ['TLSv1.2'],
  },
  {
    code: 0xc013,
    iana: 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
    openssl: 'ECDHE-RSA-AES128-SHA',
    gnutls: 'TLS_ECDHE_RSA_AES_128_CBC_SHA1',
    recommended: false,
    reference: '[RFC8422]',
    security: 'LOW', // CBC and HMAC-SHA1
    pfs: true,
    aead: false,
    keyBits: 128,
    versions: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
  },
  {
    code: 0x002f,
    iana: 'TLS_RSA_WITH_AES_128_CBC_SHA',
    openssl: 'AES128-SHA',
    gnutls: 'TLS_RSA_AES_128_CBC_SHA1',
    recommended: false,
    reference: '[RFC5246]',
    security: 'LOW', // static RSA, CBC, HMAC-SHA1
    pfs: false,
    aead: false,
    keyBits: 128,
    versions: ['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
  },
  {
    code: 0x000a,
    iana: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
    openssl: 'DES-CBC3-SHA',
    gnutls: 'TLS_RSA_3DES_EDE_CBC_SHA1',
    recommended: false,
    reference: '[RFC5246]',
    security: 'LOW',
    pfs: false,
    aead: false,
    keyBits: 168,
    versions: ['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2'], // RFC 6101 §A.6 SSL_RSA_WITH_3DES_EDE_CBC_SHA
  },
  {
    code: 0x0005,
    iana: 'TLS_RSA_WITH_RC4_128_SHA',
    openssl: 'RC4-SHA',
    gnutls: 'TLS_RSA_ARCFOUR_128_SHA1',
    recommended: false,
    reference: '[RFC5246][RFC6347]',
    security: 'INSECURE', // RFC 7465: RC4 MUST NOT be used
    pfs: false,
    aead: false,
    keyBits: 128,
    versions: ['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
  },
  {
    code: 0x0008,
    iana: 'TLS_RSA_EXPORT_WITH_DES40_CBC_SHA',
    openssl: 'EXP-DES-CBC-SHA',
    gnutls: null,
    recommended: false,
    reference: '[RFC4346]',
    security: 'INSECURE',
    pfs: false,
    aead: false,
    keyBits: 40,
    versions: ['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
  },
  {
    code: 0x0034,
    iana: 'TLS_DH_anon_WITH_AES_128_CBC_SHA',
    openssl: 'ADH-AES128-SHA',
    gnutls: 'TLS_DH_ANON_AES_128_CBC_SHA1',
    recommended: false,
    reference: '[RFC5246]',
    security: 'INSECURE', // anonymous: no authentication (RFC 5246 §A.5)
    // ephemeral DH, but ciphersuite.info counts only DHE/ECDHE names as PFS: an unauthenticated
    // exchange keeps nothing secret from a man in the middle
    pfs: false,
    aead: false,
    keyBits: 128,
    versions: ['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
  },
  {
    code: 0x003b,
    iana: 'TLS_RSA_WITH_NULL_SHA256',
    openssl: 'NULL-SHA256',
    gnutls: 'TLS_RSA_NULL_SHA256',
    recommended: false,
    reference: '[RFC5246]',
    security: 'INSECURE',
    pfs: false,
    aead: false,
    keyBits: 0,
    versions: ['TLSv1.2'],
  },
  {
    code: 0xc0ae,
    iana: 'TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8',
    openssl: 'ECDHE-ECDSA-AES128-CCM8',
    gnutls: 'TLS_ECDHE_ECDSA_AES_128_CCM_8',
    recommended: false,
    reference: '[RFC7251]',
    security: 'MEDIUM', // 8-byte tag (RFC 6655 §3)
    pfs: true,
    aead: true,
    keyBits: 128,
    versions: ['TLSv1.2'],
  },
] as const satisfies readonly {
  code: number;
  iana: string;
  openssl: string;
  gnutls: string | null;
  recommended: boolean;
  reference: string;
  security: SecurityLevel;
  pfs: boolean;
  aead: boolean;
  keyBits: number;
  versions: readonly string[];
}[];

describe('cipher-suite database', () => {
  it('holds every assigned single code point of the IANA registry, in order, once', () => {
    expect(cipherSuites).toHaveLength(350);
    const codes = cipherSuites.map((suite) => suite.code);
    expect(new Set(codes).size).toBe(350);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    for (const suite of cipherSuites) expect(suite.hex).toBe(formatSuiteHex(suite.code));
  });

  it.each(vectors)('$iana ($code)', (vector) => {
    const suite = suiteByCode(vector.code);
    expect(suite).toMatchObject({
      iana: vector.iana,
      openssl: vector.openssl,
      gnutls: vector.gnutls,
      ianaRecommended: vector.recommended,
      reference: vector.reference,
      security: vector.security,
      pfs: vector.pfs,
      aead: vector.aead,
      keyBits: vector.keyBits,
      versions: vector.versions,
    });
    expect(suiteByName(vector.iana)).toBe(suite);
    expect(suiteByName(vector.openssl.toLowerCase())).toBe(suite);
    if (vector.gnutls) expect(suiteByName(` ${vector.gnutls.toLowerCase()} `)).toBe(suite);
    expect(findSuite(vector.openssl)).toBe(suite);
  });

  it('lists the Mozilla intermediate suites of guidelines 5.8 (TLS 1.2 ECDHE AEAD + TLS 1.3)', () => {
    const intermediate = cipherSuites.filter((suite) => suite.mozilla.includes('intermediate'));
    expect(intermediate.map((suite) => suite.openssl).sort()).toEqual(
      [
        'ECDHE-ECDSA-AES128-GCM-SHA256',
        'ECDHE-RSA-AES128-GCM-SHA256',
        'ECDHE-ECDSA-AES256-GCM-SHA384',
        'ECDHE-RSA-AES256-GCM-SHA384',
        'ECDHE-ECDSA-CHACHA20-POLY1305',
        'ECDHE-RSA-CHACHA20-POLY1305',
        'TLS_AES_128_GCM_SHA256',
        'TLS_AES_256_GCM_SHA384',
        'TLS_CHACHA20_POLY1305_SHA256',
      ].sort(),
    );
    const modern = cipherSuites.filter((suite) => suite.mozilla.includes('modern'));
    expect(modern.map((suite) => suite.code)).toEqual([0x1301, 0x1302, 0x1303]);
    for (const suite of intermediate) expect(suite.mozilla).toContain('old');
  });

  it('counts the summary card from the database', () => {
    // 24 rows of the IANA registry carry Recommended = Y
    expect(suiteSummary()).toEqual({
      total: 350,
      high: cipherSuites.filter((s) => s.security === 'HIGH').length,
      pfs: cipherSuites.filter((s) => s.pfs).length,
      recommended: 24,
    });
    expect(suiteSummary([])).toEqual({ total: 0, high: 0, pfs: 0, recommended: 0 });
  });
});

describe('hex look-up', () => {
  it.each([
    ['0xC0,0x2F', 0xc02f],
    ['c02f', 0xc02f],
    ['0xc02f', 0xc02f],
    ['C0,2F', 0xc02f],
    ['0xC0, 0x2F', 0xc02f],
    ['0x13,0x01', 0x1301],
    ['0x00,0x0A', 0x000a],
    ['0,a', 0x000a],
  ])('%s is %i', (text, code) => {
    expect(parseSuiteHex(text)).toBe(code);
    expect(suiteByHex(text)?.code).toBe(code);
  });

  it.each(['', 'c0', 'c02f0', '0xC0,0x2F,0x00', 'zz,zz', '0x1C0,0x2F'])('%j is no code point', (text) => {
    expect(parseSuiteHex(text)).toBeUndefined();
  });

  it('finds nothing for unassigned code points and unknown names', () => {
    expect(suiteByHex('0x00,0xFF')).toBeUndefined(); // TLS_EMPTY_RENEGOTIATION_INFO_SCSV: a signal, not a suite
    expect(suiteByHex('0x56,0x00')).toBeUndefined(); // TLS_FALLBACK_SCSV (RFC 7507)
    expect(suiteByCode(0xfefe)).toBeUndefined();
    expect(findSuite('ECDHE-RSA-AES128-GCM-SHA999')).toBeUndefined();
  });

  it('formats the IANA form', () => {
    expect(formatSuiteHex(0xc02f)).toBe('0xC0,0x2F');
    expect(formatSuiteHex(0x0005)).toBe('0x00,0x05');
  });
});

describe('security level rule', () => {
  const weakness = (severity: 0 | 1 | 2) => ({ component: 'enc', name: 'x', severity }) as const;
  it.each([
    ['insecure', [weakness(2), weakness(1)], 'RC4 128', 'INSECURE'],
    ['recommended', [], 'AES 128 GCM', 'HIGH'],
    ['secure', [weakness(0)], 'AES 128 GCM', 'HIGH'],
    ['secure', [weakness(0)], 'AES 128 CCM 8', 'MEDIUM'],
    ['weak', [weakness(0), weakness(1)], 'AES 128 GCM', 'MEDIUM'],
    ['weak', [weakness(1), weakness(1)], 'AES 128 CBC', 'LOW'],
  ] as const)('%s with %j and %s is %s', (rating, weaknesses, cipher, level) => {
    expect(securityLevelOf(rating, weaknesses, cipher)).toBe(level);
  });

  it.each([
    ['AES 128 GCM', 128],
    ['AES 256 CBC', 256],
    ['3DES EDE CBC', 168],
    ['DES CBC', 56],
    ['DES40 CBC', 40],
    ['RC2 CBC 40', 40],
    ['CHACHA20 POLY1305', 256],
    ['AEGIS 128L', 128],
    ['SEED CBC', 128],
    ['NULL', 0],
    ['MYSTERY', undefined],
  ])('%s has %s key bits', (cipher, bits) => {
    expect(keyBitsOf(cipher)).toBe(bits);
  });
});
