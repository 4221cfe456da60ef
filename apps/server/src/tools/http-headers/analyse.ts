import { TextDecoder } from 'node:util';
import {
  gradeResponse,
  HttpHeadersGradeError,
  type CorsPreflight,
  type FetchedResponse,
  type FetchedVisit,
  type HeaderField,
  type HstsPreloadLookup,
  type HttpHeadersAnalysis,
} from '@rfckit/standards';
import { NetError } from '../../net/errors.ts';
import { headerValue, type FetchResult } from '../../net/http.ts';
import type { NetSession } from '../../net/layer.ts';
import { HttpError } from '../../plugins/errors.ts';

/**
 * The Origin of our CORS preflight: foreign to every site graded (no one can own a name under
 * `.invalid`, RFC 2606), so a site that echoes it would echo anyone's.
 */
export const PREFLIGHT_ORIGIN = 'https://observatory.rfckit.invalid';

/** As the Observatory: each visit follows at most 10 redirects. */
const MAX_REDIRECTS = 10;

/** The two visits of one analysis, as the Observatory scans a host: its https:// and http:// front. */
interface AnalysisTarget {
  /** Host name graded (no brackets for an IPv6 literal). */
  site: string;
  https: string;
  http: string;
}

/**
 * Reads what the user typed: a URL, or a bare host name (with an optional port and path) taken
 * as https. The URL's own scheme keeps its port; the other scheme is visited on its default port
 * with the same path.
 */
export function analysisTarget(input: string): AnalysisTarget {
  const text = /^[a-z][a-z\d+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  const url = URL.parse(text);
  if (url === null || url.hostname === '')
    throw new HttpError(400, 'INVALID_URL', `Not a URL or host name: ${JSON.stringify(input.slice(0, 200))}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HttpError(
      400,
      'INVALID_URL',
      `Only http and https sites can be analysed (got ${url.protocol})`,
    );
  if (url.username !== '' || url.password !== '')
    throw new HttpError(400, 'INVALID_URL', 'URLs with a user name or password are not fetched');
  url.hash = '';
  const twin = new URL(
    `${url.pathname}${url.search}`,
    `${url.protocol === 'https:' ? 'http' : 'https'}://${url.hostname}`,
  );
  return {
    site: url.hostname.replace(/^\[|\]$/g, ''),
    https: url.protocol === 'https:' ? url.href : twin.href,
    http: url.protocol === 'http:' ? url.href : twin.href,
  };
}

const fields = (headers: readonly (readonly [string, string])[]): HeaderField[] =>
  headers.map(([name, value]) => ({ name, value }));

/**
 * The body as text for the SRI and `<meta>` checks. A charset the Content-Type declares must
 * decode cleanly (else the page counts as unparseable HTML); without one (or with a label no
 * browser knows), UTF-8 is tried and windows-1252 taken otherwise, as browsers fall back.
 */
function decodeBody(
  result: Pick<FetchResult, 'headers' | 'body'>,
): Pick<FetchedResponse, 'body' | 'bodyError'> {
  const label = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(headerValue(result.headers, 'content-type') ?? '')?.[1];
  let declared: TextDecoder | undefined;
  try {
    declared = label === undefined ? undefined : new TextDecoder(label, { fatal: true });
  } catch {
    declared = undefined;
  }
  try {
    return { body: (declared ?? new TextDecoder('utf-8', { fatal: true })).decode(result.body) };
  } catch {
    if (declared === undefined) return { body: new TextDecoder('windows-1252').decode(result.body) };
    return {
      body: '',
      bodyError: `The body is not valid ${declared.encoding}, the charset its Content-Type declares.`,
    };
  }
}

/** One visit as the grader reads it: every redirect's headers, the final response, the certificates. */
export function fetchedVisit(result: FetchResult): FetchedVisit {
  return {
    redirects: result.redirects.map((hop) => ({
      url: hop.url,
      status: hop.status,
      headers: fields(hop.headers),
    })),
    response: {
      url: result.url,
      status: result.status,
      headers: fields(result.headers),
      ...decodeBody(result),
    },
    // the Observatory goes on without verification and records that it had to
    certificateValid: [...result.redirects, result].every((hop) => hop.tls === undefined || hop.tls.verified),
  };
}

/**
 * Nothing listening (or no TLS) on the first hop: the visit did not happen, as when the
 * Observatory finds no https or no http. Everything else (a refusal, a lookup failure, a cut-off,
 * a failure after a redirect) is an answer about the site the user should read instead of a grade.
 */
function notListening(error: NetError): boolean {
  const redirects = error.details.redirects;
  return (
    ['CONNECT_FAILED', 'CONNECT_TIMEOUT', 'TLS_HANDSHAKE_FAILED'].includes(error.code) &&
    !(Array.isArray(redirects) && redirects.length > 0)
  );
}

function netFailure(outcome: PromiseSettledResult<FetchResult>): NetError | null {
  if (outcome.status === 'fulfilled') return null;
  if (outcome.reason instanceof NetError) return outcome.reason;
  throw outcome.reason;
}

/**
 * Makes the MDN HTTP Observatory's requests for a site through the guarded client (https and http
 * visits in parallel, then the CORS preflight to the graded URL) and grades them.
 */
export async function analyseSite(
  net: NetSession,
  target: AnalysisTarget,
  hstsPreload: HstsPreloadLookup | undefined,
): Promise<HttpHeadersAnalysis> {
  const visit = (url: string) =>
    net.fetch(url, { certificateErrors: 'report', limits: { maxRedirects: MAX_REDIRECTS } });
  const [httpsOutcome, httpOutcome] = await Promise.allSettled([visit(target.https), visit(target.http)]);
  const failures = [netFailure(httpsOutcome), netFailure(httpOutcome)];
  const [httpsFailure, httpFailure] = failures;
  // a refused address is the answer whatever the other visit found: nothing is graded around it
  const refused = failures.find((error) => error?.code === 'OUTBOUND_BLOCKED');
  if (refused) throw refused;
  const telling = failures.find((error) => error !== null && !notListening(error));
  if (telling) throw telling;
  if (httpsFailure && httpFailure)
    throw new HttpError(
      502,
      'SITE_DOWN',
      `The site could not be reached over https or http: ${httpsFailure.message}; ${httpFailure.message}`,
      {
        tried: [
          { target: target.https, outcome: httpsFailure.message },
          { target: target.http, outcome: httpFailure.message },
        ],
      },
    );

  const https = httpsOutcome.status === 'fulfilled' ? httpsOutcome.value : null;
  const http = httpOutcome.status === 'fulfilled' ? httpOutcome.value : null;
  const graded = (https ?? http)!;
  let cors: CorsPreflight | null = null;
  try {
    const answer = await net.fetch(graded.url, {
      method: 'OPTIONS',
      headers: { Origin: PREFLIGHT_ORIGIN, 'Access-Control-Request-Method': 'GET' },
      followRedirects: false,
      certificateErrors: 'report',
    });
    cors = { origin: PREFLIGHT_ORIGIN, headers: fields(answer.headers) };
  } catch (error) {
    // no answer to the preflight: CORS is graded as not implemented, as the Observatory does
    if (!(error instanceof NetError)) throw error;
  }

  let analysis: HttpHeadersAnalysis;
  try {
    analysis = gradeResponse({
      site: target.site,
      https: https && fetchedVisit(https),
      http: http && fetchedVisit(http),
      cors,
      ...(hstsPreload === undefined ? {} : { hstsPreload }),
    });
  } catch (error) {
    if (error instanceof HttpHeadersGradeError)
      throw new HttpError(error.code === 'SITE_DOWN' ? 502 : 422, error.code, error.message);
    throw error;
  }
  for (const [url, failure] of [
    [target.https, httpsFailure],
    [target.http, httpFailure],
  ] as const) {
    if (failure) analysis.scoring.notes.push(`${url} could not be fetched: ${failure.message}`);
  }
  return analysis;
}
