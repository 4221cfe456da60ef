import type { CryptoProvider } from '../core/crypto.ts';
import type { DnsName } from '../core/dns-name.ts';
import { toHex } from '../core/hex.ts';
import { dsDigestAlgorithms } from './algorithms.ts';
import type { DsRecord } from './types.ts';

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
  const input = new Uint8Array(owner.wire.length + rdata.length);
  input.set(owner.wire, 0);
  input.set(rdata, owner.wire.length);
  const prefix = ttl === null ? `${owner.text} IN DS` : `${owner.text} ${ttl} IN DS`;
  return Promise.all(
    dsDigestAlgorithms.map(async (d): Promise<DsRecord> => {
      const hex = toHex(await crypto.digest(d.hash, input), true);
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
