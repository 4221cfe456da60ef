import type { RequirementLevel } from '../core/diagnostic.ts';

/**
 * A requirement level as the algorithm tables of RFC 8624 print it. `RECOMMENDED` and
 * `NOT RECOMMENDED` mean SHOULD and SHOULD NOT (RFC 2119 §3, §4).
 */
export type ImplementationStatus = RequirementLevel | 'RECOMMENDED' | 'NOT RECOMMENDED';

/** What the standards say about a DNSSEC algorithm. */
export interface AlgorithmStatus {
  /** Use for signing zones, i.e. creating DNSKEY and RRSIG records; `null` when no RFC gives a level. */
  signing: ImplementationStatus | null;
  /** Implementation in validating resolvers; `null` when no RFC gives a level. */
  validation: ImplementationStatus | null;
  /** Where the levels come from, e.g. `RFC 8624 §3.1`. */
  rfc: string;
}

/** DS digest types computed here: SHA-1 (RFC 4034 §5.1.4), SHA-256 (RFC 4509), SHA-384 (RFC 6605). */
export type DsDigestType = 1 | 2 | 4;

/** One DS record that refers to the key (RFC 4034 §5). */
export interface DsRecord {
  digestType: DsDigestType;
  digestName: 'SHA-1' | 'SHA-256' | 'SHA-384';
  /** Upper-case hex, as zone files conventionally print it. */
  digest: string;
  /** Use for delegations per RFC 8624 §3.3: SHA-1 MUST NOT, SHA-256 MUST, SHA-384 MAY. */
  requirement: RequirementLevel;
  rfc: string;
  /** Presentation line `owner. [TTL] IN DS keytag algorithm type DIGEST` (TTL only when the input had one). */
  record: string;
}
