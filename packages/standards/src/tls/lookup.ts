// Look-ups in the cipher-suite database: by code point, by name in any of the three naming
// schemes (IANA, OpenSSL, GnuTLS) and by the hex forms people paste.
import type { CipherSuite } from './suite.ts';
import { cipherSuites } from './suites.ts';

let byCode: Map<number, CipherSuite> | undefined;
let byName: Map<string, CipherSuite> | undefined;

// built on first use, so that importing the package costs nothing for code that never looks up
function codeIndex(): Map<number, CipherSuite> {
  byCode ??= new Map(cipherSuites.map((suite) => [suite.code, suite]));
  return byCode;
}

function nameIndex(): Map<string, CipherSuite> {
  if (byName) return byName;
  byName = new Map();
  for (const suite of cipherSuites)
    for (const name of [suite.iana, suite.openssl, suite.gnutls])
      // an IANA name wins over an OpenSSL or GnuTLS alias that happens to be spelt the same
      if (name !== null && !byName.has(name.toUpperCase())) byName.set(name.toUpperCase(), suite);
  return byName;
}

/** The suite with this two-byte code point (0xC02F), or undefined for an unassigned one. */
export function suiteByCode(code: number): CipherSuite | undefined {
  return codeIndex().get(code);
}

/** The suite by its IANA, OpenSSL or GnuTLS name, case-insensitive, surrounding blanks ignored. */
export function suiteByName(name: string): CipherSuite | undefined {
  return nameIndex().get(name.trim().toUpperCase());
}

/**
 * The code point of hex text: `0xC0,0x2F` (IANA), `C0,2F`, `0xc02f`, `c02f`, `0xC0 0x2F`.
 * Undefined unless it names exactly two bytes.
 */
export function parseSuiteHex(text: string): number | undefined {
  const trimmed = withoutBraces(text);
  const pair = /^(?:0x)?([0-9a-f]{1,2})\s*[,:\s]\s*(?:0x)?([0-9a-f]{1,2})$/i.exec(trimmed);
  if (pair) return parseInt(pair[1] ?? '', 16) * 256 + parseInt(pair[2] ?? '', 16);
  const single = /^(?:0x)?([0-9a-f]{4})$/i.exec(trimmed);
  return single ? parseInt(single[1] ?? '', 16) : undefined;
}

// RFCs print code points in braces: {0xC0,0x2F} (RFC 5289 §3)
function withoutBraces(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1).trim() : trimmed;
}

/**
 * The three-byte SSL 2.0 CIPHER-KIND of hex text: `0x01,0x00,0x80`, `{0x01,0x00,0x80}`, `010080`,
 * `0x010080`. Undefined unless it names exactly three bytes.
 */
export function parseSsl2KindHex(text: string): number | undefined {
  const trimmed = withoutBraces(text);
  const triple =
    /^(?:0x)?([0-9a-f]{1,2})\s*[,:\s]\s*(?:0x)?([0-9a-f]{1,2})\s*[,:\s]\s*(?:0x)?([0-9a-f]{1,2})$/i.exec(
      trimmed,
    );
  if (triple)
    return (
      parseInt(triple[1] ?? '', 16) * 0x10000 +
      parseInt(triple[2] ?? '', 16) * 0x100 +
      parseInt(triple[3] ?? '', 16)
    );
  const single = /^(?:0x)?([0-9a-f]{6})$/i.exec(trimmed);
  return single ? parseInt(single[1] ?? '', 16) : undefined;
}

/** The suite by hex text in any form parseSuiteHex reads. */
export function suiteByHex(text: string): CipherSuite | undefined {
  const code = parseSuiteHex(text);
  return code === undefined ? undefined : suiteByCode(code);
}

/** The suite by whatever the user typed: a name in any scheme, or a hex code point. */
export function findSuite(text: string): CipherSuite | undefined {
  return suiteByName(text) ?? suiteByHex(text);
}

/** The IANA form of a code point: `0xC0,0x2F`. */
export function formatSuiteHex(code: number): string {
  const byte = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return `${byte((code >> 8) & 0xff)},${byte(code & 0xff)}`;
}

/** The counts of the TLS cipher tool's summary card (spec part 2 §2). */
export interface SuiteSummary {
  total: number;
  high: number;
  pfs: number;
  /** IANA Recommended = Y. */
  recommended: number;
}

export function suiteSummary(suites: readonly CipherSuite[] = cipherSuites): SuiteSummary {
  let high = 0;
  let pfs = 0;
  let recommended = 0;
  for (const suite of suites) {
    if (suite.security === 'HIGH') high++;
    if (suite.pfs) pfs++;
    if (suite.ianaRecommended) recommended++;
  }
  return { total: suites.length, high, pfs, recommended };
}
