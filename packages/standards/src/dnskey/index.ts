export {
  dnssecAlgorithms,
  dsDigestAlgorithms,
  findDnssecAlgorithm,
  findDnssecAlgorithmByMnemonic,
  isReservedAlgorithmNumber,
  type DnssecAlgorithm,
  type DsDigestAlgorithm,
} from './algorithms.ts';
export { computeDsRecords } from './ds.ts';
export { dnskeyRdata, keyTag } from './key-tag.ts';
export { parseDnskey, type DnskeyParseResult, type DnskeyPresentation } from './parse.ts';
export {
  checkPublicKey,
  parseRsaPublicKey,
  type PublicKeyCheck,
  type RsaPublicKey,
  type RsaPublicKeyResult,
} from './public-key.ts';
export {
  dnskeyParsedSchema,
  dnskeyRecordMaxLength,
  dnskeyValidateBody,
  dnskeyValidationResultSchema,
  dnssecChainBody,
  dnssecChainTypes,
  dsRecordSchema,
  type DnskeyValidateBody,
  type DnskeyValidationResultData,
  type DnssecChainBody,
} from './schema.ts';
export type {
  AlgorithmStatus,
  DnskeyKeyType,
  DnskeyParsed,
  DsDigestType,
  DsRecord,
  ImplementationStatus,
} from './types.ts';
export { validateDnskey, type DnskeyValidateOptions } from './validate.ts';
export { dnskeyOperations } from './operations.ts';
