import {
  generateSecurityTxt,
  isSecurityTxtResponse,
  securityTxtFetchBody,
  securityTxtFetchHost,
  securityTxtFetchResultSchema,
  securityTxtGenerateBody,
  securityTxtGenerateResultSchema,
  securityTxtLocations,
  securityTxtMaxLength,
  securityTxtNotFound,
  securityTxtValidateBody,
  securityTxtValidationResultSchema,
  toValidationResult,
  validateSecurityTxt,
  type SecurityTxtFetchAttempt,
  type SecurityTxtFetchResultData,
  type SecurityTxtFetchSource,
} from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { openPgpVerifier } from '../../crypto/openpgp-verifier.ts';
import { NetError } from '../../net/errors.ts';
import { headerValue, type FetchResult, type HttpLimits } from '../../net/http.ts';
import type { NetSession } from '../../net/layer.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';

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
 * Looks for the file at the locations of RFC 9116 §3 in order (https /.well-known/, https legacy,
 * then both over http so that a file served only over http is reported as such) and validates the
 * first one found with the facts of its response. Redirects are followed, each hop re-checked by
 * the outbound layer, and reported (RFC 9116 §5.2). Certificate errors are findings, not failures.
 */
async function fetchSecurityTxt(
  net: NetSession,
  host: string,
  publicKey: string | undefined,
): Promise<SecurityTxtFetchResultData> {
  const attempts: SecurityTxtFetchAttempt[] = [];
  // an origin that refused the connection is not asked again for its other location
  const unreachable = new Map<string, string>();
  let firstFailure: NetError | undefined;
  let answered = false;

  for (const url of securityTxtLocations(host)) {
    const origin = new URL(url).origin;
    const skipped = unreachable.get(origin);
    if (skipped !== undefined) {
      attempts.push({ url, status: null, finalUrl: null, error: `Not tried: ${skipped}` });
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
  if (!answered && firstFailure !== undefined) throw firstFailure;
  const tried = attempts.map((attempt) => attempt.url);
  return { ...toValidationResult([securityTxtNotFound(tried)]), domain: host, source: null, attempts };
}

/**
 * security.txt (RFC 9116): generate a file from the form, validate a pasted one, or fetch a site's
 * file and validate it with the HTTP checks. The logic lives in @rfckit/standards; this adds
 * OpenPGP.js to verify signatures with a supplied key, and the guarded outbound layer.
 */
const securityTxt: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/security-txt/generate',
    {
      schema: {
        tags: ['security.txt'],
        summary: 'Generate a security.txt file',
        description:
          'Writes the fields in RFC 9116 order, one per line, with LF line ends and a final newline. ' +
          '`warnings` holds advice that did not block generation.',
        body: securityTxtGenerateBody,
        response: { 200: successEnvelope(securityTxtGenerateResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const result = generateSecurityTxt(request.body);
      // the body schema ran the same checks; only a clock tick past Expires gets here
      if (!result.ok) throw new HttpError(400, 'VALIDATION_ERROR', result.errors[0]!.message);
      return { success: true as const, data: { file: result.file, warnings: result.warnings } };
    },
  );

  app.post(
    '/security-txt/validate',
    {
      schema: {
        tags: ['security.txt'],
        summary: 'Validate security.txt content',
        description:
          'Checks the file against RFC 9116 with the checks and codes of sectxt (errors, recommendations as ' +
          'warnings, notifications as info), each with its line. With `publicKey`, an OpenPGP cleartext ' +
          'signature is verified.',
        body: securityTxtValidateBody,
        response: { 200: successEnvelope(securityTxtValidationResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { content, publicKey } = request.body;
      const data = await validateSecurityTxt(content, {
        ...(publicKey === undefined ? {} : { publicKey }),
        verifier: openPgpVerifier,
      });
      return { success: true as const, data };
    },
  );

  app.post(
    '/security-txt/fetch',
    {
      schema: {
        tags: ['security.txt'],
        summary: "Fetch a site's security.txt and validate it",
        description:
          'Looks for the file at https://<domain>/.well-known/security.txt, then /security.txt, then both over ' +
          'http (RFC 9116 §3), following and reporting redirects, and validates the first one found with every ' +
          'check of /validate plus the HTTP ones: location, https, certificate, Content-Type, charset, Canonical ' +
          'against the URLs fetched, and a redirect to another host. No file at any location is a result ' +
          '(`no_security_txt`, valid false), not an error. Errors: 422 when the domain does not resolve or its ' +
          'address may not be reached, 502/504 when the site cannot be reached or answers more than 64 KiB.',
        body: securityTxtFetchBody,
        response: {
          200: successEnvelope(securityTxtFetchResultSchema),
          '4xx': errorEnvelopeSchema,
          '5xx': errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const host = securityTxtFetchHost(request.body.domain);
      // the body schema ran the same check
      if (!host.ok) throw new HttpError(400, 'VALIDATION_ERROR', host.message);
      const data = await fetchSecurityTxt(app.net.session(), host.host, request.body.publicKey);
      return { success: true as const, data };
    },
  );
};

export default securityTxt;
