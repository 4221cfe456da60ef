import {
  isSecurityTxtResponse,
  securityTxtLocations,
  securityTxtMaxLength,
  securityTxtNotFound,
  toValidationResult,
  validateSecurityTxt,
  type SecurityTxtFetchAttempt,
  type SecurityTxtFetchResultData,
  type SecurityTxtFetchSource,
} from '@rfckit/standards';
import { openPgpVerifier } from '../../crypto/openpgp-verifier.ts';
import { NetError } from '../../net/errors.ts';
import { headerValue, type FetchResult, type HttpLimits } from '../../net/http.ts';
import type { NetSession } from '../../net/layer.ts';

/**
 * A security.txt file is a few hundred bytes: a response longer than a pasted file may be is not
 * one. Four locations are tried at most, so each fetch gets a short budget.
 */
const FETCH_LIMITS: Partial<HttpLimits> = {
  maxBodyBytes: securityTxtMaxLength,
  maxRedirects: 5,
  connectTimeoutMs: 5_000,
  firstByteTimeoutMs: 8_000,
  totalTimeoutMs: 10_000,
};

/**
 * Failures that end the search rather than the one location: the domain does not resolve or its
 * address is refused (the same at every location), or a redirect into a refused address. Anything
 * else (refused connection, timeout, broken TLS) may be the https side alone: the next location
 * is tried.
 */
function endsSearch(error: NetError): boolean {
  if (error.code === 'INVALID_URL' || error.code === 'OUTBOUND_BLOCKED') return true;
  return error.code.startsWith('DNS_') && !hasRedirects(error);
}

function hasRedirects(error: NetError): boolean {
  const redirects = error.details.redirects;
  return Array.isArray(redirects) && redirects.length > 0;
}

/** Why the certificate of any https hop failed (the final one, or one that redirected). */
function certificateError(result: FetchResult): string | null {
  const hops = [...result.redirects, { url: result.url, tls: result.tls }];
  const failed = hops.find((hop) => hop.tls !== undefined && !hop.tls.verified);
  if (failed?.tls === undefined) return null;
  const message = failed.tls.verificationError?.message ?? 'verification failed';
  return failed.url === result.url
    ? message
    : `${message} (at ${new URL(failed.url).host}, which redirected)`;
}

function sourceOf(requested: string, result: FetchResult): SecurityTxtFetchSource {
  const leaf = result.tls?.certificates[0];
  const problem = result.tls?.verificationError;
  return {
    url: requested,
    finalUrl: result.url,
    status: result.status,
    contentType: headerValue(result.headers, 'content-type') ?? null,
    // as the validator numbers lines: a BOM stays, so line 1 is quoted as served
    content: result.body.toString('utf8'),
    redirects: result.redirects.map(({ url, status, location }) => ({ url, status, location })),
    certificate:
      result.tls === undefined || leaf === undefined
        ? null
        : {
            host: new URL(result.url).hostname,
            verified: result.tls.verified,
            ...(problem === undefined ? {} : { problem: problem.problem, message: problem.message }),
            subject: leaf.subject,
            issuer: leaf.issuer,
            validFrom: leaf.validFrom,
            validTo: leaf.validTo,
          },
  };
}

/**
 * No location answered at all: the site is down or unreachable, which says nothing about its file,
 * so we could not check. The answer keeps the first failure's code and lists every place tried.
 */
function unreachableSite(attempts: readonly SecurityTxtFetchAttempt[], first: NetError): NetError {
  const failures = [
    ...new Set(
      attempts.flatMap((attempt) => (attempt.error?.startsWith(NOT_TRIED) ? [] : [attempt.error ?? ''])),
    ),
  ];
  return new NetError(first.code, failures.join('; '), {
    cause: first,
    details: first.details,
    tried: attempts.map((attempt) => ({
      target: attempt.url,
      outcome: attempt.error ?? `HTTP ${attempt.status}`,
    })),
  });
}

const NOT_TRIED = 'Not tried: ';

/**
 * Looks for the file at the locations of RFC 9116 §3 in order (https /.well-known/, https legacy,
 * then both over http so that a file served only over http is reported as such), or at the origin
 * the user's URL named with its port, and validates the first one found with the facts of its
 * response. Redirects are followed, each hop re-checked by the outbound layer, and reported
 * (RFC 9116 §5.2). Certificate errors are findings, not failures. Every location asked is in
 * `attempts` with its outcome.
 */
export async function fetchSecurityTxt(
  net: NetSession,
  host: string,
  publicKey: string | undefined,
  origin?: string,
): Promise<SecurityTxtFetchResultData> {
  const attempts: SecurityTxtFetchAttempt[] = [];
  // an origin that refused the connection is not asked again for its other location
  const unreachable = new Map<string, string>();
  let firstFailure: NetError | undefined;
  let answered = false;

  for (const url of securityTxtLocations(host, origin)) {
    const origin = new URL(url).origin;
    const skipped = unreachable.get(origin);
    if (skipped !== undefined) {
      attempts.push({ url, status: null, finalUrl: null, error: `${NOT_TRIED}${skipped}` });
      continue;
    }
    let result: FetchResult;
    try {
      result = await net.fetch(url, {
        certificateErrors: 'report',
        limits: FETCH_LIMITS,
        headers: { accept: 'text/plain, */*;q=0.1' },
      });
    } catch (error) {
      if (!(error instanceof NetError)) throw error;
      // a clear verdict on the site: no location after it would change that
      if (error.code === 'BODY_TOO_LARGE') {
        throw new NetError(
          'BODY_TOO_LARGE',
          `The response from ${String(error.details.url ?? url)} is larger than ${securityTxtMaxLength / 1024} KiB, so it is not a security.txt file (which is a few hundred bytes)`,
          { cause: error, details: error.details },
        );
      }
      if (endsSearch(error)) throw error;
      firstFailure ??= error;
      if (!hasRedirects(error)) unreachable.set(origin, error.message);
      attempts.push({ url, status: null, finalUrl: null, error: error.message });
      continue;
    }
    answered = true;
    if (!isSecurityTxtResponse(url, result.url, result.status)) {
      attempts.push({
        url,
        status: result.status,
        finalUrl: result.url,
        error:
          result.status === 200
            ? `Redirected to ${result.url}, which is not a security.txt location`
            : `HTTP ${result.status}${result.statusText ? ` ${result.statusText}` : ''}`,
      });
      continue;
    }
    attempts.push({ url, status: result.status, finalUrl: result.url, error: null });
    const source = sourceOf(url, result);
    const validation = await validateSecurityTxt(result.body, {
      ...(publicKey === undefined ? {} : { publicKey }),
      verifier: openPgpVerifier,
      source: {
        urls: [...result.redirects.map((hop) => hop.url), result.url],
        contentType: source.contentType,
        certificateError: certificateError(result),
      },
    });
    return { ...validation, domain: host, source, attempts };
  }

  // no response at all: the site is down or unreachable, which is not a finding about its file
  if (!answered && firstFailure !== undefined) throw unreachableSite(attempts, firstFailure);
  const tried = attempts.map((attempt) => attempt.url);
  return { ...toValidationResult([securityTxtNotFound(tried)]), domain: host, source: null, attempts };
}
