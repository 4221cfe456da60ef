import type { Diagnostic } from '../core/diagnostic.ts';
import { exampleFor, resultKey, testHeader } from './advice.ts';
import { collectCookies, cookiesTest, type CookieSource } from './cookies.ts';
import { cspTest } from './csp.ts';
import {
  corsTest,
  crossOriginEmbedderPolicyTest,
  crossOriginOpenerPolicyTest,
  crossOriginResourcePolicyTest,
  referrerPolicyTest,
  xContentTypeOptionsTest,
  xFrameOptionsTest,
  type CorsTestInput,
} from './header-tests.ts';
import { HeaderList, htmlMediaTypes, mediaTypeOf, type HeaderField } from './headers.ts';
import { scanHtml } from './html.ts';
import type { TestOutcome } from './outcome.ts';
import { parseHeaderBlock } from './parse.ts';
import { adviseOnPermissionsPolicy, permissionsPolicyExample } from './permissions-policy.ts';
import type {
  HeaderRecommendation,
  HeaderTest,
  HttpHeadersAnalysis,
  RedirectEntry,
  ResultStatus,
} from './schema.ts';
import {
  gradeForScore,
  minimumScoreForExtraCredit,
  observatoryAlgorithmVersion,
  observatoryTestNames,
  scoreEntry,
  testTitles,
  type ObservatoryTestName,
} from './score-table.ts';
import { sriTest, type PageBody } from './sri.ts';
import { hstsTest, redirectionTest, type HstsPreloadLookup, type RedirectionTestInput } from './transport.ts';

/** One request of a visit and the answer's status and headers (Set-Cookie on redirects counts). */
export interface ExchangeHop {
  url: string;
  status: number;
  headers: readonly HeaderField[];
}

/** The response a visit ended on. */
export interface FetchedResponse extends ExchangeHop {
  /** The body decoded as text ('' when empty), or null when it was not read. */
  body: string | null;
  /** Why the body could not be decoded as text (binary, unknown charset …); it then counts as unparseable HTML. */
  bodyError?: string;
}

/** A visit that follows redirects, as a browser would, from its first URL. */
export interface FetchedVisit {
  /** Each redirect answered before `response`, the first request first. */
  redirects: readonly ExchangeHop[];
  response: FetchedResponse;
  /** False when a certificate on the way did not verify (and the visit went on without verification). */
  certificateValid: boolean;
}

/** The answer to a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method: GET). */
export interface CorsPreflight {
  /** The Origin the preflight sent: a foreign origin of our choosing. */
  origin: string;
  headers: readonly HeaderField[];
}

/**
 * What `gradeResponse` needs from the fetcher: the same requests the MDN HTTP Observatory makes
 * for a site, each through the guarded client.
 */
export interface GradeResponseInput {
  /** Host name of the site graded, e.g. `www.example.com` (registrable domain for SRI, HSTS preload). */
  site: string;
  /** The visit starting at https://site/…, or null when HTTPS could not be reached at all. */
  https: FetchedVisit | null;
  /** The visit starting at http://site/…, or null when nothing answered on http. */
  http: FetchedVisit | null;
  /** The preflight sent to the final URL of the graded visit, or null when it failed. */
  cors: CorsPreflight | null;
  /** An HSTS preload list; without one, preloading is not checked (and the grade says so). */
  hstsPreload?: HstsPreloadLookup;
}

export type HttpHeadersErrorCode = 'SITE_DOWN' | 'UNEXPECTED_STATUS' | 'NO_HEADERS';

/** Why a response cannot be graded; `message` is meant for the user. */
export class HttpHeadersGradeError extends Error {
  override readonly name = 'HttpHeadersGradeError';
  readonly code: HttpHeadersErrorCode;

  constructor(code: HttpHeadersErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Everything the twelve tests read, gathered once. */
interface Observation {
  site: string | null;
  url: string | null;
  status: number | null;
  headers: HeaderList;
  page: PageBody;
  metaCsp: string[];
  metaReferrer: string | null;
  pageHttps: boolean;
  https: { certificateValid: boolean; value: string | null } | null;
  cookieSources: CookieSource[];
  /** undefined: no http:// visit was made, so redirection is not evaluated. */
  redirection: RedirectionTestInput['http'] | undefined;
  cors: CorsTestInput;
  preload: HstsPreloadLookup | undefined;
  redirects: RedirectEntry[];
  notes: string[];
  diagnostics: Diagnostic[];
}

const gradedStatus = (status: number) => status >= 200 && (status < 400 || status === 401 || status === 403);

function checkStatus(status: number | null): void {
  if (status !== null && !gradedStatus(status)) {
    throw new HttpHeadersGradeError(
      'UNEXPECTED_STATUS',
      `The response has HTTP status ${status}; like the MDN HTTP Observatory, only 2xx, 3xx, 401 and 403 responses are graded.`,
    );
  }
}

/** The page's body as the SRI and meta-policy checks see it. */
function readPage(
  headers: HeaderList,
  body: string | null,
  bodyError: string | undefined,
): { page: PageBody; metaCsp: string[]; metaReferrer: string | null } {
  const none = { metaCsp: [], metaReferrer: null };
  const mediaType = mediaTypeOf(headers);
  const html = htmlMediaTypes.has(mediaType);
  // no Content-Type at all: browsers sniff, and the Observatory treats the body as HTML
  if (mediaType !== '' && !html) return { page: { kind: 'not-html', mediaType }, ...none };
  if (body === null) return { page: { kind: 'missing' }, ...none };
  if (bodyError !== undefined) return { page: { kind: 'unparseable', reason: bodyError }, ...none };
  if (body.includes('\0')) {
    return {
      page: { kind: 'unparseable', reason: 'The body holds NUL bytes: it is binary data, not HTML.' },
      ...none,
    };
  }
  const scan = scanHtml(body);
  return {
    page: { kind: 'html', scan },
    // the Observatory reads <meta> policies only from a declared HTML response
    metaCsp: html && body ? scan.metaCsp : [],
    metaReferrer: html && body ? scan.metaReferrer : null,
  };
}

function hopEntry(hop: ExchangeHop): RedirectEntry {
  return { url: hop.url, status: hop.status, location: new HeaderList(hop.headers).combined('location') };
}

type Outcome = TestOutcome | { notEvaluated: string };

function runTests(obs: Observation): Record<ObservatoryTestName, Outcome> {
  const hsts = hstsTest({ https: obs.https, site: obs.site, preload: obs.preload });
  const csp = cspTest({
    headerValues: obs.headers.all('content-security-policy'),
    metaValues: obs.metaCsp,
    reportOnly: Boolean(obs.headers.combined('content-security-policy-report-only')),
    https: obs.pageHttps,
  });
  return {
    'content-security-policy': csp,
    cookies: cookiesTest({
      jar: collectCookies(obs.cookieSources),
      finalSetCookies: obs.headers.all('set-cookie'),
      hstsPasses: hsts.pass,
    }),
    'cross-origin-resource-sharing': corsTest(obs.cors),
    redirection:
      obs.redirection === undefined
        ? {
            notEvaluated:
              'Needs a request to http:// and its redirects; pasted headers cannot show them. The Analyser evaluates it.',
          }
        : redirectionTest({ http: obs.redirection, preload: obs.preload }),
    'referrer-policy': referrerPolicyTest(obs.headers.combined('referrer-policy'), obs.metaReferrer),
    'strict-transport-security': hsts,
    'subresource-integrity': sriTest({ page: obs.page, site: obs.site, pageHttps: obs.pageHttps }),
    'x-content-type-options': xContentTypeOptionsTest(obs.headers.combined('x-content-type-options')),
    'x-frame-options': xFrameOptionsTest(obs.headers.combined('x-frame-options'), csp.frameAncestors),
    'cross-origin-resource-policy': crossOriginResourcePolicyTest(
      obs.headers.combined('cross-origin-resource-policy'),
    ),
    'cross-origin-opener-policy': crossOriginOpenerPolicyTest(
      obs.headers.combined('cross-origin-opener-policy'),
    ),
    'cross-origin-embedder-policy': crossOriginEmbedderPolicyTest(
      obs.headers.combined('cross-origin-embedder-policy'),
    ),
  };
}

/** Two texts of the table as one paragraph; some descriptions lack their full stop. */
function sentences(first: string, second: string): string {
  return `${/[.!?]$/.test(first) ? first : `${first}.`} ${second}`;
}

const usefulRecommendation = (text: string) => (text === '' || text === 'None' ? null : text);

function statusOf(test: HeaderTest): ResultStatus {
  if (test.result === 'html-not-parseable' || test.result?.endsWith('-header-invalid')) return 'ERROR';
  if (!test.pass) return 'FAIL';
  return test.modifier <= 0 && test.recommendation !== null ? 'WARN' : 'PASS';
}

function severityOf(modifier: number): HeaderRecommendation['severity'] {
  if (modifier <= -20) return 'HIGH';
  if (modifier < 0) return 'MEDIUM';
  return 'LOW';
}

const severityRank = { HIGH: 0, MEDIUM: 1, LOW: 2 } as const;

/** Runs the tests on an observation and scores them: the Observatory's rules (see README.md). */
function evaluate(obs: Observation): HttpHeadersAnalysis {
  const outcomes = runTests(obs);
  const tests: HeaderTest[] = observatoryTestNames.map((name) => {
    const outcome = outcomes[name];
    if ('notEvaluated' in outcome) {
      return {
        name,
        title: testTitles[name],
        evaluated: false,
        pass: null,
        result: null,
        modifier: 0,
        explanation: `Not evaluated: ${outcome.notEvaluated}`,
        recommendation: null,
        details: [],
      };
    }
    const entry = scoreEntry(outcome.result);
    return {
      name,
      title: testTitles[name],
      evaluated: true,
      pass: outcome.pass,
      result: outcome.result,
      modifier: entry.modifier,
      explanation: entry.description,
      recommendation: usefulRecommendation(entry.recommendation),
      details: outcome.details,
    };
  });

  let penalties = 0;
  let bonuses = 0;
  for (const test of tests) {
    if (test.modifier < 0) penalties += test.modifier;
    else bonuses += test.modifier;
  }
  // bonuses count only when the penalties alone still leave an A
  const bonusesApplied = 100 + penalties >= minimumScoreForExtraCredit;
  const score = Math.max(0, 100 + penalties + (bonusesApplied ? bonuses : 0));

  const results: Record<string, ResultStatus> = {};
  const issues: string[] = [];
  const recommendations: HeaderRecommendation[] = [];
  for (const test of tests) {
    if (!test.evaluated || test.result === null) continue;
    const status = statusOf(test);
    results[resultKey[test.name]] = status;
    if (status === 'FAIL' || status === 'ERROR') issues.push(`${test.title}: ${test.explanation}`);
    if (test.recommendation !== null) {
      recommendations.push({
        header: testHeader[test.name],
        severity: severityOf(test.modifier),
        description: sentences(test.explanation, test.recommendation),
        example: exampleFor(test.name, test.result, obs.site),
      });
    }
  }

  const permissions = adviseOnPermissionsPolicy(
    obs.headers.combined('permissions-policy'),
    obs.headers.combined('feature-policy'),
  );
  results['permissions-policy'] = permissions.status;
  if (permissions.recommendation) {
    recommendations.push({
      header: 'Permissions-Policy',
      severity: permissions.recommendation.severity,
      description: permissions.recommendation.description,
      example: permissionsPolicyExample,
    });
  }
  recommendations.sort((a, b) => severityRank[a.severity] - severityRank[b.severity]);

  const notEvaluated = tests.filter((t) => !t.evaluated).map((t) => t.name);
  const notes = [...obs.notes];
  if (notEvaluated.length) {
    notes.push(
      `Scored from ${tests.length - notEvaluated.length} of ${tests.length} tests: ${notEvaluated
        .map((name) => testTitles[name])
        .join(
          ' and ',
        )} could not be evaluated and add nothing to the score, as the Observatory does for a test without a result.`,
    );
  }
  return {
    score,
    grade: gradeForScore(score),
    scoring: {
      algorithm: `MDN HTTP Observatory, algorithm version ${observatoryAlgorithmVersion}`,
      baseline: 100,
      penalties,
      bonuses,
      bonusesApplied,
      minimumScoreForExtraCredit,
      testsQuantity: tests.length,
      testsEvaluated: tests.length - notEvaluated.length,
      testsPassed: tests.filter((t) => t.pass === true).length,
      notEvaluated,
      notes,
    },
    url: obs.url,
    status: obs.status,
    headers: obs.headers.toRecord(),
    tests,
    recommendations,
    redirects: obs.redirects,
    results,
    issues,
    permissionsPolicy: { status: permissions.status, scored: false, findings: permissions.findings },
    diagnostics: obs.diagnostics,
  };
}

/**
 * Grades a site from what the fetcher retrieved, exactly as the MDN HTTP Observatory grades it
 * (algorithm version 6; deliberate differences are listed in README.md). Pure and synchronous:
 * all I/O happened before. Throws `HttpHeadersGradeError` when there is nothing to grade.
 */
export function gradeResponse(input: GradeResponseInput): HttpHeadersAnalysis {
  const visit = input.https ?? input.http;
  if (!visit)
    throw new HttpHeadersGradeError('SITE_DOWN', 'The site could not be reached over https or http.');
  const { response } = visit;
  checkStatus(response.status);
  const headers = new HeaderList(response.headers);
  const page = readPage(headers, response.body, response.bodyError);
  const hops = [...visit.redirects, response];
  const cors = input.cors === null ? null : new HeaderList(input.cors.headers);
  const notes: string[] = [];
  if (!input.https) notes.push('HTTPS could not be reached, so the http:// response was graded.');
  if (!input.hstsPreload) notes.push('The HSTS preload list was not consulted.');
  return evaluate({
    site: input.site.toLowerCase(),
    url: response.url,
    status: response.status,
    headers,
    ...page,
    pageHttps: visit === input.https,
    https: input.https
      ? {
          certificateValid: input.https.certificateValid,
          value: new HeaderList(input.https.response.headers).combined('strict-transport-security'),
        }
      : null,
    cookieSources: hops.map((hop) => ({
      url: new URL(hop.url),
      setCookies: new HeaderList(hop.headers).all('set-cookie'),
    })),
    redirection: input.http
      ? {
          chain: [...input.http.redirects, input.http.response].map(({ url, status }) => ({ url, status })),
          certificateValid: input.http.certificateValid,
        }
      : null,
    cors: {
      allowOrigin: cors?.combined('access-control-allow-origin') ?? null,
      allowCredentials: cors?.combined('access-control-allow-credentials') ?? null,
      requestOrigin: input.cors?.origin ?? null,
    },
    preload: input.hstsPreload,
    redirects: hops.map(hopEntry),
    notes,
    diagnostics: [],
  });
}

/**
 * Grades pasted response headers without any fetch (the Validator). The last response in the
 * paste is graded as the https front page of a site with a valid certificate; earlier ones are
 * its redirects; a body after the headers is read for SRI and `<meta>` policies. Tests that need
 * requests the paste cannot show are reported as not evaluated and score nothing.
 */
export function gradeHeaderBlock(text: string): HttpHeadersAnalysis {
  const { responses, diagnostics } = parseHeaderBlock(text);
  const final = responses.at(-1);
  if (!final || final.fields.length === 0) {
    const reason = diagnostics.find((d) => d.severity === 'error')?.message;
    throw new HttpHeadersGradeError(
      'NO_HEADERS',
      reason ?? 'No response header fields were found in the pasted text.',
    );
  }
  checkStatus(final.status);
  const headers = new HeaderList(final.fields);
  const page = readPage(headers, final.body, undefined);
  const lists = responses.map((r) => new HeaderList(r.fields));
  const redirects: RedirectEntry[] = responses.map((r, index) => ({
    url: index === 0 ? null : (lists[index - 1]?.combined('location') ?? null),
    status: r.status,
    location: lists[index]?.combined('location') ?? null,
  }));
  const notes = [
    'Graded as the response of the site’s https:// front page with a valid certificate: http: sources in a policy count as insecure, and HSTS applies.',
    'The HSTS preload list was not consulted, and cookie domains were not checked against a host.',
  ];
  if (headers.combined('access-control-allow-origin')) {
    notes.push(
      'CORS was judged from this response’s Access-Control-Allow-Origin, as if it answered the Observatory’s preflight.',
    );
  }
  if (page.page.kind === 'missing') {
    notes.push(
      'Paste the HTML body after a blank line (curl -i output) to evaluate Subresource Integrity and <meta> policies.',
    );
  }
  return evaluate({
    site: null,
    url: null,
    status: final.status,
    headers,
    ...page,
    pageHttps: true,
    https: { certificateValid: true, value: headers.combined('strict-transport-security') },
    cookieSources: lists.map((list) => ({ url: null, setCookies: list.all('set-cookie') })),
    redirection: undefined,
    cors: {
      allowOrigin: headers.combined('access-control-allow-origin'),
      allowCredentials: headers.combined('access-control-allow-credentials'),
      requestOrigin: null,
    },
    preload: undefined,
    redirects: responses.length > 1 ? redirects : [],
    notes,
    diagnostics,
  });
}
