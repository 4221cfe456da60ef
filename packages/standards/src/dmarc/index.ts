export { correctDmarcRecord } from './correct.ts';
export { checkDmarc, type DmarcCheckInput, type DmarcCheckResult } from './check.ts';
export {
  discoverDmarc,
  rfc7489OrganizationalDomain,
  type DmarcAppliedPolicy,
  type DmarcDiscovery,
  type DmarcDiscoveryView,
} from './discovery.ts';
export {
  dmarcGeneratorDefaults,
  dmarcMailtoUri,
  dmarcRecordName,
  generateDmarcRecord,
  type DmarcGeneratorInput,
  type DmarcGeneratorResult,
} from './generate.ts';
export {
  createDmarcDns,
  dmarcTreeWalk,
  dmarcTreeWalkLimit,
  dmarcTreeWalkTargets,
  type DmarcDns,
  type DmarcLookup,
  type DmarcTreeWalk,
} from './lookups.ts';
export {
  isDmarcRecord,
  parseDmarcRecord,
  readDmarcTxtInput,
  type DmarcNotRecordReason,
  type DmarcParseResult,
  type DmarcRawTag,
} from './parse.ts';
export {
  checkReportDestinations,
  dmarcMaxCheckedHosts,
  reportAuthorizationName,
  type DmarcReportDestination,
  type DmarcReportDestinationCheck,
} from './report-destinations.ts';
export {
  dmarcAddressMaxLength,
  dmarcDiscoverySchema,
  dmarcGenerateBody,
  dmarcGenerateResultSchema,
  dmarcMaxAddresses,
  dmarcParsedSchema,
  dmarcRecordMaxLength,
  dmarcReportDestinationSchema,
  dmarcUriSchema,
  dmarcValidateBody,
  dmarcValidationResultSchema,
  isDmarcFailureOptions,
  normalizeDmarcDomain,
  type DmarcDomainResult,
  type DmarcGenerateBody,
  type DmarcGenerateResultData,
  type DmarcValidateBody,
  type DmarcValidationResultData,
} from './schema.ts';
export {
  dmarcAlignmentModes,
  dmarcFailureOptions,
  dmarcPolicies,
  dmarcPsdValues,
  dmarcRemovedTagNotes,
  dmarcRemovedTags,
  dmarcTagDefinitions,
  policyStrength,
  testModePolicy,
  type DmarcAlignment,
  type DmarcFailureOption,
  type DmarcPolicy,
  type DmarcPsd,
  type DmarcRemovedTag,
  type DmarcSpec,
  type DmarcTagDefinition,
  type DmarcTagName,
  type RemovedTagNote,
} from './tags.ts';
export {
  describeUriProblem,
  isMailDomain,
  parseDmarcUriList,
  type DmarcUri,
  type DmarcUriProblem,
} from './uri.ts';
export {
  analyzeDmarcRecord,
  validateDmarcRecord,
  type DmarcAnalysis,
  type DmarcEffectivePolicy,
  type DmarcParsed,
  type DmarcTagView,
  type DmarcVerdict,
} from './validate.ts';
export { dmarcOperations } from './operations.ts';
