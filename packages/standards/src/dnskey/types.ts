import type { AlgorithmStatus, DsRecord } from '../dnssec/types.ts';

/** KSK: Zone Key and SEP bits set; ZSK: Zone Key bit only; otherwise not a DNSSEC zone key (RFC 4034 §2.1.1). */
export type DnskeyKeyType = 'KSK' | 'ZSK' | 'Non-zone key';

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
