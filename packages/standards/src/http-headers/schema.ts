import { z } from 'zod';
import { diagnosticSchema } from '../core/schema.ts';
import { observatoryTestNames } from './score-table.ts';

/** Longest paste accepted: headers of a redirect chain plus an HTML body of a typical page. */
export const pastedHeadersMaxLength = 262_144;
export const analyzeUrlMaxLength = 2048;

/** Body of `POST /v1/http-headers/validate`, shared by the server route and the web form. */
export const httpHeadersValidateBody = z
  .object({
    headers: z
      .string()
      .refine((text) => text.trim().length > 0, 'Response headers are required')
      .refine(
        (text) => text.length <= pastedHeadersMaxLength,
        `Response headers are too long: at most ${pastedHeadersMaxLength} characters`,
      )
      .describe(
        'Raw response headers as copied from a browser or curl -i/-I/-v: optional status line, ' +
          '"name: value" lines, several responses of a redirect chain, optionally the HTML body after a blank line',
      ),
  })
  .strict();

export type HttpHeadersValidateBody = z.infer<typeof httpHeadersValidateBody>;

/** Body of `POST /v1/http-headers/analyze`. */
export const httpHeadersAnalyzeBody = z
  .object({
    url: z
      .string()
      .trim()
      .min(1, 'URL is required')
      .max(analyzeUrlMaxLength, `URL is too long: at most ${analyzeUrlMaxLength} characters`)
      .describe('The site to fetch and grade, e.g. https://example.com/ or example.com'),
  })
  .strict();

export type HttpHeadersAnalyzeBody = z.infer<typeof httpHeadersAnalyzeBody>;

export const observatoryTestNameSchema = z.enum(observatoryTestNames);

export const headerTestSchema = z.object({
  name: observatoryTestNameSchema,
  title: z.string().describe('The Observatory’s title of the test'),
  evaluated: z
    .boolean()
    .describe('False when the input lacks what the test needs (e.g. pasted headers have no http:// visit)'),
  pass: z.boolean().nullable().describe('null when not evaluated'),
  result: z
    .string()
    .nullable()
    .describe('Expectation id of the Observatory score table; null when not evaluated'),
  modifier: z.number().int().describe('Points the result adds to the score (0 when not evaluated)'),
  explanation: z
    .string()
    .describe('The score table’s description of the result, or why the test was not evaluated'),
  recommendation: z.string().nullable().describe('The score table’s recommendation for the result, if any'),
  details: z.array(z.string()).describe('What was found: values, offending sources, cookies …'),
});

export type HeaderTest = z.infer<typeof headerTestSchema>;

export const recommendationSeveritySchema = z.enum(['HIGH', 'MEDIUM', 'LOW']);

export const headerRecommendationSchema = z.object({
  header: z.string(),
  severity: recommendationSeveritySchema,
  description: z.string(),
  example: z.string().describe('A header line (or lines) that fixes it'),
});

export type HeaderRecommendation = z.infer<typeof headerRecommendationSchema>;

export const resultStatusSchema = z.enum(['PASS', 'FAIL', 'WARN', 'ERROR']);
export type ResultStatus = z.infer<typeof resultStatusSchema>;

export const redirectEntrySchema = z.object({
  url: z.string().nullable().describe('Requested URL; null when unknown (pasted headers)'),
  status: z.number().int().nullable(),
  location: z.string().nullable().describe('Location header of a redirect'),
});

export type RedirectEntry = z.infer<typeof redirectEntrySchema>;

export const scoringSchema = z.object({
  algorithm: z.string(),
  baseline: z.literal(100),
  penalties: z.number().int().describe('Sum of the negative modifiers'),
  bonuses: z.number().int().describe('Sum of the positive modifiers, counted only when bonusesApplied'),
  bonusesApplied: z.boolean().describe('100 + penalties reached minimumScoreForExtraCredit'),
  minimumScoreForExtraCredit: z.number().int(),
  testsQuantity: z.number().int(),
  testsEvaluated: z.number().int(),
  testsPassed: z.number().int(),
  notEvaluated: z.array(observatoryTestNameSchema),
  notes: z.array(z.string()).describe('Assumptions the grade rests on'),
});

export const permissionsPolicySchema = z.object({
  status: z.enum(['PASS', 'WARN', 'ERROR']),
  scored: z.literal(false).describe('The Observatory does not score Permissions-Policy'),
  findings: z.array(z.string()),
});

/** The `data` of `POST /v1/http-headers/analyze` and `POST /v1/http-headers/validate`. */
export const httpHeadersAnalysisSchema = z.object({
  score: z
    .number()
    .int()
    .nonnegative()
    .describe('Observatory score: 100 ± modifiers, at least 0, may pass 100'),
  grade: z.string().describe('A+ … F from the Observatory grade chart'),
  scoring: scoringSchema,
  url: z.string().nullable().describe('URL of the graded response; null for pasted headers'),
  status: z.number().int().nullable().describe('HTTP status of the graded response, when known'),
  headers: z
    .record(z.string(), z.string())
    .describe('Header name to value; repeats joined with ", " (Set-Cookie with newlines)'),
  tests: z.array(headerTestSchema),
  recommendations: z.array(headerRecommendationSchema),
  redirects: z
    .array(redirectEntrySchema)
    .describe('The chain that led to the graded response, final response last'),
  results: z
    .record(z.string(), resultStatusSchema)
    .describe('Short key per test (csp, hsts, cookies …, permissions-policy) to PASS, FAIL, WARN or ERROR'),
  issues: z.array(z.string()).describe('One line per FAIL or ERROR result'),
  permissionsPolicy: permissionsPolicySchema,
  diagnostics: z.array(diagnosticSchema).describe('Problems in the pasted text itself (empty for a fetch)'),
});

export type HttpHeadersAnalysis = z.infer<typeof httpHeadersAnalysisSchema>;
