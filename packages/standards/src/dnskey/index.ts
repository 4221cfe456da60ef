export { parseDnskey, type DnskeyParseResult, type DnskeyPresentation } from './parse.ts';
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
export type { DnskeyKeyType, DnskeyParsed } from './types.ts';
export { validateDnskey, type DnskeyValidateOptions } from './validate.ts';
export { dnskeyOperations } from './operations.ts';
