import { decodeBase64 } from '../core/base64.ts';
import { UnsupportedSchemeError, type CryptoProvider } from '../core/crypto.ts';
import type { DnsDnskeyRecord, DnsRecord, DnsRrsigRecord } from '../core/resolver.ts';
import { findDnssecAlgorithm } from './algorithms.ts';
import { dnskeyPublicKey, keyTagOf } from './key-tag.ts';
import type { SignatureOutcome, SignatureView } from './schema.ts';
import { dnskeySpki, dnssecVerifier } from './spki.ts';
import {
  ancestorName,
  canonicalRdata,
  compareCanonicalNames,
  compareOctets,
  labelCount,
  nameToWire,
  normalName,
  typeCode,
} from './wire.ts';

/** What one RRSIG came to, with the key that checked it when one was found. */
export interface SignatureCheck {
  signature: DnsRrsigRecord;
  outcome: SignatureOutcome;
  message: string;
  key?: DnsDnskeyRecord;
}

export interface RrsetVerification {
  /** At least one RRSIG verified with one of `keys` inside its validity window (RFC 4035 §5.3). */
  valid: boolean;
  checks: SignatureCheck[];
  /** Set when the valid signature shows the set was expanded from a wildcard (labels < owner labels): the wildcard owner, e.g. '*.example.com'. */
  wildcard: string | null;
}

const zoneKeyFlag = 0x0100;
const revokeFlag = 0x0080;
const classIn = 1;

/** `a` before `b` in RFC 1982 serial-number arithmetic on 32 bits, as RFC 4034 §3.1.5 compares signature times. */
export function serialBefore(a: number, b: number): boolean {
  const x = a >>> 0;
  const y = b >>> 0;
  return x !== y && ((x < y && y - x < 2 ** 31) || (x > y && x - y > 2 ** 31));
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function uint16(value: number): number[] {
  return [(value >> 8) & 0xff, value & 0xff];
}

function uint32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** RRSIG RDATA without the Signature field (RFC 4034 §3.1.8.1), the signer name in canonical form. */
function rrsigPrefix(signature: DnsRrsigRecord, covered: number): Uint8Array {
  return Uint8Array.from([
    ...uint16(covered),
    signature.algorithm,
    signature.labels,
    ...uint32(signature.originalTtl),
    ...uint32(signature.expiration),
    ...uint32(signature.inception),
    ...uint16(signature.keyTag),
    ...nameToWire(signature.signerName),
  ]);
}

/**
 * The octets an RRSIG signs (RFC 4034 §3.1.8.1): its RDATA without the signature, then every RR of the
 * set in canonical form and order (RFC 4034 §6.2, §6.3): owner (the wildcard when Labels is smaller
 * than the owner's label count, RFC 4035 §5.3.2), type, class, original TTL, RDATA length and RDATA,
 * sorted by RDATA with duplicates dropped. Undefined when a record lacks its received RDATA.
 */
export function signedData(rrset: readonly DnsRecord[], signature: DnsRrsigRecord): Uint8Array | undefined {
  const covered = typeCode(signature.typeCovered);
  const first = rrset[0];
  if (covered === undefined || !first) return undefined;
  const ownerLabels = labelCount(first.name);
  const owner =
    signature.labels < ownerLabels
      ? nameToWire(signature.labels === 0 ? '*' : `*.${ancestorName(first.name, signature.labels)}`)
      : nameToWire(first.name);
  const rdatas: Uint8Array[] = [];
  for (const record of rrset) {
    const rdata = canonicalRdata(record);
    if (!rdata) return undefined;
    rdatas.push(rdata);
  }
  rdatas.sort(compareOctets);
  const unique = rdatas.filter((rdata, i) => i === 0 || compareOctets(rdata, rdatas[i - 1] ?? rdata) !== 0);
  const fixed = [...uint16(covered), ...uint16(classIn), ...uint32(signature.originalTtl)];
  const parts = [rrsigPrefix(signature, covered)];
  for (const rdata of unique) parts.push(owner, Uint8Array.from([...fixed, ...uint16(rdata.length)]), rdata);
  const data = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    data.set(part, at);
    at += part.length;
  }
  return data;
}

function check(
  signature: DnsRrsigRecord,
  outcome: SignatureOutcome,
  message: string,
  key?: DnsDnskeyRecord,
): SignatureCheck {
  return key ? { signature, outcome, message, key } : { signature, outcome, message };
}

function describe(signature: DnsRrsigRecord): string {
  return `RRSIG ${signature.typeCovered} (key tag ${signature.keyTag}, algorithm ${signature.algorithm})`;
}

/** Checks one RRSIG over `rrset` with the keys of `zone` (RFC 4035 §5.3.1, §5.3.3). */
async function checkSignature(
  rrset: readonly DnsRecord[],
  signature: DnsRrsigRecord,
  keys: readonly DnsDnskeyRecord[],
  options: { zone: string; now: number; crypto: CryptoProvider },
): Promise<SignatureCheck> {
  const what = describe(signature);
  const first = rrset[0];
  if (!first || signature.typeCovered.toUpperCase() !== first.type) {
    return check(
      signature,
      'malformed',
      `${what} covers ${signature.typeCovered}, not the ${first?.type ?? 'empty'} set it was given for (RFC 4035 §5.3.1)`,
    );
  }
  if (compareCanonicalNames(signature.signerName, options.zone) !== 0) {
    return check(
      signature,
      'signer-mismatch',
      `${what} names ${normalName(signature.signerName)} as signer, but the records belong to zone ${normalName(options.zone)}: the signer must be the zone that holds them (RFC 4035 §5.3.1)`,
    );
  }
  const ownerLabels = labelCount(first.name);
  if (signature.labels > ownerLabels) {
    return check(
      signature,
      'labels-mismatch',
      `${what} has a Labels field of ${signature.labels}, more than the ${ownerLabels} labels of ${normalName(first.name)} (RFC 4035 §5.3.1)`,
    );
  }
  const verifier = dnssecVerifier(signature.algorithm);
  const algorithm = findDnssecAlgorithm(signature.algorithm)?.mnemonic ?? `algorithm ${signature.algorithm}`;
  if (!verifier || !options.crypto.verify) {
    return check(
      signature,
      'unsupported-algorithm',
      verifier
        ? `${what}: this runtime cannot verify signatures`
        : `${what}: ${algorithm} is not one a validator implements (RFC 8624 §3.1 lists 5, 7, 8, 10, 13, 14, 15, 16); the set counts as unsigned with it (RFC 4035 §5.2)`,
    );
  }
  const candidates = keys.filter(
    (key) =>
      key.algorithm === signature.algorithm &&
      key.protocol === 3 &&
      (key.flags & zoneKeyFlag) !== 0 &&
      (key.flags & revokeFlag) === 0 &&
      keyTagOf(key) === signature.keyTag,
  );
  if (candidates.length === 0) {
    return check(
      signature,
      'no-key',
      `${what}: zone ${normalName(options.zone)} publishes no DNSKEY with key tag ${signature.keyTag} and algorithm ${signature.algorithm} (RFC 4035 §5.3.1)`,
    );
  }
  if (serialBefore(options.now, signature.inception)) {
    return check(
      signature,
      'not-yet-valid',
      `${what} is valid only from ${iso(signature.inception)}, after the time of checking (RFC 4035 §5.3.1)`,
      candidates[0],
    );
  }
  if (serialBefore(signature.expiration, options.now)) {
    return check(
      signature,
      'expired',
      `${what} expired at ${iso(signature.expiration)} (RFC 4035 §5.3.1); the zone must be re-signed`,
      candidates[0],
    );
  }
  const decoded = decodeBase64(signature.signature);
  const data = signedData(rrset, signature);
  if (
    !decoded.ok ||
    !data ||
    (verifier.signatureLength !== null && decoded.bytes.length !== verifier.signatureLength)
  ) {
    const reason = !decoded.ok
      ? 'its signature is not base64'
      : !data
        ? 'a record of the set came without its RDATA or with a type that cannot be encoded'
        : `the signature has ${decoded.bytes.length} octets where ${algorithm} signatures have ${verifier.signatureLength}`;
    return check(signature, 'malformed', `${what} cannot be checked: ${reason}`, candidates[0]);
  }
  try {
    for (const key of candidates) {
      const publicKey = dnskeyPublicKey(key);
      const spki = publicKey && dnskeySpki(key.algorithm, publicKey);
      if (spki && (await options.crypto.verify(verifier.scheme, spki, decoded.bytes, data))) {
        return check(
          signature,
          'valid',
          `${what} verifies, valid ${iso(signature.inception)} to ${iso(signature.expiration)}`,
          key,
        );
      }
    }
  } catch (error) {
    if (!(error instanceof UnsupportedSchemeError)) throw error;
    return check(signature, 'unsupported-algorithm', `${what}: ${error.message}`, candidates[0]);
  }
  return check(
    signature,
    'bad-signature',
    `${what} does not verify with the DNSKEY of that tag: the records or the signature were altered, or were signed with another key`,
    candidates[0],
  );
}

/** Verifies the RRSIGs over one RRset with the zone's keys (RFC 4035 §5.3); one valid signature suffices. */
export async function verifyRrset(
  rrset: readonly DnsRecord[],
  signatures: readonly DnsRrsigRecord[],
  keys: readonly DnsDnskeyRecord[],
  options: { zone: string; now: number; crypto: CryptoProvider },
): Promise<RrsetVerification> {
  const checks: SignatureCheck[] = [];
  for (const signature of signatures) checks.push(await checkSignature(rrset, signature, keys, options));
  const valid = checks.find((c) => c.outcome === 'valid');
  const first = rrset[0];
  let wildcard: string | null = null;
  if (valid && first && valid.signature.labels < labelCount(first.name)) {
    wildcard = valid.signature.labels === 0 ? '*' : `*.${ancestorName(first.name, valid.signature.labels)}`;
  }
  return { valid: valid !== undefined, checks, wildcard };
}

/** The schema view of a signature check. */
export function signatureView(check: SignatureCheck): SignatureView {
  const { signature } = check;
  return {
    typeCovered: signature.typeCovered,
    keyTag: signature.keyTag,
    algorithm: signature.algorithm,
    algorithmName: findDnssecAlgorithm(signature.algorithm)?.mnemonic ?? 'Unassigned',
    signer: normalName(signature.signerName),
    inception: iso(signature.inception),
    expiration: iso(signature.expiration),
    outcome: check.outcome,
    message: check.message,
  };
}
