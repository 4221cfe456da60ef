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

/** KSK: Zone Key and SEP bits set; ZSK: Zone Key bit only; otherwise not a DNSSEC zone key (RFC 4034 §2.1.1). */
export type DnskeyKeyType = 'KSK' | 'ZSK' | 'Non-zone key';

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

/** What {@link validateDnskey} read from the record. */
export interface DnskeyParsed {
  /** Owner as a lower-case absolute name with a trailing dot, or `null` when none was given (or unusable). */
  ownerName: string | null;
  /** TTL in seconds, or `null` when none was given. */
  ttl: number | null;
  keyType: DnskeyKeyType;
  flags: number;
  flagBits: {
    /** Bit 7, value 256 (RFC 4034 §2.1.1). */
    zoneKey: boolean;
    /** Bit 15, value 1 (RFC 4034 §2.1.1). */
    secureEntryPoint: boolean;
    /** Bit 8, value 128 (RFC 5011 §7). */
    revoked: boolean;
  };
  protocol: number;
  algorithm: number;
  /** IANA mnemonic, e.g. `ECDSAP256SHA256`; `Unassigned` or `Reserved` for numbers without one. */
  algorithmName: string;
  algorithmStatus: AlgorithmStatus;
  /** RFC 4034 Appendix B (Appendix B.1 for algorithm 1). */
  keyTag: number;
  /**
   * Key size in bits: the RSA modulus length; 256 or 384 for ECDSA P-256/P-384 (the curve size);
   * the public-key length for EdDSA, 256 for Ed25519 and 456 for Ed448 (57 octets; the curve is
   * Ed448-Goldilocks); the prime P for DSA. `null` when unknown or the key is malformed.
   */
  keySize: number | null;
  /** Length of the decoded public-key field in octets. */
  publicKeyBytes: number;
  /** DS records for digest types 1, 2 and 4; empty without an owner name or for a non-zone key. */
  ds: DsRecord[];
}
