export {
  beginsWithTlsRptVersion,
  checkTlsRptRecordSet,
  describeTlsRptUri,
  tlsRptLabel,
  tlsRptRecordName,
  tlsRptVersion,
  validateTlsRptRecord,
  type TlsRptParsed,
  type TlsRptRecordResult,
  type TlsRptRecordSetResult,
  type TlsRptUri,
  type TlsRptVerdict,
} from './record.ts';
export { checkTlsRpt } from './check.ts';
export { generateTlsRptRecord, type TlsRptGenerated, type TlsRptGenerateInput } from './generate.ts';
export {
  isIpAddress,
  readTlsRptReport,
  tlsRptPolicyTypes,
  type TlsRptFailureDetail,
  type TlsRptPolicySummary,
  type TlsRptPolicyType,
  type TlsRptReportResult,
  type TlsRptReportSummary,
  type TlsRptResultGroup,
} from './report.ts';
export {
  tlsRptResultTypeInfo,
  tlsRptResultTypes,
  type TlsRptResultCategory,
  type TlsRptResultTypeInfo,
} from './result-types.ts';
export {
  buildTlsRptSampleReport,
  sampleStsPolicyLines,
  tlsRptSampleFailures,
  tlsRptSampleMaxAge,
  tlsRptSampleOrganization,
  tlsRptSampleSuccesses,
  type TlsRptReportJson,
  type TlsRptSampleInput,
  type TlsRptSamplePolicy,
} from './sample.ts';
export * from './schema.ts';
export { tlsRptOperations } from './operations.ts';
