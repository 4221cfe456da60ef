import type { DigestAlgorithm } from '../core/crypto.ts';
import type { RequirementLevel } from '../core/diagnostic.ts';
import type { AlgorithmStatus, DsDigestType, ImplementationStatus } from './types.ts';

/** An entry of the IANA "DNS Security Algorithm Numbers" registry. */
export interface DnssecAlgorithm {
  number: number;
  mnemonic: string;
  description: string;
  /** The RFC that defines the algorithm's DNSKEY format. */
  definedIn: string;
  /** Whether the registry allows the algorithm for zone signing at all. */
  zoneSigning: boolean;
  status: AlgorithmStatus;
}

const rfc8624 = 'RFC 8624 §3.1';
// RFC 9905 §2 moved RSASHA1 and RSASHA1-NSEC3-SHA1 from NOT RECOMMENDED to MUST NOT for signing.
const rfc9905 = 'RFC 9905 §2';
const iana = 'IANA DNS Security Algorithm Numbers';

function alg(
  number: number,
  mnemonic: string,
  description: string,
  definedIn: string,
  signing: ImplementationStatus | null,
  validation: ImplementationStatus | null,
  rfc: string,
  zoneSigning = true,
): DnssecAlgorithm {
  return { number, mnemonic, description, definedIn, zoneSigning, status: { signing, validation, rfc } };
}

/**
 * Assigned DNSSEC algorithm numbers with their requirement levels for signing and validation.
 *
 * Levels are the table of RFC 8624 §3.1, which RFC 9904 carried unchanged into the IANA registry,
 * updated by RFC 9905 §2 (algorithms 5 and 7 MUST NOT be used to create DNSKEY or RRSIG records;
 * validators MUST still support them). Algorithms 17 and 23 came later from Informational RFCs and
 * have no level in RFC 8624.
 */
export const dnssecAlgorithms: readonly DnssecAlgorithm[] = [
  alg(0, 'DELETE', 'Delete DS (CDS/CDNSKEY only)', 'RFC 8078 §4', null, null, 'RFC 8078 §4', false),
  alg(1, 'RSAMD5', 'RSA/MD5 (deprecated)', 'RFC 4034 Appendix A.1', 'MUST NOT', 'MUST NOT', rfc8624),
  alg(2, 'DH', 'Diffie-Hellman', 'RFC 2539', null, null, iana, false),
  alg(3, 'DSA', 'DSA/SHA-1', 'RFC 2536', 'MUST NOT', 'MUST NOT', rfc8624),
  alg(5, 'RSASHA1', 'RSA/SHA-1', 'RFC 3110', 'MUST NOT', 'MUST', `${rfc9905}; ${rfc8624}`),
  alg(6, 'DSA-NSEC3-SHA1', 'DSA/SHA-1 for NSEC3', 'RFC 5155', 'MUST NOT', 'MUST NOT', rfc8624),
  alg(
    7,
    'RSASHA1-NSEC3-SHA1',
    'RSA/SHA-1 for NSEC3',
    'RFC 5155',
    'MUST NOT',
    'MUST',
    `${rfc9905}; ${rfc8624}`,
  ),
  alg(8, 'RSASHA256', 'RSA/SHA-256', 'RFC 5702', 'MUST', 'MUST', rfc8624),
  alg(10, 'RSASHA512', 'RSA/SHA-512', 'RFC 5702', 'NOT RECOMMENDED', 'MUST', rfc8624),
  alg(12, 'ECC-GOST', 'GOST R 34.10-2001', 'RFC 5933', 'MUST NOT', 'MAY', rfc8624),
  alg(13, 'ECDSAP256SHA256', 'ECDSA Curve P-256 with SHA-256', 'RFC 6605', 'MUST', 'MUST', rfc8624),
  alg(14, 'ECDSAP384SHA384', 'ECDSA Curve P-384 with SHA-384', 'RFC 6605', 'MAY', 'RECOMMENDED', rfc8624),
  alg(15, 'ED25519', 'Ed25519', 'RFC 8080', 'RECOMMENDED', 'RECOMMENDED', rfc8624),
  alg(16, 'ED448', 'Ed448', 'RFC 8080', 'MAY', 'RECOMMENDED', rfc8624),
  alg(17, 'SM2SM3', 'SM2 signing with SM3 hashing', 'RFC 9563', null, null, 'RFC 9563'),
  alg(23, 'ECC-GOST12', 'GOST R 34.10-2012', 'RFC 9558', null, null, 'RFC 9558'),
  alg(252, 'INDIRECT', 'Reserved for indirect keys', 'RFC 4034 Appendix A.1', null, null, iana, false),
  alg(
    253,
    'PRIVATEDNS',
    'Private algorithm named by a domain name',
    'RFC 4034 Appendix A.1.1',
    null,
    null,
    'RFC 4034 Appendix A.1.1',
  ),
  alg(
    254,
    'PRIVATEOID',
    'Private algorithm named by an OID',
    'RFC 4034 Appendix A.1.1',
    null,
    null,
    'RFC 4034 Appendix A.1.1',
  ),
];

/** The registry entry for `number`, if it is assigned. */
export function findDnssecAlgorithm(number: number): DnssecAlgorithm | undefined {
  return dnssecAlgorithms.find((a) => a.number === number);
}

/** Looks up an algorithm mnemonic, case-insensitively (RFC 4034 §2.2 allows mnemonics in the algorithm field). */
export function findDnssecAlgorithmByMnemonic(mnemonic: string): DnssecAlgorithm | undefined {
  const wanted = mnemonic.toUpperCase();
  return dnssecAlgorithms.find((a) => a.mnemonic === wanted);
}

/** Numbers the registry marks Reserved rather than Unassigned: 4, 9, 11, 123-251 and 255. */
export function isReservedAlgorithmNumber(number: number): boolean {
  return number === 4 || number === 9 || number === 11 || number === 255 || (number >= 123 && number <= 251);
}

/** A DS digest type with its requirement levels (RFC 8624 §3.3). */
export interface DsDigestAlgorithm {
  type: DsDigestType;
  name: 'SHA-1' | 'SHA-256' | 'SHA-384';
  hash: DigestAlgorithm;
  definedIn: string;
  /** Use when publishing a DS in the parent zone ("DNSSEC Delegation"). */
  delegation: RequirementLevel;
  validation: ImplementationStatus;
}

/** The DS digest types computed for every key, in digest-type order. */
export const dsDigestAlgorithms: readonly DsDigestAlgorithm[] = [
  {
    type: 1,
    name: 'SHA-1',
    hash: 'SHA-1',
    definedIn: 'RFC 4034 §5.1.4',
    delegation: 'MUST NOT',
    validation: 'MUST',
  },
  {
    type: 2,
    name: 'SHA-256',
    hash: 'SHA-256',
    definedIn: 'RFC 4509 §2',
    delegation: 'MUST',
    validation: 'MUST',
  },
  {
    type: 4,
    name: 'SHA-384',
    hash: 'SHA-384',
    definedIn: 'RFC 6605 §2',
    delegation: 'MAY',
    validation: 'RECOMMENDED',
  },
];
