export {
  dkimAlgorithms,
  dkimCanonicalizations,
  dkimFlags,
  dkimGeneratorDefaults,
  dkimRequiredMessage,
  dkimServiceTypes,
  encodeDkimNotes,
  generateDkimRecord,
  normaliseDkimName,
  splitTxtStrings,
  txtStringMaxLength,
  type DkimAlgorithm,
  type DkimCanonicalization,
  type DkimFlag,
  type DkimGenerateInput,
  type DkimGenerateOutcome,
  type DkimGenerateResult,
  type DkimServiceType,
  type DkimSignerSettings,
} from './generate.ts';
export { readDkimPublicKey, type DkimKeyEncoding, type DkimKeyRead } from './key.ts';
export {
  parseDkimRecord,
  parseDkimTagList,
  readDkimRecordText,
  type DkimParseResult,
  type DkimRecordText,
  type DkimTag,
} from './parse.ts';
export {
  dkimGenerateBody,
  dkimGenerateResultSchema,
  dkimParsedSchema,
  dkimRecordMaxLength,
  dkimValidateBody,
  dkimValidationResultSchema,
  type DkimGenerateBody,
  type DkimGenerateResultData,
  type DkimValidateBody,
  type DkimValidationResultData,
} from './schema.ts';
export {
  validateDkimRecord,
  type DkimParsed,
  type DkimRecordStatus,
  type DkimValidationResult,
} from './validate.ts';
