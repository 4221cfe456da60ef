export {
  gradeHeaderBlock,
  gradeResponse,
  HttpHeadersGradeError,
  type CorsPreflight,
  type ExchangeHop,
  type FetchedResponse,
  type FetchedVisit,
  type GradeResponseInput,
  type HttpHeadersErrorCode,
} from './grade.ts';
export { HeaderList, type HeaderField } from './headers.ts';
export { parseHeaderBlock, type HeaderBlockParse, type PastedResponse } from './parse.ts';
export { parseCspPolicies, CspSyntaxError, type ParsedCsp } from './csp.ts';
export { parseSetCookie, type ParsedCookie } from './cookies.ts';
export {
  findHstsPreload,
  hstsPreloadList,
  parseHsts,
  type HstsPreloadEntry,
  type HstsPreloadLookup,
} from './transport.ts';
export { powerfulFeatures } from './permissions-policy.ts';
export {
  gradeChart,
  gradeForScore,
  minimumScoreForExtraCredit,
  observatoryAlgorithmVersion,
  observatoryTestNames,
  scoreEntry,
  scoreTable,
  testTitles,
  type ObservatoryTestName,
  type ScoreTableEntry,
} from './score-table.ts';
export {
  analyzeUrlMaxLength,
  headerRecommendationSchema,
  headerTestSchema,
  httpHeadersAnalysisSchema,
  httpHeadersAnalyzeBody,
  httpHeadersValidateBody,
  pastedHeadersMaxLength,
  type HeaderRecommendation,
  type HeaderTest,
  type HttpHeadersAnalysis,
  type HttpHeadersAnalyzeBody,
  type HttpHeadersValidateBody,
  type RedirectEntry,
  type ResultStatus,
} from './schema.ts';
export { httpHeadersOperations } from './operations.ts';
