// Expected values come from Qualys SSL Labs' SSL Server Rating Guide (2009q): the tables of
// protocol support (SSL 2.0 0, SSL 3.0 80, TLS 1.0 90, TLS 1.1 95, TLS 1.2 100), key exchange
// (< 512 bits 20, < 1024 40, < 2048 80, < 4096 90, else 100; anonymous 0, export 40) and cipher
// strength (0 bits 0, < 128 20, < 256 80, else 100), the weights 30/30/40, the grade table and the
// caps announced with its later revisions; EC sizes by NIST SP 800-57 Part 1 Table 2. Every score
// below is worked out by hand in its comment.
import { describe, expect, it } from 'vitest';
import {
  cipherStrengthScore,
  gradeOfScore,
  gradeTls,
  keyExchangeScore,
  rsaEquivalentBits,
  scoreBandOf,
  type GradedCertificate,
  type TlsGradeFacts,
} from './grade.ts';

const TLS13 = [0x1301, 0x1302, 0x1303];
// ECDHE-RSA-AES128-GCM-SHA256, ECDHE-RSA-AES256-GCM-SHA384, ECDHE-RSA-CHACHA20-POLY1305
const TLS12_AEAD = [0xc02f, 0xc030, 0xcca8];
// ECDHE-RSA-AES128-SHA, ECDHE-RSA-AES256-SHA
const TLS_CBC = [0xc013, 0xc014];

const goodCertificate: GradedCertificate = {
  key: { type: 'RSA', bits: 2048 },
  trusted: true,
  expired: false,
  selfSigned: false,
  nameMatches: true,
  chainComplete: true,
  signatureAlgorithm: 'sha256WithRSAEncryption',
};

/** TLS 1.2 + 1.3 with Mozilla's intermediate suites, RSA 2048, X25519, HSTS two years. */
const good: TlsGradeFacts = {
  protocols: ['TLSv1.2', 'TLSv1.3'],
  suites: { 'TLSv1.2': TLS12_AEAD, 'TLSv1.3': TLS13 },
  certificates: [goodCertificate],
  ecdhBits: 255,
  vulnerabilities: {
    heartbleed: false,
    ccsInjection: false,
    insecureRenegotiation: false,
    compression: false,
    fallbackScsv: true,
  },
  hstsMaxAge: 63_072_000,
};

/** A change to the good server; `serverKey` and `certificate` change its one certificate. */
type Change = Partial<Omit<TlsGradeFacts, 'vulnerabilities'>> & {
  serverKey?: GradedCertificate['key'];
  certificate?: Partial<Omit<GradedCertificate, 'key'>>;
  vulnerabilities?: Partial<TlsGradeFacts['vulnerabilities']>;
};

function facts({ serverKey, certificate, ...change }: Change): TlsGradeFacts {
  return {
    ...good,
    ...change,
    certificates: change.certificates ?? [
      { ...goodCertificate, ...certificate, key: serverKey ?? goodCertificate.key },
    ],
    vulnerabilities: { ...good.vulnerabilities, ...change.vulnerabilities },
  };
}

const cases: { name: string; change: Change; score: number; grade: string; caps: string[] }[] = [
  // protocol (100+100)/2 = 100; key exchange RSA 2048 → 90; cipher (256 → 100 + 128 → 80)/2 = 90;
  // 30 + 27 + 36 = 93
  { name: 'intermediate server with long HSTS', change: {}, score: 93, grade: 'A+', caps: [] },
  { name: 'no HSTS', change: { hstsMaxAge: undefined }, score: 93, grade: 'A', caps: [] },
  { name: 'HSTS exactly 180 days', change: { hstsMaxAge: 15_552_000 }, score: 93, grade: 'A+', caps: [] },
  { name: 'HSTS one second short', change: { hstsMaxAge: 15_551_999 }, score: 93, grade: 'A', caps: [] },
  // protocol (100 + 0)/2 = 50: 15 + 27 + 36 = 78 → B, then F
  {
    name: 'SSL 2.0',
    change: { protocols: ['SSLv2', 'TLSv1.2', 'TLSv1.3'] },
    score: 78,
    grade: 'F',
    caps: ['SSLV2'],
  },
  // SSL 3.0 alone with 3DES: protocol 80, key exchange 90, cipher 168 → 80: 24 + 27 + 32 = 83
  {
    name: 'SSL 3.0 as best protocol',
    change: { protocols: ['SSLv3'], suites: { SSLv3: [0x000a] }, ecdhBits: undefined },
    score: 83,
    grade: 'F',
    caps: ['SSLV3_BEST', 'NO_TLS12', 'NO_FORWARD_SECRECY', 'NO_AEAD'],
  },
  // protocol (100 + 80)/2 = 90: 27 + 27 + 36 = 90
  {
    name: 'SSL 3.0 besides TLS',
    change: { protocols: ['SSLv3', 'TLSv1.2', 'TLSv1.3'] },
    score: 90,
    grade: 'B',
    caps: ['SSLV3'],
  },
  // protocol (100 + 90)/2 = 95: 28.5 + 27 + 36 = 91.5 → 91
  {
    name: 'TLS 1.0 and 1.1',
    change: {
      protocols: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'],
      suites: { 'TLSv1.0': TLS_CBC, 'TLSv1.1': TLS_CBC, 'TLSv1.2': TLS12_AEAD, 'TLSv1.3': TLS13 },
    },
    score: 91,
    grade: 'B',
    caps: ['TLS10_TLS11'],
  },
  // key exchange 1024 → 80: 30 + 24 + 36 = 90
  {
    name: 'RSA 1024 key',
    change: { serverKey: { type: 'RSA', bits: 1024 } },
    score: 90,
    grade: 'B',
    caps: ['KEY_UNDER_2048'],
  },
  // key exchange 512 → 40: 30 + 12 + 36 = 78
  {
    name: 'RSA 512 key',
    change: { serverKey: { type: 'RSA', bits: 512 } },
    score: 78,
    grade: 'F',
    caps: ['KEY_UNDER_1024'],
  },
  // DHE with a 1024-bit group: key exchange 80: 90
  {
    name: 'DH 1024',
    change: { suites: { 'TLSv1.2': [...TLS12_AEAD, 0x009e], 'TLSv1.3': TLS13 }, dhBits: 1024 },
    score: 90,
    grade: 'B',
    caps: ['KEY_UNDER_2048'],
  },
  // DH 768: key exchange 40: 78
  { name: 'DH 768', change: { dhBits: 768 }, score: 78, grade: 'F', caps: ['KEY_UNDER_1024'] },
  {
    name: 'MD5 signature',
    change: { certificate: { signatureAlgorithm: 'md5WithRSAEncryption' } },
    score: 93,
    grade: 'F',
    caps: ['MD5_SIGNATURE'],
  },
  // EXP-RC4-MD5 (40 bits): key exchange export 40, cipher (100 + 20)/2 = 60: 30 + 12 + 24 = 66
  {
    name: 'export suite',
    change: { suites: { 'TLSv1.2': [...TLS12_AEAD, 0x0003], 'TLSv1.3': TLS13 } },
    score: 66,
    grade: 'F',
    caps: ['EXPORT_SUITES', 'RC4_MODERN'],
  },
  // NULL-SHA: cipher (100 + 0)/2 = 50: 30 + 27 + 20 = 77
  {
    name: 'NULL suite',
    change: { suites: { 'TLSv1.2': [...TLS12_AEAD, 0x0002], 'TLSv1.3': TLS13 } },
    score: 77,
    grade: 'F',
    caps: ['WEAK_CIPHER'],
  },
  // DES-CBC-SHA (56 bits): cipher (100 + 20)/2 = 60: 30 + 27 + 24 = 81
  {
    name: 'single DES',
    change: { suites: { 'TLSv1.2': [...TLS12_AEAD, 0x0009], 'TLSv1.3': TLS13 } },
    score: 81,
    grade: 'F',
    caps: ['WEAK_CIPHER', 'BLOCK64_MODERN'],
  },
  // ADH-AES128-SHA: key exchange 0: 30 + 0 + 36 = 66
  {
    name: 'anonymous suite',
    change: { suites: { 'TLSv1.2': [...TLS12_AEAD, 0x0034], 'TLSv1.3': TLS13 } },
    score: 66,
    grade: 'F',
    caps: ['ANONYMOUS_SUITES'],
  },
  {
    name: 'Heartbleed',
    change: { vulnerabilities: { heartbleed: true } },
    score: 93,
    grade: 'F',
    caps: ['HEARTBLEED'],
  },
  {
    name: 'CCS injection',
    change: { vulnerabilities: { ccsInjection: true } },
    score: 93,
    grade: 'F',
    caps: ['CCS_INJECTION'],
  },
  {
    name: 'insecure renegotiation',
    change: { vulnerabilities: { insecureRenegotiation: true } },
    score: 93,
    grade: 'F',
    caps: ['INSECURE_RENEGOTIATION'],
  },
  // protocol (95 + 90)/2 = 92.5, cipher 90: 27.75 + 27 + 36 = 90.75 → 90
  {
    name: 'no TLS 1.2',
    change: { protocols: ['TLSv1.0', 'TLSv1.1'], suites: { 'TLSv1.0': TLS_CBC, 'TLSv1.1': TLS_CBC } },
    score: 90,
    grade: 'C',
    caps: ['NO_TLS12', 'TLS10_TLS11', 'NO_AEAD'],
  },
  // 3DES counts 168 bits (< 256 → 80): cipher still (100 + 80)/2 = 90
  {
    name: '3DES with TLS 1.2',
    change: { suites: { 'TLSv1.2': [...TLS12_AEAD, 0x000a], 'TLSv1.3': TLS13 } },
    score: 93,
    grade: 'C',
    caps: ['BLOCK64_MODERN'],
  },
  {
    name: 'RC4 with TLS 1.2',
    change: { suites: { 'TLSv1.2': [...TLS12_AEAD, 0x0005], 'TLSv1.3': TLS13 } },
    score: 93,
    grade: 'C',
    caps: ['RC4_MODERN'],
  },
  // RC4 with TLS 1.0 only: protocol 95 → 91
  {
    name: 'RC4 with TLS 1.0 only',
    change: {
      protocols: ['TLSv1.0', 'TLSv1.2', 'TLSv1.3'],
      suites: { 'TLSv1.0': [0x0005], 'TLSv1.2': TLS12_AEAD, 'TLSv1.3': TLS13 },
    },
    score: 91,
    grade: 'B',
    caps: ['TLS10_TLS11', 'RC4'],
  },
  {
    name: 'compression',
    change: { vulnerabilities: { compression: true } },
    score: 93,
    grade: 'C',
    caps: ['COMPRESSION'],
  },
  // RSA key exchange with AES-GCM only
  {
    name: 'no forward secrecy',
    change: { protocols: ['TLSv1.2'], suites: { 'TLSv1.2': [0x009c, 0x009d] }, ecdhBits: undefined },
    score: 93,
    grade: 'B',
    caps: ['NO_FORWARD_SECRECY'],
  },
  {
    name: 'no AEAD',
    change: { protocols: ['TLSv1.2'], suites: { 'TLSv1.2': TLS_CBC } },
    score: 93,
    grade: 'B',
    caps: ['NO_AEAD'],
  },
  {
    name: 'incomplete chain',
    change: { certificate: { chainComplete: false } },
    score: 93,
    grade: 'B',
    caps: ['INCOMPLETE_CHAIN'],
  },
  {
    name: 'no fallback SCSV',
    change: { vulnerabilities: { fallbackScsv: false } },
    score: 93,
    grade: 'A-',
    caps: ['NO_FALLBACK_SCSV'],
  },
  {
    name: 'one version needs no fallback SCSV',
    change: {
      protocols: ['TLSv1.3'],
      suites: { 'TLSv1.3': TLS13 },
      vulnerabilities: { fallbackScsv: false },
    },
    score: 93,
    grade: 'A+',
    caps: [],
  },
  {
    name: 'untrusted',
    change: { certificate: { trusted: false } },
    score: 93,
    grade: 'T',
    caps: ['CERT_UNTRUSTED'],
  },
  {
    name: 'expired',
    change: { certificate: { expired: true } },
    score: 93,
    grade: 'T',
    caps: ['CERT_EXPIRED'],
  },
  {
    name: 'self-signed',
    change: { certificate: { trusted: false, selfSigned: true } },
    score: 93,
    grade: 'T',
    caps: ['CERT_SELF_SIGNED'],
  },
  {
    name: 'name mismatch',
    change: { certificate: { nameMatches: false } },
    score: 93,
    grade: 'M',
    caps: ['CERT_NAME_MISMATCH'],
  },
  {
    name: 'untrusted and mismatched',
    change: { certificate: { trusted: false, nameMatches: false } },
    score: 93,
    grade: 'T',
    caps: ['CERT_UNTRUSTED', 'CERT_NAME_MISMATCH'],
  },
  // RSA 4096 and P-384 (≈ 7680): key exchange 100: 30 + 30 + 36 = 96
  {
    name: 'RSA 4096, P-384',
    change: { serverKey: { type: 'RSA', bits: 4096 }, ecdhBits: 384 },
    score: 96,
    grade: 'A+',
    caps: [],
  },
  // AES-256 only: cipher 100: 100
  {
    name: 'AES-256 only, RSA 4096',
    change: {
      protocols: ['TLSv1.3'],
      suites: { 'TLSv1.3': [0x1302] },
      serverKey: { type: 'RSA', bits: 4096 },
      ecdhBits: 384,
    },
    score: 100,
    grade: 'A+',
    caps: [],
  },
];

describe('gradeTls: SSL Labs rating guide', () => {
  it.each(cases)('$name → $grade ($score)', ({ change, score, grade, caps }) => {
    const result = gradeTls(facts(change));
    expect(result.score).toBe(score);
    expect(result.grade).toBe(grade);
    expect(result.caps.map((cap) => cap.code)).toEqual(caps);
    for (const cap of result.caps) {
      expect(cap.reason.length, cap.code).toBeGreaterThan(10);
      expect(cap.evidence.length, cap.code).toBeGreaterThan(5);
      expect(cap.fix.length, cap.code).toBeGreaterThan(10);
      expect(cap.reference, cap.code).toMatch(/RFC \d+|CVE-\d{4}-\d+/);
    }
  });

  it('keeps the configuration grade behind T and M', () => {
    expect(gradeTls(facts({ certificate: { trusted: false } })).gradeIgnoringTrust).toBe('A+');
    expect(
      gradeTls(facts({ certificate: { nameMatches: false }, hstsMaxAge: undefined })).gradeIgnoringTrust,
    ).toBe('A');
  });

  it('names the fact behind a cap', () => {
    const caps = gradeTls(
      facts({ dhBits: 1024, certificate: { signatureAlgorithm: 'md5WithRSAEncryption' } }),
    ).caps;
    expect(caps.find((cap) => cap.code === 'KEY_UNDER_2048')?.evidence).toBe('1024-bit DH group');
    expect(caps.find((cap) => cap.code === 'MD5_SIGNATURE')?.evidence).toContain('md5WithRSAEncryption');
    const exported = gradeTls(facts({ suites: { 'TLSv1.2': [0x0003] } })).caps;
    expect(exported.find((cap) => cap.code === 'EXPORT_SUITES')?.evidence).toBe(
      'TLS_RSA_EXPORT_WITH_RC4_40_MD5',
    );
  });

  it('says what A+ still needs', () => {
    expect(gradeTls(good).missingForAPlus).toEqual([]);
    expect(gradeTls(facts({ hstsMaxAge: undefined })).missingForAPlus).toEqual([
      'HSTS (Strict-Transport-Security) is not sent',
    ]);
    expect(gradeTls(facts({ vulnerabilities: { fallbackScsv: false } })).missingForAPlus).toEqual([
      'Grade A without caps (now A-)',
    ]);
  });

  it('says HSTS could not be read when it was not; a STARTTLS service tops out at A (A+ needs HSTS, RFC 6797 is HTTPS only)', () => {
    expect(gradeTls(facts({ hstsMaxAge: undefined, hstsStatus: 'unread' })).missingForAPlus).toEqual([
      'HSTS (Strict-Transport-Security) could not be read, so it cannot count',
    ]);
    const mail = gradeTls(facts({ hstsMaxAge: undefined, hstsStatus: 'not-applicable' }));
    expect(mail.grade).toBe('A');
    expect(mail.missingForAPlus).toEqual([
      'A+ is for HTTPS sites with HSTS (RFC 6797): A is the top grade of a STARTTLS service',
    ]);
    const mailWithoutScsv = gradeTls(
      facts({
        hstsMaxAge: undefined,
        hstsStatus: 'not-applicable',
        vulnerabilities: { fallbackScsv: false },
      }),
    );
    expect(mailWithoutScsv.grade).toBe('A-');
  });

  it('leaves code points the database does not know out of the scores', () => {
    const result = gradeTls(facts({ suites: { 'TLSv1.2': [...TLS12_AEAD, 0x0a0a], 'TLSv1.3': TLS13 } }));
    expect(result.unknownSuites).toEqual([0x0a0a]);
    expect(result.score).toBe(93);
  });

  it('explains each category score', () => {
    const { categories } = gradeTls(good);
    expect(categories.protocol).toEqual({
      score: 100,
      basis: 'Best TLS 1.3 (100) and worst TLS 1.2 (100) averaged',
    });
    expect(categories.keyExchange.score).toBe(90);
    expect(categories.keyExchange.basis).toContain('RSA 2048-bit server key');
    expect(categories.cipherStrength).toEqual({
      score: 90,
      basis: 'Strongest 256-bit (100) and weakest 128-bit (80) averaged',
    });
  });
});

describe('the guide’s tables', () => {
  it.each([
    [100, 'A'],
    [80, 'A'],
    [79, 'B'],
    [65, 'B'],
    [64, 'C'],
    [50, 'C'],
    [49, 'D'],
    [35, 'D'],
    [34, 'E'],
    [20, 'E'],
    [19, 'F'],
    [0, 'F'],
  ])('score %i is %s', (score, grade) => expect(gradeOfScore(score)).toBe(grade));

  it.each([
    [0, 0],
    [40, 20],
    [56, 20],
    [127, 20],
    [128, 80],
    [168, 80],
    [255, 80],
    [256, 100],
  ])('a %i-bit cipher scores %i', (bits, score) => expect(cipherStrengthScore(bits)).toBe(score));

  it.each([
    [511, 20],
    [512, 40],
    [1023, 40],
    [1024, 80],
    [2047, 80],
    [2048, 90],
    [4095, 90],
    [4096, 100],
  ])('a %i-bit key exchange scores %i', (bits, score) => expect(keyExchangeScore(bits)).toBe(score));

  it.each([
    [160, 1024],
    [224, 2048],
    [255, 3072],
    [256, 3072],
    [384, 7680],
    [521, 15360],
  ])('a %i-bit curve is as strong as RSA %i (NIST SP 800-57)', (bits, rsa) =>
    expect(rsaEquivalentBits('EC', bits)).toBe(rsa),
  );

  it.each([
    [100, 'green'],
    [80, 'green'],
    [79, 'yellow'],
    [60, 'yellow'],
    [59, 'red'],
    [0, 'red'],
  ])('score %i is %s (spec part 2 §9)', (score, band) => expect(scoreBandOf(score)).toBe(band));
});

describe('Mozilla profiles', () => {
  it('finds the intermediate profile for an intermediate server, and why it is not modern', () => {
    const result = gradeTls(good);
    expect(result.mozillaProfile).toBe('intermediate');
    const modern = result.mozilla.find((check) => check.profile === 'modern');
    expect(modern?.blockers).toEqual([
      'Accepts TLS 1.2; modern allows TLS 1.3 only',
      'Suites outside the modern list: ECDHE-RSA-AES128-GCM-SHA256, ECDHE-RSA-AES256-GCM-SHA384, ECDHE-RSA-CHACHA20-POLY1305',
      'RSA certificate; modern asks for ECDSA',
      'Certificate signature sha256WithRSAEncryption; modern accepts ecdsa-with-SHA256, ecdsa-with-SHA384, ecdsa-with-SHA512',
    ]);
  });

  it('finds modern for a TLS 1.3-only ECDSA server', () => {
    const result = gradeTls(
      facts({
        protocols: ['TLSv1.3'],
        suites: { 'TLSv1.3': TLS13 },
        serverKey: { type: 'ECDSA', bits: 256 },
        certificate: { signatureAlgorithm: 'ecdsa-with-SHA256' },
      }),
    );
    expect(result.mozillaProfile).toBe('modern');
    expect(result.grade).toBe('A+');
  });

  it('finds old for RSA key exchange and TLS 1.0, with what stops intermediate', () => {
    const result = gradeTls(
      facts({
        protocols: ['TLSv1.0', 'TLSv1.2'],
        suites: { 'TLSv1.0': [0x002f], 'TLSv1.2': [0x009c, ...TLS12_AEAD] },
      }),
    );
    expect(result.mozillaProfile).toBe('old');
    expect(result.mozilla.find((check) => check.profile === 'intermediate')?.blockers).toEqual([
      'Accepts TLS 1.0; intermediate allows TLS 1.2, TLS 1.3 only',
      'Suites outside the intermediate list: AES128-SHA, AES128-GCM-SHA256',
    ]);
  });

  it('meets none with RC4, a small DH group or a 1024-bit key', () => {
    expect(gradeTls(facts({ suites: { 'TLSv1.2': [0x0005] } })).mozillaProfile).toBeNull();
    const small = gradeTls(facts({ serverKey: { type: 'RSA', bits: 1024 }, dhBits: 1024 }));
    expect(small.mozillaProfile).toBeNull();
    expect(small.mozilla.find((check) => check.profile === 'old')?.blockers).toEqual([
      'RSA key of 1024 bits; old asks for 2048',
      'DH group of 1024 bits; old asks for 2048',
    ]);
  });
});

describe('gradeTls: a server with RSA and ECDSA certificates', () => {
  const ecdsa: GradedCertificate = {
    ...goodCertificate,
    key: { type: 'ECDSA', bits: 256 },
    signatureAlgorithm: 'ecdsa-with-SHA256',
  };
  // ECDHE-ECDSA and ECDHE-RSA AES-GCM: both certificates are in use
  const dual = { suites: { 'TLSv1.2': [0xc02b, 0xc02c, ...TLS12_AEAD], 'TLSv1.3': TLS13 } };

  it('scores the key exchange by the weaker key and caps by it', () => {
    const result = gradeTls(
      facts({ ...dual, certificates: [ecdsa, { ...goodCertificate, key: { type: 'RSA', bits: 1024 } }] }),
    );
    // key exchange RSA 1024 → 80: 30 + 24 + 36 = 90, capped at B
    expect(result.score).toBe(90);
    expect(result.categories.keyExchange.basis).toBe('Weakest key exchange: RSA 1024-bit server key (80)');
    expect(result.grade).toBe('B');
    expect(result.caps.map((cap) => [cap.code, cap.evidence])).toEqual([
      ['KEY_UNDER_2048', 'RSA 1024-bit server key'],
    ]);
  });

  it('applies the certificate caps to each certificate, naming it', () => {
    const result = gradeTls(
      facts({ ...dual, certificates: [ecdsa, { ...goodCertificate, trusted: false, nameMatches: false }] }),
    );
    expect(result.grade).toBe('T');
    expect(result.gradeIgnoringTrust).toBe('A+');
    expect(result.caps.map((cap) => [cap.code, cap.evidence])).toEqual([
      ['CERT_UNTRUSTED', 'The chain of the RSA certificate does not lead to a trusted root'],
      ['CERT_NAME_MISMATCH', 'No subjectAltName of the RSA certificate matches the host'],
    ]);
    const incomplete = gradeTls(
      facts({ ...dual, certificates: [{ ...ecdsa, chainComplete: false }, goodCertificate] }),
    );
    expect(incomplete.caps.map((cap) => cap.evidence)).toEqual([
      'The server does not send every intermediate certificate of the ECDSA certificate',
    ]);
  });

  it('meets old and intermediate with the RSA certificate beside the ECDSA one', () => {
    const result = gradeTls(facts({ ...dual, certificates: [ecdsa, goodCertificate] }));
    expect(result.mozillaProfile).toBe('intermediate');
    const old = result.mozilla.find((check) => check.profile === 'old');
    expect(old?.blockers.filter((blocker) => /certificate|signature|RSA key/i.test(blocker))).toEqual([]);
    const modern = result.mozilla.find((check) => check.profile === 'modern');
    expect(modern?.blockers.filter((blocker) => /certificate|signature/i.test(blocker))).toEqual([]);
  });

  it('holds old to its RSA key size and names both types when none fits', () => {
    const weak = gradeTls(
      facts({ ...dual, certificates: [ecdsa, { ...goodCertificate, key: { type: 'RSA', bits: 1024 } }] }),
    );
    expect(weak.mozilla.find((check) => check.profile === 'old')?.blockers).toContain(
      'RSA key of 1024 bits; old asks for 2048',
    );
    const ecdsaOnly = gradeTls(facts({ ...dual, certificates: [ecdsa] }));
    expect(ecdsaOnly.mozilla.find((check) => check.profile === 'old')?.blockers).toContain(
      'ECDSA certificate; old asks for RSA',
    );
  });
});
