// Generates packages/standards/src/tls/suites.ts, the cipher-suite database, from the TLS
// conformance data (CONFORMANCE_DIR, default ../shared/conformance, folder tls/):
//
//   node scripts/generate-tls-suites.ts           writes the file
//   node scripts/generate-tls-suites.ts --check   exits 1 when the file is out of date
//
// scripts/generate-tls-suites.test.ts regenerates in memory and compares, so the committed file
// cannot drift from the data.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type CiphersuiteInfoRating,
  type CipherSuite,
  type MozillaProfile,
  type ProtocolVersionName,
  type SuiteWeakness,
  keyBitsOf,
  securityLevelOf,
} from '../packages/standards/src/tls/suite.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
export const suitesFile = path.join(repoRoot, 'packages/standards/src/tls/suites.ts');
/** The newest Mozilla guidelines that still define all three profiles (6.0 dropped `old`). */
export const mozillaVersion = '5.8';

export function conformanceDir(): string {
  return path.resolve(repoRoot, process.env.CONFORMANCE_DIR ?? '../shared/conformance');
}

interface DerivedSuite {
  hex: string;
  value: number;
  iana: string;
  openssl: string | null;
  gnutls: string | null;
  protocol: string;
  kex: string;
  auth: string;
  enc: string;
  hash: string;
  pfs: boolean;
  aead: boolean;
  tlsVersions: string[];
  opensslMinProtocol: string | null;
  ciphersuiteInfoSecurity: CiphersuiteInfoRating;
  vulnerabilities: SuiteWeakness[];
}

interface IanaRow {
  hex: string;
  code: number;
  name: string;
  dtlsOk: boolean;
  recommended: boolean;
  reference: string;
}

interface MozillaGuidelines {
  configurations: Record<string, { ciphers: { iana?: string[] }; ciphersuites: string[] }>;
}

/** RFC 4180 fields of one line (quotes, doubled quotes); the registry has no multi-line field. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/** The assigned single code points of the IANA registry; ranges (Unassigned, Reserved) skipped. */
function ianaRows(csv: string): Map<number, IanaRow> {
  const rows = new Map<number, IanaRow>();
  for (const line of csv.split(/\r?\n/).slice(1)) {
    if (line.trim() === '') continue;
    const [value = '', name = '', dtls = '', recommended = '', reference = ''] = csvFields(line);
    const match = /^0x([0-9A-F]{2}),0x([0-9A-F]{2})$/i.exec(value);
    if (!match || !name.startsWith('TLS_') || name.includes('FALLBACK') || name.includes('EMPTY')) continue;
    const code = parseInt(`${match[1]}${match[2]}`, 16);
    rows.set(code, {
      hex: value,
      code,
      name,
      dtlsOk: dtls === 'Y',
      recommended: recommended === 'Y',
      reference,
    });
  }
  return rows;
}

const versionNames: Record<string, ProtocolVersionName> = {
  'TLS1.0': 'TLSv1.0',
  'TLS1.1': 'TLSv1.1',
  'TLS1.2': 'TLSv1.2',
  'TLS1.3': 'TLSv1.3',
};

function macOf(suite: DerivedSuite): string {
  if (suite.aead) return 'AEAD';
  if (suite.hash === 'SHA') return 'SHA1';
  if (suite.iana.endsWith('_OMAC')) return 'OMAC'; // RFC 9189 §4.1
  if (suite.iana.endsWith('_IMIT')) return 'IMIT'; // RFC 9189 §4.1 (GOST 28147-89 MAC)
  return suite.hash;
}

function buildSuites(dir: string): CipherSuite[] {
  const tls = path.join(dir, 'tls');
  const iana = ianaRows(readFileSync(path.join(tls, 'iana-tls-cipher-suites.csv'), 'utf8'));
  const derived = (
    JSON.parse(readFileSync(path.join(tls, 'cipher-suites-derived.json'), 'utf8')) as {
      suites: DerivedSuite[];
    }
  ).suites;
  const guidelines = JSON.parse(
    readFileSync(path.join(tls, `mozilla/guidelines-${mozillaVersion}.json`), 'utf8'),
  ) as MozillaGuidelines;
  const profiles: MozillaProfile[] = ['modern', 'intermediate', 'old'];
  const listed = new Map(
    profiles.map((profile) => {
      const configuration = guidelines.configurations[profile];
      if (!configuration) throw new Error(`Mozilla guidelines ${mozillaVersion} have no ${profile} profile`);
      return [profile, new Set([...(configuration.ciphers.iana ?? []), ...configuration.ciphersuites])];
    }),
  );

  const suites = derived.map((suite): CipherSuite => {
    const row = iana.get(suite.value);
    if (!row || row.name !== suite.iana || row.hex !== suite.hex)
      throw new Error(`${suite.hex} ${suite.iana} does not match the IANA registry`);
    const keyBits = keyBitsOf(suite.enc);
    if (keyBits === undefined) throw new Error(`no key size known for cipher "${suite.enc}" (${suite.iana})`);
    const versions: ProtocolVersionName[] = suite.tlsVersions.map((version) => {
      const name = versionNames[version];
      if (!name) throw new Error(`unknown version ${version} (${suite.iana})`);
      return name;
    });
    // SSL 3.0 defined 0x0000-0x001B (RFC 6101 §A.6); OpenSSL's table (ciphersuite.info's
    // 02_openssl_ciphers.yaml) adds the later suites it also offers in SSL 3.0 (AES, RFC 3268)
    if (suite.value <= 0x1b || suite.opensslMinProtocol === 'SSL3') versions.unshift('SSLv3');
    return {
      code: suite.value,
      hex: suite.hex,
      iana: suite.iana,
      openssl: suite.openssl,
      gnutls: suite.gnutls,
      keyExchange: suite.kex,
      authentication: suite.auth,
      cipher: suite.enc,
      keyBits,
      mac: macOf(suite),
      hash: suite.hash,
      aead: suite.aead,
      pfs: suite.pfs,
      export: suite.protocol.includes('EXPORT'),
      versions,
      rating: suite.ciphersuiteInfoSecurity,
      weaknesses: suite.vulnerabilities.map(({ component, name, severity }) => ({
        component,
        name,
        severity,
      })),
      security: securityLevelOf(suite.ciphersuiteInfoSecurity, suite.vulnerabilities, suite.enc),
      ianaRecommended: row.recommended,
      dtlsOk: row.dtlsOk,
      reference: row.reference,
      mozilla: profiles.filter((profile) => listed.get(profile)?.has(suite.iana)),
    };
  });
  for (const [profile, names] of listed)
    for (const name of names)
      if (!suites.some((suite) => suite.iana === name))
        throw new Error(`Mozilla ${profile} lists ${name}, which is not in the database`);
  return suites.sort((a, b) => a.code - b.code);
}

const header = `// GENERATED by scripts/generate-tls-suites.ts — do not edit; run
// \`node scripts/generate-tls-suites.ts\` after the data changes.
//
// Sources (../shared/conformance/tls, see its README.md) and their licences:
// - iana-tls-cipher-suites.csv: the IANA TLS Cipher Suites registry (public registry data):
//   code points, names, Recommended, DTLS-OK, Reference.
// - cipher-suites-derived.json, built from ciphersuite.info's fixtures (hcrudolph/ciphersuite.info,
//   MIT licence, Copyright (c) Hans Christian Rudolph): OpenSSL and GnuTLS names, the split into
//   key exchange / authentication / cipher / hash, AEAD, PFS, TLS versions, OpenSSL's minimum
//   protocol, the rating and its weaknesses.
// - mozilla/guidelines-${mozillaVersion}.json: Mozilla Server Side TLS profiles (mozilla/ssl-config-generator,
//   MPL-2.0): the names listed per profile only.
// The derived file's \`encBits\` comes from testssl.sh's GPL-2.0 mapping file and is NOT copied:
// keyBits is worked out from the cipher's name by keyBitsOf (suite.ts); the conformance test
// only compares the two.
// The security level is securityLevelOf (suite.ts) applied to the rating.
`;

/** The source text of suites.ts for the data in `dir`. */
export function generateSuitesSource(dir: string = conformanceDir()): string {
  const suites = buildSuites(dir);
  const lines = suites.map((suite) => `  ${JSON.stringify(suite)},`);
  return `${header}import type { CipherSuite, MozillaProfile } from './suite.ts';

/** The Mozilla Server Side TLS guidelines version the \`mozilla\` profiles come from. */
export const mozillaGuidelinesVersion = '${mozillaVersion}';

/** The Mozilla profiles of that version, in order from strictest to most compatible. */
export const mozillaProfiles: readonly MozillaProfile[] = ['modern', 'intermediate', 'old'];

/** Every IANA-assigned cipher suite (${suites.length}), by code point. */
export const cipherSuites: readonly CipherSuite[] = [
${lines.join('\n')}
];
`;
}

if (import.meta.main) {
  const source = generateSuitesSource();
  if (process.argv.includes('--check')) {
    const current = readFileSync(suitesFile, 'utf8');
    if (current !== source) {
      console.error(
        `${path.relative(repoRoot, suitesFile)} is out of date: run node scripts/generate-tls-suites.ts`,
      );
      process.exit(1);
    }
    console.log(`${path.relative(repoRoot, suitesFile)} is up to date`);
  } else {
    writeFileSync(suitesFile, source);
    console.log(`wrote ${path.relative(repoRoot, suitesFile)}`);
  }
}
