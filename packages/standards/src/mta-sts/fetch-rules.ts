/**
 * The rules of RFC 8461 §3.3 for fetching a policy over HTTPS, as one pure function: the live check's
 * fetcher reports what happened and this says whether a sender may use the policy, and why not.
 */
import type { Diagnostic } from '../core/diagnostic.ts';

const FETCH_SECTION = 'RFC 8461 §3.3';
/** RFC 8461 §3.3 suggests a sender give up on a body over 64 KB. */
export const mtaStsPolicyFetchMaxBytes = 65536;
/** RFC 8461 §3.3 suggests a 60 s limit; the live check waits 15 s and says so. */
export const mtaStsPolicyFetchTimeoutMs = 15_000;

export interface MtaStsPolicyFetchOutcome {
  /** The HTTP status received; null when no answer came (timeout, connection or TLS failure). */
  status: number | null;
  /** The answer was a redirect (a 3xx with a Location), which we did not follow. */
  redirected: boolean;
  contentType: string | null;
  /** Body octets received (at most one over the limit when cut off). */
  bytes: number;
  /** The certificate chains to a trusted root and is in its validity period; null when TLS was not reached. */
  certificateTrusted: boolean | null;
  /** The certificate is valid for mta-sts.<domain>; null when TLS was not reached. */
  nameMatches: boolean | null;
  /** No answer within the time limit. */
  timedOut: boolean;
  /** The policy host, for messages: mta-sts.<domain>. */
  host: string;
}

export interface MtaStsPolicyFetchJudgement {
  /** A sender may use the body as the policy. */
  usable: boolean;
  diagnostics: Diagnostic[];
}

/** The consequence of any refusal, said once: mail goes on as if the domain had no MTA-STS. */
function fallback(): Diagnostic {
  return {
    severity: 'info',
    code: 'MTASTS_FETCH_NO_POLICY',
    message:
      'Senders that have no cached policy deliver as if the domain had no MTA-STS: the TXT record alone protects nothing',
    rfc: FETCH_SECTION,
    fix: 'Fix the policy host so that it answers 200 with the policy itself; senders that cached a policy keep using it until its max_age ends.',
  };
}

/**
 * Judges a policy fetch: only a 200 counts, a redirect is never followed, the certificate must be
 * trusted and valid for mta-sts.<domain>; a body over 64 KB or no answer in time is given up on; a
 * Content-Type other than text/plain is refused too, as senders SHOULD (RFC 8461 §3.3).
 */
export function judgePolicyFetch(outcome: MtaStsPolicyFetchOutcome): MtaStsPolicyFetchJudgement {
  const diagnostics: Diagnostic[] = [];
  const { host } = outcome;
  const refuse = (code: string, message: string, fix: string, requirement: Diagnostic['requirement']) => {
    const diagnostic: Diagnostic = { severity: 'error', code, message, rfc: FETCH_SECTION, fix };
    if (requirement !== undefined) diagnostic.requirement = requirement;
    diagnostics.push(diagnostic);
  };

  if (outcome.certificateTrusted === false) {
    refuse(
      'MTASTS_FETCH_CERT_UNTRUSTED',
      `The certificate of ${host} is not trusted (expired, self-signed or from an unknown authority)`,
      `Serve ${host} with a certificate from a public certificate authority, in its validity period, with its intermediates.`,
      'MUST',
    );
  }
  if (outcome.nameMatches === false) {
    refuse(
      'MTASTS_FETCH_CERT_NAME',
      `The certificate is not valid for ${host}`,
      `Add ${host} to the certificate's subject alternative names (a wildcard for the parent domain also works).`,
      'MUST',
    );
  }
  if (outcome.timedOut) {
    refuse(
      'MTASTS_FETCH_TIMEOUT',
      `${host} did not answer within ${mtaStsPolicyFetchTimeoutMs / 1000} s`,
      'Make the policy host answer quickly; RFC 8461 suggests senders wait at most 60 s, many wait less.',
      undefined,
    );
  } else if (
    outcome.redirected ||
    (outcome.status !== null && outcome.status >= 300 && outcome.status < 400)
  ) {
    refuse(
      'MTASTS_FETCH_REDIRECT',
      `The policy URL answered with a redirect (HTTP ${outcome.status ?? '3xx'}), which senders must not follow`,
      'Serve the policy file directly at https://' + host + '/.well-known/mta-sts.txt, without a redirect.',
      'MUST NOT',
    );
  } else if (outcome.status !== null && outcome.status !== 200) {
    refuse(
      'MTASTS_FETCH_STATUS',
      `The policy URL answered HTTP ${outcome.status}: only 200 gives a policy`,
      `Publish the policy at https://${host}/.well-known/mta-sts.txt so that it answers 200.`,
      'MUST',
    );
  } else if (outcome.status === null && diagnostics.length === 0) {
    refuse(
      'MTASTS_FETCH_FAILED',
      `No HTTPS answer from ${host}`,
      `Make ${host} resolve and serve HTTPS on port 443.`,
      undefined,
    );
  }
  if (outcome.bytes > mtaStsPolicyFetchMaxBytes) {
    refuse(
      'MTASTS_FETCH_TOO_LARGE',
      `The policy is over ${mtaStsPolicyFetchMaxBytes / 1024} KB: senders may give up reading it`,
      'Serve only the policy fields; a policy is a few hundred bytes.',
      undefined,
    );
  }
  if (diagnostics.length === 0) {
    const mediaType = outcome.contentType?.split(';')[0]?.trim().toLowerCase() ?? null;
    if (mediaType !== 'text/plain') {
      // senders SHOULD check the type, so that a page users may upload (HTML, images) cannot pose as a
      // policy; those that do (postfix-mta-sts-resolver among them) discard the policy
      refuse(
        'MTASTS_FETCH_CONTENT_TYPE',
        mediaType === null
          ? 'The policy is served without a Content-Type: senders that check it, as they should, refuse the policy'
          : `The policy is served as ${mediaType}, not text/plain: senders that check it, as they should, refuse the policy`,
        'Serve /.well-known/mta-sts.txt with "Content-Type: text/plain".',
        'SHOULD',
      );
    }
  }
  const usable = diagnostics.length === 0;
  if (!usable) diagnostics.push(fallback());
  return { usable, diagnostics };
}
