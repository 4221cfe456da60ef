import { toValidationResult, type Diagnostic, type ValidationResult } from '../core/diagnostic.ts';
import { type CryptoProvider, webCryptoProvider } from '../core/crypto.ts';
import { findDnssecAlgorithm, isReservedAlgorithmNumber } from '../dnssec/algorithms.ts';
import { computeDsRecords } from '../dnssec/ds.ts';
import { dnskeyRdata, keyTag } from '../dnssec/key-tag.ts';
import { parseDnskey, type DnskeyPresentation } from './parse.ts';
import { checkPublicKey } from '../dnssec/public-key.ts';
import type { AlgorithmStatus, DsRecord, ImplementationStatus } from '../dnssec/types.ts';
import type { DnskeyKeyType, DnskeyParsed } from './types.ts';

const zoneKeyBit = 0x0100; // bit 7
const revokeBit = 0x0080; // bit 8
const sepBit = 0x0001; // bit 15
const reservedBits = 0xffff & ~(zoneKeyBit | revokeBit | sepBit);

/**
 * Validates a pasted DNSKEY record (RFC 4034 §2) and derives its key tag (Appendix B) and DS
 * records (§5.1.4, RFC 4509, RFC 6605). Checks the flags (RFC 4034 §2.1.1, RFC 5011 §7), the
 * protocol (§2.1.2), the algorithm's requirement level (RFC 8624 §3.1, RFC 9905) and the
 * public key's structure for its algorithm (RFC 3110, RFC 5702, RFC 6605, RFC 8080).
 *
 * `parsed` is present whenever flags, protocol, algorithm and public key could be read, even if
 * checks failed. DS records need the owner name, which is part of the digest: without one,
 * `ds` is empty and an info diagnostic says why.
 */
export interface DnskeyValidateOptions {
  /** Hashing and curve checks; Web Crypto when not given. */
  crypto?: CryptoProvider;
}

export async function validateDnskey(
  record: string,
  options: DnskeyValidateOptions = {},
): Promise<ValidationResult<DnskeyParsed>> {
  const crypto = options.crypto ?? webCryptoProvider();
  const { record: fields, diagnostics } = parseDnskey(record);
  if (!fields) return toValidationResult<DnskeyParsed>(diagnostics);

  const { flags, protocol, algorithm, publicKey, spans } = fields;
  const flagBits = {
    zoneKey: (flags & zoneKeyBit) !== 0,
    secureEntryPoint: (flags & sepBit) !== 0,
    revoked: (flags & revokeBit) !== 0,
  };
  const keyType: DnskeyKeyType = !flagBits.zoneKey
    ? 'Non-zone key'
    : flagBits.secureEntryPoint
      ? 'KSK'
      : 'ZSK';
  diagnostics.push(...flagDiagnostics(flags, flagBits, keyType, spans.flags));

  if (protocol !== 3) {
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_PROTOCOL_NOT_3',
      message: `Protocol must be 3; found ${protocol}. Validators treat any other value as an invalid key`,
      requirement: 'MUST',
      rfc: 'RFC 4034 §2.1.2',
      fix: 'Write 3 as the second field.',
      span: spans.protocol,
    });
  }

  const {
    name: algorithmName,
    status: algorithmStatus,
    diagnostics: algorithmFindings,
  } = describeAlgorithm(algorithm, fields);
  diagnostics.push(...algorithmFindings);

  const keyCheck = checkPublicKey(algorithm, publicKey, spans.publicKey);
  diagnostics.push(...keyCheck.diagnostics);

  const rdata = dnskeyRdata(flags, protocol, algorithm, publicKey);
  const tag = keyTag(rdata);

  // RFC 4034 §5.2: a DS refers to a zone key only; the Zone Key error already says so.
  let ds: DsRecord[] = [];
  if (flagBits.zoneKey) ds = await dsRecords(fields, rdata, tag, diagnostics, crypto);
  if (keyType === 'ZSK') {
    diagnostics.push({
      severity: 'info',
      code: 'DNSKEY_DS_FOR_KSK',
      message:
        'This is a zone-signing key (flags 256). The DS in the parent zone usually points at the key-signing key (flags 257, SEP bit set)',
      rfc: 'RFC 4034 §2.1.1',
      fix: 'Publish the DS of your KSK unless your zone signs everything with this single key.',
    });
  }

  const parsed: DnskeyParsed = {
    ownerName: fields.ownerName?.text ?? null,
    ttl: fields.ttl,
    keyType,
    flags,
    flagBits,
    protocol,
    algorithm,
    algorithmName,
    algorithmStatus,
    keyTag: tag,
    keySize: keyCheck.keySize,
    publicKeyBytes: publicKey.length,
    ds,
  };
  return toValidationResult(diagnostics, parsed);
}

/** DS records when they can be computed; otherwise a diagnostic saying why not. */
async function dsRecords(
  fields: DnskeyPresentation,
  rdata: Uint8Array,
  tag: number,
  diagnostics: Diagnostic[],
  crypto: CryptoProvider | undefined,
): Promise<DsRecord[]> {
  const { flags, protocol, algorithm } = fields;
  if (!fields.ownerName) {
    diagnostics.push({
      severity: 'info',
      code: 'DNSKEY_DS_NEEDS_OWNER',
      message:
        'DS records were not computed: their digest covers the owner name, and this record has no usable one',
      rfc: 'RFC 4034 §5.1.4',
      fix: `Paste the full zone-file line with the owner name first, e.g. 'example.com. 3600 IN DNSKEY ${flags} ${protocol} ${algorithm} <public key>'.`,
    });
    return [];
  }
  if (!crypto) {
    diagnostics.push({
      severity: 'warning',
      code: 'DNSKEY_WEBCRYPTO_UNAVAILABLE',
      message:
        'DS records were not computed: Web Crypto is unavailable here (browsers offer it only over HTTPS)',
      fix: 'Open the tool over HTTPS, or use the API.',
    });
    return [];
  }
  diagnostics.push({
    severity: 'info',
    code: 'DNSKEY_DS_SHA1',
    message: 'The SHA-1 DS (digest type 1) is shown for reference only: it MUST NOT be used for delegations',
    requirement: 'MUST NOT',
    rfc: 'RFC 8624 §3.3',
    fix: 'Give your registrar the SHA-256 DS (digest type 2).',
  });
  return computeDsRecords(fields.ownerName, fields.ttl, rdata, tag, algorithm, crypto);
}

function flagDiagnostics(
  flags: number,
  bits: DnskeyParsed['flagBits'],
  keyType: DnskeyKeyType,
  span: DnskeyPresentation['spans']['flags'],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const set: string[] = [];
  if (bits.zoneKey) set.push('Zone Key (bit 7, 256)');
  if (bits.revoked) set.push('REVOKE (bit 8, 128)');
  if (bits.secureEntryPoint) set.push('Secure Entry Point (bit 15, 1)');
  const meaning =
    keyType === 'KSK'
      ? 'a key-signing key (KSK). The SEP bit only tells tools that the DS should point at this key; validators ignore it'
      : keyType === 'ZSK'
        ? 'a zone-signing key (ZSK)'
        : 'not a DNSSEC zone key';
  out.push({
    severity: 'info',
    code: 'DNSKEY_FLAGS',
    message: `Flags ${flags}: ${set.length ? set.join(' + ') : 'no bits set'}, ${meaning}`,
    rfc: 'RFC 4034 §2.1.1',
    span,
  });
  if (!bits.zoneKey) {
    out.push({
      severity: 'error',
      code: 'DNSKEY_FLAGS_NO_ZONE_KEY',
      message: `The Zone Key flag (bit 7, value 256) is not set in flags ${flags}: the key MUST NOT be used to verify RRSIGs, and no DS may point at it`,
      requirement: 'MUST NOT',
      rfc: 'RFC 4034 §2.1.1',
      fix: 'Use flags 257 for a key-signing key or 256 for a zone-signing key.',
      span,
    });
  }
  const reserved = flags & reservedBits;
  if (reserved !== 0) {
    const positions = [...Array(16).keys()].filter((bit) => reserved & (0x8000 >> bit));
    out.push({
      severity: 'error',
      code: 'DNSKEY_FLAGS_RESERVED_BITS',
      message: `Reserved flag bit${positions.length > 1 ? 's' : ''} ${positions.join(', ')} set (value ${reserved}): they must be 0 when a key is created, and validators ignore them`,
      requirement: 'MUST',
      rfc: 'RFC 4034 §2.1.1',
      fix: `Use flags ${flags & ~reservedBits} (257 for a KSK, 256 for a ZSK).`,
      span,
    });
  }
  if (bits.revoked) {
    out.push({
      severity: 'warning',
      code: 'DNSKEY_FLAGS_REVOKED',
      message:
        'The REVOKE bit (bit 8, value 128) is set: resolvers that track trust anchors (RFC 5011) drop this key for good. ' +
        'Setting it changes the key tag, and the key should only sign the DNSKEY set that announces its revocation',
      rfc: 'RFC 5011 §2.1',
      fix: 'Publish a revoked key only to retire a trust anchor; point the DS at a key without the REVOKE bit.',
      span,
    });
  }
  return out;
}

const levelWords: Record<ImplementationStatus, Diagnostic['requirement']> = {
  MUST: 'MUST',
  'MUST NOT': 'MUST NOT',
  SHOULD: 'SHOULD',
  'SHOULD NOT': 'SHOULD NOT',
  MAY: 'MAY',
  RECOMMENDED: 'SHOULD',
  'NOT RECOMMENDED': 'SHOULD NOT',
};

function describeAlgorithm(
  number: number,
  fields: DnskeyPresentation,
): { name: string; status: AlgorithmStatus; diagnostics: Diagnostic[] } {
  const span = fields.spans.algorithm;
  const entry = findDnssecAlgorithm(number);
  const better = 'Sign with ECDSAP256SHA256 (13) or ED25519 (15); RSASHA256 (8) if you need RSA.';
  if (!entry) {
    const kind = isReservedAlgorithmNumber(number) ? 'Reserved' : 'Unassigned';
    return {
      name: kind,
      status: { signing: null, validation: null, rfc: 'IANA DNS Security Algorithm Numbers' },
      diagnostics: [
        {
          severity: 'error',
          code: 'DNSKEY_ALGORITHM_UNASSIGNED',
          message: `Algorithm ${number} is ${kind.toLowerCase()} in the IANA registry: no validator can use this key`,
          requirement: 'MUST',
          rfc: 'RFC 4034 Appendix A.1',
          fix: better,
          span,
        },
      ],
    };
  }
  const { mnemonic, status } = entry;
  const label = `Algorithm ${number} (${mnemonic})`;
  const diagnostics: Diagnostic[] = [];
  if (!entry.zoneSigning) {
    const extra =
      number === 0 ? "; '0 3 0 AA==' is the CDNSKEY that asks the parent to delete the DS (RFC 8078 §4)" : '';
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_ALGORITHM_NOT_FOR_ZONES',
      message: `${label} cannot sign zones${extra}`,
      requirement: 'MUST NOT',
      rfc: entry.definedIn,
      fix: better,
      span,
    });
  } else if (status.signing === 'MUST NOT') {
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_ALGORITHM_MUST_NOT',
      message: `${label} MUST NOT be used to sign zones${number === 5 || number === 7 ? ' (SHA-1 signatures were deprecated in 2025)' : ''}`,
      requirement: 'MUST NOT',
      rfc: status.rfc,
      fix: `Roll the zone to a new algorithm (RFC 6781 §4.1.4). ${better}`,
      span,
    });
  } else if (status.signing === 'NOT RECOMMENDED') {
    diagnostics.push({
      severity: 'warning',
      code: 'DNSKEY_ALGORITHM_NOT_RECOMMENDED',
      message: `${label} is NOT RECOMMENDED for signing zones, although validators still support it`,
      requirement: 'SHOULD NOT',
      rfc: status.rfc,
      fix: `At the next algorithm roll: ${better}`,
      span,
    });
  } else if (number === 253 || number === 254) {
    diagnostics.push({
      severity: 'warning',
      code: 'DNSKEY_ALGORITHM_PRIVATE',
      message: `${label} is a private algorithm: validators that do not know it treat the zone as unsigned`,
      rfc: 'RFC 4035 §5.2',
      fix: better,
      span,
    });
  } else if (status.signing === null) {
    diagnostics.push({
      severity: 'warning',
      code: 'DNSKEY_ALGORITHM_NO_RECOMMENDATION',
      message: `${label} (${entry.description}, ${entry.definedIn}) has no IETF implementation requirement and few validators support it; where it is unsupported the zone counts as unsigned`,
      rfc: 'RFC 4035 §5.2',
      fix: better,
      span,
    });
  } else {
    const requirement = levelWords[status.signing];
    diagnostics.push({
      severity: 'info',
      code: 'DNSKEY_ALGORITHM_STATUS',
      message: `${label}, ${entry.description}: ${status.signing} for signing zones and ${status.validation ?? 'no level'} for validators`,
      ...(requirement ? { requirement } : {}),
      rfc: status.rfc,
      span,
    });
  }
  return { name: mnemonic, status, diagnostics };
}
