export {
  chainAnswerSchema,
  chainFailureCodeSchema,
  denialViewSchema,
  dnssecChainSchema,
  dsViewSchema,
  keyViewSchema,
  securityStatusSchema,
  signatureOutcomeSchema,
  signatureViewSchema,
  zoneStepSchema,
  type ChainAnswer,
  type ChainFailureCode,
  type DenialView,
  type DnssecChain,
  type DsView,
  type KeyView,
  type SecurityStatus,
  type SignatureOutcome,
  type SignatureView,
  type ZoneStep,
} from './schema.ts';
export {
  dnssecAlgorithms,
  dsDigestAlgorithms,
  findDnssecAlgorithm,
  findDnssecAlgorithmByMnemonic,
  isReservedAlgorithmNumber,
  type DnssecAlgorithm,
  type DsDigestAlgorithm,
} from './algorithms.ts';
export { computeDsRecords, matchDs, type DsMatch } from './ds.ts';
export { dnskeyKeySize, dnskeyPublicKey, dnskeyRdata, dnskeyRdataOf, keyTag, keyTagOf } from './key-tag.ts';
export {
  checkPublicKey,
  parseRsaPublicKey,
  type PublicKeyCheck,
  type RsaPublicKey,
  type RsaPublicKeyResult,
} from './public-key.ts';
export { dnskeySpki, dnssecVerifier, type DnssecVerifier } from './spki.ts';
export type { AlgorithmStatus, DsDigestType, DsRecord, ImplementationStatus } from './types.ts';
export {
  canonicalRdata,
  compareCanonicalNames,
  isSubdomain,
  labelCount,
  nameToWire,
  presentRecord,
} from './wire.ts';
export {
  serialBefore,
  signatureView,
  signedData,
  verifyRrset,
  type RrsetVerification,
  type SignatureCheck,
} from './verify.ts';
export {
  denialView,
  nsec3Hash,
  nsec3IterationsCap,
  proveDenial,
  toBase32hex,
  type DenialClaim,
  type DenialResult,
} from './denial.ts';
export { ianaRootTrustAnchors, parseTrustAnchors, type TrustAnchors } from './anchors.ts';
export { buildChain, type ChainOptions } from './chain.ts';
