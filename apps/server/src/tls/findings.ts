// Vulnerability facts drawn from the handshakes alone: each names its CVE or RFC, says what the
// scan saw and how to fix it (no exploit is attempted beyond the bounded Heartbleed and early
// ChangeCipherSpec probes).
import {
  type CertificateScan,
  type EarlyCcsVerdict,
  type FeatureScan,
  type ScannedSuite,
  type VersionScan,
  type Vulnerability,
  type VulnerabilityId,
  certificateLabel,
  suiteByCode,
} from '@rfckit/standards';

export interface FindingInput {
  versions: readonly VersionScan[];
  features: FeatureScan;
  /** Sizes of DH primes seen. */
  dhPrimeBits: readonly number[];
  heartbleed: boolean | undefined;
  /** The early ChangeCipherSpec probe; undefined when no version it applies to is accepted. */
  earlyCcs: EarlyCcsProbe | undefined;
  /** Every certificate the server serves, one per key type; empty when none could be read. */
  certificates: readonly CertificateScan[];
}

export type EarlyCcsProbe =
  | { version: string; verdict: EarlyCcsVerdict }
  /** The probe got no ServerHelloDone to send its ChangeCipherSpec after: what happened instead. */
  | { version: string; problem: string };

type SuitePredicate = (suite: ScannedSuite) => boolean;

// SSL 2.0 cipher kinds (draft-ietf-tls-ssl-version2 Appendix C) by their bulk cipher
const ssl2Cipher: Record<string, { cipher: string; export: boolean }> = {
  SSL_CK_RC4_128_WITH_MD5: { cipher: 'RC4 128', export: false },
  SSL_CK_RC4_128_EXPORT40_WITH_MD5: { cipher: 'RC4 40', export: true },
  SSL_CK_RC2_128_CBC_WITH_MD5: { cipher: 'RC2 CBC', export: false },
  SSL_CK_RC2_128_CBC_EXPORT40_WITH_MD5: { cipher: 'RC2 CBC 40', export: true },
  SSL_CK_IDEA_128_CBC_WITH_MD5: { cipher: 'IDEA CBC', export: false },
  SSL_CK_DES_64_CBC_WITH_MD5: { cipher: 'DES CBC', export: false },
  SSL_CK_DES_192_EDE3_CBC_WITH_MD5: { cipher: '3DES EDE CBC', export: false },
};

function cipherOf(suite: ScannedSuite): string {
  return suiteByCode(suite.code)?.cipher ?? ssl2Cipher[suite.name]?.cipher ?? '';
}

const isCbc: SuitePredicate = (suite) => /\bCBC\b/.test(cipherOf(suite));
const is64BitBlock: SuitePredicate = (suite) => /^(3DES|DES|IDEA|RC2)\b/.test(cipherOf(suite));
const isRc4: SuitePredicate = (suite) => /^RC4\b/.test(cipherOf(suite));
const isNull: SuitePredicate = (suite) => cipherOf(suite) === 'NULL';
const isAnonymous: SuitePredicate = (suite) => suiteByCode(suite.code)?.authentication === 'anon';
const isExport = (suite: ScannedSuite): boolean =>
  suiteByCode(suite.code)?.export === true || ssl2Cipher[suite.name]?.export === true;
const isExportRsa: SuitePredicate = (suite) =>
  isExport(suite) && suiteByCode(suite.code)?.keyExchange === 'RSA';
const isExportDh: SuitePredicate = (suite) =>
  isExport(suite) && /DH/.test(suiteByCode(suite.code)?.keyExchange ?? '');

/** `TLSv1.0: TLS_RSA_WITH_AES_128_CBC_SHA, …` for the suites matching, per version. */
function matching(
  versions: readonly VersionScan[],
  test: SuitePredicate,
  only?: readonly string[],
): string[] {
  const lines: string[] = [];
  for (const version of versions) {
    if (!version.supported || (only !== undefined && !only.includes(version.version))) continue;
    const names = version.suites.filter(test).map((suite) => suite.name);
    if (names.length > 0) lines.push(`${version.version}: ${names.join(', ')}`);
  }
  return lines;
}

/** Versions (of `only`, when given) whose probes got no answer in time, even retried alone. */
function untested(versions: readonly VersionScan[], only?: readonly string[]): string[] {
  return versions
    .filter((version) => version.tested === false && (only === undefined || only.includes(version.version)))
    .map((version) => version.version);
}

function notTested(names: readonly string[]): string {
  return `${names.join(', ')} could not be tested (the scan notes say why), so this is not known.`;
}

function supports(versions: readonly VersionScan[], name: string): boolean {
  return versions.some((version) => version.version === name && version.supported);
}

interface Definition {
  title: string;
  severity: Vulnerability['severity'];
  references: string[];
  fix: string;
}

const definitions: Record<VulnerabilityId, Definition> = {
  'sslv2-drown': {
    title: 'SSL 2.0 enabled (DROWN)',
    severity: 'critical',
    references: ['CVE-2016-0800', 'RFC 6176 §2'],
    fix: 'Disable SSL 2.0 (RFC 6176: clients and servers MUST NOT negotiate it), also on every other server sharing this key.',
  },
  'sslv3-poodle': {
    title: 'SSL 3.0 enabled (POODLE)',
    severity: 'high',
    references: ['CVE-2014-3566', 'RFC 7568 §3'],
    fix: 'Disable SSL 3.0 (RFC 7568: it MUST NOT be used); offer TLS 1.2 and TLS 1.3 only.',
  },
  'tls10-beast': {
    title: 'CBC suites with TLS 1.0 (BEAST)',
    severity: 'medium',
    references: ['CVE-2011-3389', 'RFC 8996 §2'],
    fix: 'Disable TLS 1.0 and 1.1 (RFC 8996 deprecates them); TLS 1.2 with AEAD suites is not affected.',
  },
  sweet32: {
    title: '64-bit block ciphers (SWEET32)',
    severity: 'medium',
    references: ['CVE-2016-2183', 'CVE-2016-6329', 'RFC 9325 §4.1'],
    fix: 'Remove 3DES, DES, IDEA and RC2 suites from the cipher list (e.g. append `:!3DES:!DES:!IDEA:!RC2` in OpenSSL syntax).',
  },
  rc4: {
    title: 'RC4 cipher suites',
    severity: 'high',
    references: ['RFC 7465 §2', 'CVE-2013-2566', 'CVE-2015-2808'],
    fix: 'Remove every RC4 suite (RFC 7465: servers MUST NOT select RC4), e.g. `:!RC4` in OpenSSL syntax.',
  },
  freak: {
    title: 'Export RSA suites (FREAK)',
    severity: 'critical',
    references: ['CVE-2015-0204', 'RFC 5246 §A.5'],
    fix: 'Remove every EXPORT suite (`:!EXPORT` in OpenSSL syntax); TLS 1.1 and later forbid them.',
  },
  logjam: {
    title: 'Export or weak Diffie-Hellman (Logjam)',
    severity: 'high',
    references: ['CVE-2015-4000', 'RFC 7919 §1', 'RFC 9325 §4.1'],
    fix: 'Remove export DHE suites and use DH groups of at least 2048 bits (RFC 7919 ffdhe2048 or larger), or prefer ECDHE.',
  },
  'null-cipher': {
    title: 'NULL encryption suites',
    severity: 'critical',
    references: ['RFC 9325 §4.1'],
    fix: 'Remove the NULL suites (`:!eNULL` in OpenSSL syntax): they send data in clear text.',
  },
  anonymous: {
    title: 'Anonymous (unauthenticated) suites',
    severity: 'critical',
    references: ['RFC 9325 §4.1', 'RFC 5246 §A.5'],
    fix: 'Remove anonymous suites (`:!aNULL` in OpenSSL syntax): anyone in the path can impersonate the server.',
  },
  crime: {
    title: 'TLS compression (CRIME)',
    severity: 'high',
    references: ['CVE-2012-4929', 'RFC 9325 §3.3'],
    fix: 'Turn TLS-level compression off (RFC 9325: implementations SHOULD NOT support it); in OpenSSL set SSL_OP_NO_COMPRESSION.',
  },
  heartbleed: {
    title: 'Heartbleed',
    severity: 'critical',
    references: ['CVE-2014-0160', 'RFC 6520 §4'],
    fix: 'Upgrade OpenSSL (1.0.1g or later), restart every service using it, then replace the private key and revoke the old certificate.',
  },
  'ccs-injection': {
    title: 'ChangeCipherSpec injection',
    severity: 'critical',
    references: ['CVE-2014-0224', 'RFC 5246 §7.1'],
    fix: 'Upgrade OpenSSL to a fixed release (0.9.8za, 1.0.0m or 1.0.1h or later; every 1.0.2, 1.1 and 3.x release is fixed) and restart every service that loaded the old library; on an appliance, install the vendor’s CVE-2014-0224 update.',
  },
  'insecure-renegotiation': {
    title: 'No secure renegotiation',
    severity: 'high',
    references: ['CVE-2009-3555', 'RFC 5746 §3'],
    fix: 'Upgrade the TLS library so that it supports the renegotiation_info extension (RFC 5746), or disable renegotiation.',
  },
  'no-fallback-scsv': {
    title: 'No downgrade protection (TLS_FALLBACK_SCSV)',
    severity: 'low',
    references: ['RFC 7507 §3'],
    fix: 'Upgrade the TLS library to one that answers TLS_FALLBACK_SCSV with inappropriate_fallback, or offer a single protocol version.',
  },
  certificate: {
    title: 'Certificate problems',
    severity: 'high',
    references: ['RFC 5280 §6', 'RFC 6125 §6', 'RFC 9325 §4.5'],
    fix: 'Serve a certificate from a trusted CA that covers the host name, with its intermediate certificates, a key of at least 2048 bits (RSA) and a SHA-256 signature.',
  },
};

function finding(
  id: VulnerabilityId,
  status: Vulnerability['status'],
  evidence: string,
  overrides: Partial<Pick<Definition, 'fix' | 'severity'>> = {},
): Vulnerability {
  const definition = definitions[id];
  return {
    id,
    title: definition.title,
    status,
    severity: overrides.severity ?? definition.severity,
    references: definition.references,
    evidence,
    fix: overrides.fix ?? definition.fix,
  };
}

/** Vulnerable when a suite matches; unknown when none does but a version could not be tested. */
function suiteFinding(
  id: VulnerabilityId,
  versions: readonly VersionScan[],
  test: SuitePredicate,
  clean: string,
  only?: readonly string[],
): Vulnerability {
  const lines = matching(versions, test, only);
  if (lines.length > 0) return finding(id, 'vulnerable', lines.join('; '));
  const unknown = untested(versions, only);
  return unknown.length > 0 ? finding(id, 'unknown', notTested(unknown)) : finding(id, 'ok', clean);
}

/** A version's own finding: vulnerable when accepted, unknown when it could not be tested. */
function versionFinding(
  id: VulnerabilityId,
  version: VersionScan | undefined,
  accepted: () => string,
  refusedWords: string,
): Vulnerability {
  if (version?.supported) return finding(id, 'vulnerable', accepted());
  if (version?.tested === false) return finding(id, 'unknown', notTested([version.version]));
  return finding(id, 'ok', refusedWords);
}

function earlyCcsFinding(probe: EarlyCcsProbe | undefined, versions: readonly VersionScan[]): Vulnerability {
  if (probe === undefined)
    return supports(versions, 'TLSv1.3')
      ? finding(
          'ccs-injection',
          'ok',
          'Only TLS 1.3 is accepted, which drops a ChangeCipherSpec unread (RFC 8446 §5): CVE-2014-0224 does not apply, so it was not tested.',
        )
      : finding(
          'ccs-injection',
          'unknown',
          'No TLS 1.0-1.2 or SSL 3.0 handshake succeeded, so the early ChangeCipherSpec probe did not run.',
        );
  if ('problem' in probe)
    return finding(
      'ccs-injection',
      'unknown',
      `The early ChangeCipherSpec probe (${probe.version}) could not run: ${probe.problem}.`,
    );
  const [first, second] = probe.verdict.answers;
  const answers = `to the first: ${first}; to a second: ${second}`;
  switch (probe.verdict.status) {
    case 'vulnerable':
      return finding(
        'ccs-injection',
        'vulnerable',
        `The server took a ChangeCipherSpec sent right after its ServerHelloDone, before any key exchange (${probe.version}), and could not decrypt what followed: ${answers}.`,
      );
    case 'ok':
      return finding(
        'ccs-injection',
        'ok',
        `The server did not take a ChangeCipherSpec sent before the key exchange (${probe.version}): ${answers}.`,
      );
    case 'unknown':
      return finding(
        'ccs-injection',
        'unknown',
        `The answers to a ChangeCipherSpec sent before the key exchange (${probe.version}) do not tell whether the server took it: ${answers}.`,
      );
  }
}

/** One finding per certificate; on a server with several, each titled with its key type. */
function certificateFindings(certificates: readonly CertificateScan[]): Vulnerability[] {
  if (certificates.length === 0)
    return [finding('certificate', 'unknown', 'No certificate could be read from the server.')];
  if (certificates.length === 1) return certificates.map(certificateFinding);
  return certificates.map((certificate) => {
    const found = certificateFinding(certificate);
    return { ...found, title: `${found.title} (${certificateLabel(certificate)})` };
  });
}

function certificateFinding(certificate: CertificateScan): Vulnerability {
  const problems: string[] = [];
  const leaf = certificate.chain[0];
  if (certificate.expired) problems.push(`the certificate expired on ${leaf?.validTo ?? '?'}`);
  if (certificate.notYetValid) problems.push(`the certificate is not valid before ${leaf?.validFrom ?? '?'}`);
  if (!certificate.nameMatches)
    problems.push(
      `the certificate does not cover the host name (it names ${leaf?.subjectAltNames.join(', ') || leaf?.subject || 'nothing'})`,
    );
  if (certificate.problem?.code === 'INCOMPLETE_CHAIN') problems.push(certificate.problem.message);
  if (leaf?.selfSigned) problems.push('the certificate is self-signed');
  else if (!certificate.trusted && certificate.problem !== undefined && !certificate.expired)
    problems.push(`the chain is not trusted: ${certificate.problem.message}`);
  if (leaf?.keyType === 'rsa' && leaf.keyBits !== undefined && leaf.keyBits < 2048)
    problems.push(`the RSA key has only ${leaf.keyBits} bits`);
  if (leaf?.signatureAlgorithm !== undefined && /md5|sha1With/i.test(leaf.signatureAlgorithm))
    problems.push(`the signature uses ${leaf.signatureAlgorithm}`);
  if (problems.length === 0)
    return finding(
      'certificate',
      'ok',
      `Trusted, valid until ${leaf?.validTo ?? '?'}, covers the host name.`,
    );
  return finding('certificate', 'vulnerable', `${problems.join('; ')}.`);
}

export function vulnerabilities(input: FindingInput): Vulnerability[] {
  const { versions, features } = input;
  const ssl2 = versions.find((version) => version.version === 'SSLv2');
  const ssl3Cbc = matching(versions, isCbc, ['SSLv3']);
  const smallDh = input.dhPrimeBits.filter((bits) => bits < 1024);
  const exportDh = matching(versions, isExportDh);
  const logjam = [...exportDh, ...(smallDh.length > 0 ? [`DH primes of ${smallDh.join(', ')} bits`] : [])];
  const legacyVersions = versions.filter(
    (version) => version.supported && version.version !== 'TLSv1.3' && version.version !== 'SSLv2',
  );
  const tlsVersions = versions.filter((version) => version.supported && version.version !== 'SSLv2');

  const list: Vulnerability[] = [
    versionFinding(
      'sslv2-drown',
      ssl2,
      () =>
        `SSL 2.0 is accepted with ${ssl2?.suites.map((suite) => suite.name).join(', ') || 'no cipher kinds'}.`,
      'SSL 2.0 is not accepted.',
    ),
    versionFinding(
      'sslv3-poodle',
      versions.find((version) => version.version === 'SSLv3'),
      () =>
        ssl3Cbc.length > 0
          ? `SSL 3.0 is accepted with CBC suites (${ssl3Cbc.join('; ')}).`
          : 'SSL 3.0 is accepted.',
      'SSL 3.0 is not accepted.',
    ),
    suiteFinding('tls10-beast', versions, isCbc, 'No CBC suite is accepted with TLS 1.0.', ['TLSv1.0']),
    suiteFinding('sweet32', versions, is64BitBlock, 'No 64-bit block cipher is accepted.'),
    suiteFinding('rc4', versions, isRc4, 'No RC4 suite is accepted.'),
    suiteFinding('freak', versions, isExportRsa, 'No export RSA suite is accepted.'),
    logjam.length > 0
      ? finding('logjam', 'vulnerable', logjam.join('; '))
      : untested(versions).length > 0
        ? finding('logjam', 'unknown', notTested(untested(versions)))
        : finding(
            'logjam',
            'ok',
            input.dhPrimeBits.length > 0
              ? `DH primes of ${[...new Set(input.dhPrimeBits)].join(', ')} bits.`
              : 'No finite-field DH suite is accepted.',
          ),
    suiteFinding('null-cipher', versions, isNull, 'No NULL encryption suite is accepted.'),
    suiteFinding('anonymous', versions, isAnonymous, 'No anonymous suite is accepted.'),
    features.compression === 'yes'
      ? finding('crime', 'vulnerable', 'The server chose DEFLATE compression (method 1) when offered.')
      : finding(
          'crime',
          features.compression === 'unknown' ? 'unknown' : 'ok',
          features.compression === 'unknown'
            ? 'The compression probe had no answer.'
            : 'The server chose no compression.',
        ),
    input.heartbleed === true
      ? finding(
          'heartbleed',
          'vulnerable',
          'The server answered a heartbeat request claiming 16384 bytes of payload (none sent) with memory contents.',
        )
      : input.heartbleed === false
        ? finding(
            'heartbleed',
            'ok',
            'The server negotiated heartbeat but did not answer the oversized request with data.',
          )
        : finding(
            'heartbleed',
            'ok',
            features.heartbeat === 'yes'
              ? 'The heartbeat probe got no answer.'
              : 'The heartbeat extension is not negotiated.',
          ),
    earlyCcsFinding(input.earlyCcs, versions),
    features.secureRenegotiation === 'no'
      ? finding(
          'insecure-renegotiation',
          'vulnerable',
          `The ServerHello of ${legacyVersions.map((version) => version.version).join(', ')} carries no renegotiation_info.`,
        )
      : finding(
          'insecure-renegotiation',
          features.secureRenegotiation === 'unknown' ? 'unknown' : 'ok',
          features.secureRenegotiation === 'not-applicable'
            ? 'TLS 1.3 only: renegotiation does not exist.'
            : 'The server answers with renegotiation_info.',
        ),
    features.fallbackScsv === 'no'
      ? finding(
          'no-fallback-scsv',
          'vulnerable',
          'A lower version offered with TLS_FALLBACK_SCSV was accepted instead of refused with inappropriate_fallback.',
        )
      : finding(
          'no-fallback-scsv',
          features.fallbackScsv === 'unknown' ? 'unknown' : 'ok',
          features.fallbackScsv === 'yes'
            ? 'A downgraded hello with TLS_FALLBACK_SCSV was refused with inappropriate_fallback.'
            : tlsVersions.length <= 1
              ? 'Only one protocol version is accepted: there is nothing to fall back to.'
              : 'The fallback probe had no clear answer.',
        ),
    ...certificateFindings(input.certificates),
  ];
  return list;
}
