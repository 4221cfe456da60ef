export {
  LEGACY_PATH,
  WELL_KNOWN_PATH,
  isSecurityTxtResponse,
  securityTxtFetchHost,
  securityTxtLocations,
  securityTxtNotFound,
  sourceDiagnostics,
  type SecurityTxtFetchHost,
  type SecurityTxtSource,
} from './context.ts';
export { addOneYear, formatRfc3339Utc, parseRfc3339, type DateTimeValue } from '../core/date-time.ts';
export {
  findSecurityTxtField,
  securityTxtFields,
  suggestSecurityTxtField,
  type FieldOccurrence,
  type SecurityTxtFieldDefinition,
} from './fields.ts';
export {
  checkSecurityTxtInput,
  generateSecurityTxt,
  normaliseSecurityTxtDomain,
  type GeneratorIssue,
  type SecurityTxtGenerateInput,
  type SecurityTxtGenerateResult,
} from './generate.ts';
export { checkLanguageTag, type LanguageTagCheck } from './language-tag.ts';
export { crc24, openPgpHashNames, readSignatureArmor, type OpenPgpSignatureInfo } from './openpgp-armor.ts';
export {
  parseSecurityTxt,
  type CleartextSignature,
  type SecurityTxtDocument,
  type SecurityTxtField,
  type SecurityTxtLine,
  type SecurityTxtLineKind,
} from './parse.ts';
export {
  securityTxtFetchAttemptSchema,
  securityTxtFetchBody,
  securityTxtFetchResultSchema,
  securityTxtFetchSourceSchema,
  securityTxtGenerateBody,
  securityTxtGenerateResultSchema,
  securityTxtMaxLength,
  securityTxtParsedSchema,
  securityTxtPublicKeyMaxLength,
  securityTxtValidateBody,
  securityTxtValidationResultSchema,
  type SecurityTxtFetchAttempt,
  type SecurityTxtFetchBody,
  type SecurityTxtFetchResultData,
  type SecurityTxtFetchSource,
  type SecurityTxtGenerateBody,
  type SecurityTxtGenerateResultData,
  type SecurityTxtValidateBody,
  type SecurityTxtValidationResultData,
} from './schema.ts';
export { type OpenPgpVerification, type OpenPgpVerifier } from './signature.ts';
export { checkUri, type UriCheck } from '../core/uri.ts';
export {
  validateSecurityTxt,
  type SecurityTxtParsed,
  type SecurityTxtValidateOptions,
  type SecurityTxtValidationResult,
} from './validate.ts';
export { securityTxtOperations } from './operations.ts';
