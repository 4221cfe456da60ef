import type { CryptoProvider, DigestAlgorithm } from '../core/crypto.ts';
import type { DnsName } from '../core/dns-name.ts';
import { toHex } from '../core/hex.ts';
import type { DnsDnskeyRecord, DnsDsRecord } from '../core/resolver.ts';
import { dsDigestAlgorithms } from './algorithms.ts';
import { dnskeyRdataOf, keyTagOf } from './key-tag.ts';
import type { DsRecord } from './types.ts';
import { nameToWire } from './wire.ts';

/** `HASH(canonical owner name | DNSKEY RDATA)` (RFC 4034 §5.1.4). */
async function dsDigest(
  ownerWire: Uint8Array,
  rdata: Uint8Array,
  hash: DigestAlgorithm,
  crypto: CryptoProvider,
): Promise<Uint8Array> {
  const input = new Uint8Array(ownerWire.length + rdata.length);
  input.set(ownerWire, 0);
  input.set(rdata, ownerWire.length);
  return crypto.digest(hash, input);
}

/**
 * DS records for a key (RFC 4034 §5.1.4): `digest = HASH(canonical owner name | DNSKEY RDATA)`,
 * with SHA-1 (type 1), SHA-256 (type 2, RFC 4509 §2) and SHA-384 (type 4, RFC 6605 §2).
 * The owner is hashed in canonical wire form (RFC 4034 §6.2), so letter case does not matter.
 */
export async function computeDsRecords(
  owner: DnsName,
  ttl: number | null,
  rdata: Uint8Array,
  keyTag: number,
  algorithm: number,
  crypto: CryptoProvider,
): Promise<DsRecord[]> {
  const prefix = ttl === null ? `${owner.text} IN DS` : `${owner.text} ${ttl} IN DS`;
  return Promise.all(
    dsDigestAlgorithms.map(async (d): Promise<DsRecord> => {
      const hex = toHex(await dsDigest(owner.wire, rdata, d.hash, crypto), true);
      return {
        digestType: d.type,
        digestName: d.name,
        digest: hex,
        requirement: d.delegation,
        rfc: 'RFC 8624 §3.3',
        record: `${prefix} ${keyTag} ${algorithm} ${d.type} ${hex}`,
      };
    }),
  );
}

/** How a DS record relates to a zone's keys (RFC 4035 §5.2). */
export type DsMatch = 'match' | 'wrong-digest' | 'no-key' | 'unsupported-digest';

const zoneKeyFlag = 0x0100;

/**
 * Checks a DS against the DNSKEYs of `owner` (RFC 4035 §5.2): a zone key (Zone Key bit set,
 * protocol 3) with the DS's key tag and algorithm whose digest equals the DS digest. `wrong-digest`
 * names the key whose tag and algorithm matched, with the digest that key has (`expectedDigest`) to compare; digest types other than 1, 2 and 4 are `unsupported-digest`.
 */
export async function matchDs<Key extends DnsDnskeyRecord<'DNSKEY' | 'CDNSKEY'>>(
  ds: DnsDsRecord<'DS' | 'CDS'>,
  keys: readonly Key[],
  owner: string,
  crypto: CryptoProvider,
): Promise<{ status: DsMatch; key?: Key; expectedDigest?: string }> {
  const candidates = keys.filter(
    (key) =>
      key.algorithm === ds.algorithm &&
      key.protocol === 3 &&
      (key.flags & zoneKeyFlag) !== 0 &&
      keyTagOf(key) === ds.keyTag,
  );
  const first = candidates[0];
  if (!first) return { status: 'no-key' };
  const digestAlgorithm = dsDigestAlgorithms.find((d) => d.type === ds.digestType);
  if (!digestAlgorithm) return { status: 'unsupported-digest', key: first };
  const ownerWire = nameToWire(owner);
  const wanted = ds.digest.toLowerCase();
  let expectedDigest: string | undefined;
  for (const key of candidates) {
    const rdata = dnskeyRdataOf(key);
    if (!rdata) continue;
    const digest = toHex(await dsDigest(ownerWire, rdata, digestAlgorithm.hash, crypto));
    if (digest === wanted) return { status: 'match', key };
    expectedDigest ??= digest.toUpperCase();
  }
  return { status: 'wrong-digest', key: first, ...(expectedDigest === undefined ? {} : { expectedDigest }) };
}
