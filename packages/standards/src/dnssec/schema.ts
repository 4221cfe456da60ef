import { z } from 'zod';
import { diagnosticSchema } from '../core/schema.ts';

/**
 * The state of a name or zone after validation (RFC 4035 §4.3): proven by a chain of signatures
 * from a trust anchor; proven to lie below an unsigned delegation; failing that proof (with the
 * reason); or not decidable because the DNS answers needed for it could not be had.
 */
export const securityStatusSchema = z.enum(['secure', 'insecure', 'bogus', 'indeterminate']);

export type SecurityStatus = z.infer<typeof securityStatusSchema>;

/** Why a chain is bogus or indeterminate: one stable code per failure an admin has to fix differently. */
export const chainFailureCodeSchema = z.enum([
  'expired-signature',
  'signature-not-yet-valid',
  'bad-signature',
  'wrong-signer',
  'missing-signature',
  'no-matching-ds',
  'wrong-digest',
  'missing-dnskey',
  'algorithm-mismatch',
  'unsupported-algorithm',
  'bad-denial-proof',
  'missing-denial-proof',
  'no-trust-anchor',
  'dns-failure',
  'cname-loop',
  'too-many-cnames',
  'invalid-name',
]);

export type ChainFailureCode = z.infer<typeof chainFailureCodeSchema>;

/** What one RRSIG check came to (RFC 4035 §5.3). */
export const signatureOutcomeSchema = z.enum([
  'valid',
  'expired',
  'not-yet-valid',
  'bad-signature',
  'no-key',
  'unsupported-algorithm',
  'signer-mismatch',
  'labels-mismatch',
  'malformed',
]);

export type SignatureOutcome = z.infer<typeof signatureOutcomeSchema>;

export const signatureViewSchema = z.object({
  /** Type mnemonic of the set the RRSIG covers. */
  typeCovered: z.string(),
  keyTag: z.number().int().min(0).max(65535),
  algorithm: z.number().int().min(0).max(255),
  algorithmName: z.string(),
  signer: z.string(),
  /** ISO 8601, UTC. */
  inception: z.string(),
  expiration: z.string(),
  outcome: signatureOutcomeSchema,
  message: z.string(),
});

export type SignatureView = z.infer<typeof signatureViewSchema>;

export const keyViewSchema = z.object({
  keyTag: z.number().int().min(0).max(65535),
  flags: z.number().int().min(0).max(65535),
  /** KSK: Zone Key and SEP bits; ZSK: Zone Key bit only (RFC 4034 §2.1.1). */
  role: z.enum(['KSK', 'ZSK', 'Non-zone key']),
  revoked: z.boolean(),
  algorithm: z.number().int().min(0).max(255),
  algorithmName: z.string(),
  /** Bits of the public key, where the algorithm has a size to speak of. */
  keySize: z.number().int().nonnegative().nullable(),
  /** A DS in the parent (or a trust anchor) refers to this key and its digest matches. */
  matchedByDs: z.boolean(),
  /** The key made a valid signature over the zone's DNSKEY set. */
  signsKeySet: z.boolean(),
  /** Record types of the chain this key made valid signatures over, other than DNSKEY. */
  signs: z.array(z.string()),
  /** Presentation form: `owner. TTL IN DNSKEY flags 3 algorithm base64`. */
  record: z.string(),
});

export type KeyView = z.infer<typeof keyViewSchema>;

export const dsViewSchema = z.object({
  keyTag: z.number().int().min(0).max(65535),
  algorithm: z.number().int().min(0).max(255),
  digestType: z.number().int().min(0).max(255),
  digestName: z.string(),
  digest: z.string().describe('Upper-case hex'),
  /** `match`: a key of the child has this tag, algorithm and digest; `wrong-digest`: tag and algorithm match but not the digest. */
  status: z.enum(['match', 'wrong-digest', 'no-key', 'unsupported-digest']),
  /** For a wrong digest: the digest (upper-case hex, of the DS's digest type) the key with this tag and algorithm has, to compare. */
  expectedDigest: z.string().nullable(),
  /** From the parent's DS set, or a configured trust anchor (for the root). */
  source: z.enum(['parent', 'trust-anchor']),
  record: z.string(),
});

export type DsView = z.infer<typeof dsViewSchema>;

/** A proof of non-existence (RFC 4035 §5.4, RFC 5155 §8) as it was checked. */
export const denialViewSchema = z.object({
  method: z.enum(['NSEC', 'NSEC3']),
  /** What was proven: the name does not exist, has no record of the type, or is a delegation without DS. */
  proves: z.enum(['nxdomain', 'nodata', 'insecure-delegation', 'no-closer-match']),
  proven: z.boolean(),
  /** NSEC3: an opt-out span covers the name, so an unsigned delegation may exist there (RFC 5155 §6). */
  optOut: z.boolean(),
  closestEncloser: z.string().nullable(),
  /** NSEC3 parameters, when NSEC3 was used. */
  iterations: z.number().int().nonnegative().nullable(),
  salt: z.string().nullable(),
  message: z.string(),
  records: z.array(z.string()).describe('The NSEC/NSEC3 records used, presentation form'),
});

export type DenialView = z.infer<typeof denialViewSchema>;

/** One zone on the way from the root to the name. */
export const zoneStepSchema = z.object({
  /** `.` for the root, else lower case without the trailing dot. */
  zone: z.string(),
  status: securityStatusSchema,
  /** The DS set in the parent (or the trust anchors, for the root), each with what it matched. */
  ds: z.array(dsViewSchema),
  /** The proof that the delegation to this zone has no DS, when it is insecure. */
  dsDenial: denialViewSchema.nullable(),
  keys: z.array(keyViewSchema),
  /** The RRSIGs over the DNSKEY set. */
  keySetSignatures: z.array(signatureViewSchema),
  /** The RRSIGs over the DS set in the parent. */
  dsSignatures: z.array(signatureViewSchema),
  failure: z
    .object({ code: chainFailureCodeSchema, message: z.string(), fix: z.string().optional() })
    .nullable(),
});

export type ZoneStep = z.infer<typeof zoneStepSchema>;

export const chainAnswerSchema = z.object({
  /** The name the records sit at, after CNAMEs. */
  owner: z.string(),
  type: z.string(),
  status: z.enum(['ok', 'nxdomain', 'nodata', 'failed']),
  /** Presentation lines of the records (the CNAMEs followed first). */
  records: z.array(z.string()),
  signatures: z.array(signatureViewSchema),
  denial: denialViewSchema.nullable(),
  /** Set when the records were synthesised from a wildcard (RFC 4035 §5.3.4): the wildcard's owner. */
  wildcard: z.string().nullable(),
  /** The zone whose keys sign the answer (for a DS set, the parent), or null where no zone was reached. */
  zone: z.string().nullable(),
  security: securityStatusSchema,
});

export type ChainAnswer = z.infer<typeof chainAnswerSchema>;

/** The `data` of `POST /v1/dnssec/chain`: the chain of trust from the root down to one RRset. */
export const dnssecChainSchema = z.object({
  name: z.string(),
  type: z.string(),
  status: securityStatusSchema,
  /** The first failure on the way down, for a bogus or indeterminate chain. */
  failure: z
    .object({
      code: chainFailureCodeSchema,
      zone: z.string(),
      message: z.string(),
      fix: z.string().optional(),
      rfc: z.string().optional(),
    })
    .nullable(),
  /** Root first. */
  zones: z.array(zoneStepSchema),
  answer: chainAnswerSchema,
  /** Warnings that do not break the chain: expiring signatures, SHA-1 DS, small RSA keys, NSEC3 iterations, rollovers. */
  warnings: z.array(diagnosticSchema),
  /** The trust anchors used: IANA's root KSKs, or those of DNSSEC_TRUST_ANCHORS. */
  trustAnchors: z.object({
    source: z.string(),
    /** `iana`: the built-in root KSKs; `configured`: the file DNSSEC_TRUST_ANCHORS names. */
    origin: z.enum(['iana', 'configured']),
    keyTags: z.array(z.number().int()),
  }),
  /** When the signatures were judged, ISO 8601. */
  checkedAt: z.string(),
  queries: z.number().int().nonnegative(),
});

export type DnssecChain = z.infer<typeof dnssecChainSchema>;
