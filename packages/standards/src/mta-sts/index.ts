export { matchMxToPolicy, mxMatchesPattern } from './match.ts';
export {
  isMtaStsRecord,
  mtaStsMaxAgeLimit,
  mtaStsModes,
  parseMtaStsPolicy,
  parseMtaStsRecord,
  selectMtaStsRecord,
  type MtaStsMode,
  type MtaStsPolicyField,
  type MtaStsPolicyParse,
  type MtaStsRecordField,
  type MtaStsRecordParse,
  type MtaStsRecordSelection,
} from './parse.ts';
export {
  mtaStsCheckBody,
  mtaStsCheckResultSchema,
  mtaStsDefaultMaxAge,
  mtaStsDefaultMode,
  mtaStsGenerateBody,
  mtaStsGenerateResultSchema,
  mtaStsMaxMxPatterns,
  mtaStsModeSchema,
  mtaStsMxPatternMaxLength,
  mtaStsPolicyMaxBytes,
  mtaStsPolicyParsedSchema,
  mtaStsRecordMessages,
  mtaStsRecordParsedSchema,
  mtaStsValidateBody,
  mtaStsValidationResultSchema,
  type MtaStsCheckBody,
  type MtaStsCheckResultData,
  type MtaStsGenerateBody,
  type MtaStsGenerateResultData,
  type MtaStsValidateBody,
  type MtaStsValidationResultData,
} from './schema.ts';
export {
  judgePolicyFetch,
  mtaStsPolicyFetchMaxBytes,
  mtaStsPolicyFetchTimeoutMs,
  type MtaStsPolicyFetchJudgement,
  type MtaStsPolicyFetchOutcome,
} from './fetch-rules.ts';
export {
  generateMtaSts,
  mtaStsIdFromDate,
  mtaStsPolicyHost,
  mtaStsPolicyText,
  mtaStsPolicyUrl,
  mtaStsRecordName,
  type MtaStsGeneratorInput,
} from './generate.ts';
export {
  mxPatternProblem,
  validateMtaStsPolicy,
  validateMtaStsRecord,
  type MtaStsPolicyParsed,
  type MtaStsRecordParsed,
} from './validate.ts';
export { mtaStsOperations } from './operations.ts';
