// MTA-STS discovery as a sending MTA does it (RFC 8461 §3): the TXT record at _mta-sts.<domain>
// and the policy fetched over HTTPS from mta-sts.<domain>, through the guarded network layer
// (docs/architecture.md §6). What a sender must refuse is said in `refusal`, with its section.
import { isMtaStsRecord, mtaStsPolicyMaxBytes } from '@rfckit/standards';
import { NetError } from '../net/errors.ts';
import { headerValue, type FetchResult, type HttpLimits } from '../net/http.ts';
import type { NetSession } from '../net/layer.ts';

/** RFC 8461 §3.3 suggests senders stop reading a policy at 64 KB. */
export const MTA_STS_POLICY_MAX_BYTES = mtaStsPolicyMaxBytes;

/**
 * RFC 8461 §3.3 suggests a 60 s limit on the fetch; a check a person waits for uses 15 s, which is
 * still far beyond what a policy file of a few hundred bytes needs.
 */
export const MTA_STS_POLICY_TIMEOUT_MS = 15_000;

const FETCH_LIMITS: Partial<HttpLimits> = {
  maxBodyBytes: MTA_STS_POLICY_MAX_BYTES,
  maxRedirects: 0,
  connectTimeoutMs: 10_000,
  firstByteTimeoutMs: 10_000,
  totalTimeoutMs: MTA_STS_POLICY_TIMEOUT_MS,
};

export interface MtaStsRecordLookup {
  /** `_mta-sts.<domain>` */
  name: string;
  /** The TXT records that start with `v=STSv1`, the strings of each joined (RFC 8461 §3.1). */
  records: string[];
  /** The lookup failed (SERVFAIL, timeout …), in plain words; null when it was answered. */
  dnsError: string | null;
}

export interface MtaStsPolicyRefusal {
  code: string;
  message: string;
  rfc: string;
  fix: string;
}

export interface MtaStsPolicyFetch {
  /** `https://mta-sts.<domain>/.well-known/mta-sts.txt` */
  url: string;
  status: number | null;
  contentType: string | null;
  bytes: number;
  /** The policy text, only when it was fetched within the rules. */
  body: string | null;
  refusal: MtaStsPolicyRefusal | null;
  certificate: {
    subject: string;
    issuer: string;
    notAfter: string;
    trusted: boolean;
    nameMatches: boolean;
  } | null;
  durationMs: number;
}

export const mtaStsRecordName = (domain: string) => `_mta-sts.${domain}`;
export const mtaStsPolicyHost = (domain: string) => `mta-sts.${domain}`;
export const mtaStsPolicyUrl = (domain: string) =>
  `https://${mtaStsPolicyHost(domain)}/.well-known/mta-sts.txt`;

/** The TXT records at `_mta-sts.<domain>` that are MTA-STS records; never throws. */
export async function lookupMtaStsRecord(
  net: NetSession,
  domain: string,
  signal: AbortSignal,
): Promise<MtaStsRecordLookup> {
  const name = mtaStsRecordName(domain);
  signal.throwIfAborted();
  const answer = await net.dns.query(name, 'TXT');
  switch (answer.status) {
    case 'ok':
      return {
        name,
        records: answer.records.map((record) => record.text).filter(isMtaStsRecord),
        dnsError: null,
      };
    case 'nxdomain':
    case 'nodata':
      return { name, records: [], dnsError: null };
    case 'servfail':
      return { name, records: [], dnsError: `The DNS servers of ${name} answered SERVFAIL` };
    case 'timeout':
      return { name, records: [], dnsError: `No DNS answer for ${name} TXT in time` };
    case 'error':
      return { name, records: [], dnsError: `The TXT lookup of ${name} failed: ${answer.message}` };
  }
}

const policyFix = (domain: string) =>
  `Serve the policy with status 200 and Content-Type text/plain at ${mtaStsPolicyUrl(domain)}, directly (no redirect), ` +
  `from a server whose certificate is valid for ${mtaStsPolicyHost(domain)} and chains to a public CA.`;

/** Why a response that arrived is not a policy a sender may use (RFC 8461 §3.3), or null. */
function responseRefusal(domain: string, result: FetchResult): MtaStsPolicyRefusal | null {
  const fix = policyFix(domain);
  const host = mtaStsPolicyHost(domain);
  const problem = result.tls?.verificationError;
  if (result.tls !== undefined && !result.tls.verified)
    return {
      code: problem?.problem === 'wrong-name' ? 'MTA_STS_POLICY_CERT_NAME' : 'MTA_STS_POLICY_CERT_INVALID',
      message: `The policy host's certificate is refused: ${problem?.message ?? 'verification failed'}. Senders must not use a policy fetched over it.`,
      rfc: 'RFC 8461 §3.3',
      fix: `Install a certificate valid for ${host} (a DNS-ID, RFC 6125), unexpired and chaining to a public CA, with its intermediates.`,
    };
  if (result.status >= 300 && result.status < 400)
    return {
      code: 'MTA_STS_POLICY_REDIRECT',
      message: `The policy URL answered HTTP ${result.status}, a redirect${
        headerValue(result.headers, 'location') === undefined
          ? ''
          : ` to ${headerValue(result.headers, 'location')}`
      }. Senders must not follow redirects when fetching a policy.`,
      rfc: 'RFC 8461 §3.3',
      fix,
    };
  if (result.status !== 200)
    return {
      code: 'MTA_STS_POLICY_STATUS',
      message: `The policy URL answered HTTP ${result.status}; only a 200 answer carries a policy, so senders deliver as though MTA-STS were not published.`,
      rfc: 'RFC 8461 §3.3',
      fix,
    };
  const contentType = headerValue(result.headers, 'content-type');
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'text/plain')
    return {
      code: 'MTA_STS_POLICY_CONTENT_TYPE',
      message: `The policy is served as ${contentType === undefined ? 'no media type' : `"${contentType}"`}, not text/plain; senders refuse it, so that a page of the web site cannot pose as a policy.`,
      rfc: 'RFC 8461 §3.3',
      fix: `Serve ${mtaStsPolicyUrl(domain)} with "Content-Type: text/plain".`,
    };
  return null;
}

/** A fetch that ended without a response, said as the sender would see it. */
function failureRefusal(domain: string, error: NetError): MtaStsPolicyRefusal {
  const host = mtaStsPolicyHost(domain);
  switch (error.code) {
    case 'BODY_TOO_LARGE':
      return {
        code: 'MTA_STS_POLICY_TOO_LARGE',
        message: `The policy is larger than ${MTA_STS_POLICY_MAX_BYTES / 1024} KB; senders stop reading there and do not use it.`,
        rfc: 'RFC 8461 §3.3',
        fix: 'Serve the policy file itself: a few lines of version, mode, mx and max_age.',
      };
    case 'TOO_MANY_REDIRECTS':
    case 'INVALID_REDIRECT':
      return {
        code: 'MTA_STS_POLICY_REDIRECT',
        message:
          'The policy URL answered with a redirect. Senders must not follow redirects when fetching a policy.',
        rfc: 'RFC 8461 §3.3',
        fix: policyFix(domain),
      };
    case 'TLS_CERTIFICATE_INVALID':
    case 'TLS_HANDSHAKE_FAILED':
      return {
        code: 'MTA_STS_POLICY_TLS',
        message: `No TLS connection with a valid certificate to ${host}: ${error.message}.`,
        rfc: 'RFC 8461 §3.3',
        fix: `Serve HTTPS on ${host} with a certificate valid for that name.`,
      };
    case 'DNS_NOT_FOUND':
    case 'DNS_NO_ADDRESS':
      return {
        code: 'MTA_STS_POLICY_HOST_MISSING',
        message: `${host} has no address, so no policy can be fetched; senders deliver as though MTA-STS were not published.`,
        rfc: 'RFC 8461 §3.3',
        fix: `Publish an A or AAAA record for ${host} and serve the policy there over HTTPS.`,
      };
    case 'TIMEOUT':
    case 'FIRST_BYTE_TIMEOUT':
    case 'CONNECT_TIMEOUT':
      return {
        code: 'MTA_STS_POLICY_TIMEOUT',
        message: `${host} did not deliver the policy within ${MTA_STS_POLICY_TIMEOUT_MS / 1000} s (our limit; RFC 8461 §3.3 suggests senders wait at most 60 s).`,
        rfc: 'RFC 8461 §3.3',
        fix: `Make ${mtaStsPolicyUrl(domain)} answer promptly.`,
      };
    default:
      return {
        code: 'MTA_STS_POLICY_UNREACHABLE',
        message: `The policy could not be fetched from ${host}: ${error.message}.`,
        rfc: 'RFC 8461 §3.3',
        fix: policyFix(domain),
      };
  }
}

/**
 * Fetches the policy as RFC 8461 §3.3 tells a sender to: HTTPS only, no redirect followed, a
 * certificate valid for mta-sts.<domain>, 64 KB at most, text/plain. A refused address (the guard)
 * is thrown as the NetError it is; every other outcome is in the answer.
 */
export async function fetchMtaStsPolicy(
  net: NetSession,
  domain: string,
  signal: AbortSignal,
): Promise<MtaStsPolicyFetch> {
  const url = mtaStsPolicyUrl(domain);
  const began = performance.now();
  const elapsed = () => Math.round(performance.now() - began);
  try {
    const result = await net.fetch(url, {
      limits: FETCH_LIMITS,
      certificateErrors: 'report',
      followRedirects: false,
      headers: { Accept: 'text/plain' },
      signal,
    });
    const refusal = responseRefusal(domain, result);
    const leaf = result.tls?.certificates[0];
    const problem = result.tls?.verificationError?.problem;
    return {
      url,
      status: result.status,
      contentType: headerValue(result.headers, 'content-type') ?? null,
      bytes: result.body.length,
      // RFC 8461 §3.2: the policy is UTF-8 text
      body: refusal === null ? new TextDecoder('utf-8').decode(result.body) : null,
      refusal,
      certificate:
        leaf === undefined || result.tls === undefined
          ? null
          : {
              subject: leaf.subject,
              issuer: leaf.issuer,
              notAfter: leaf.validTo,
              trusted: result.tls.verified || problem === 'wrong-name',
              nameMatches: result.tls.hostnameMatches,
            },
      durationMs: elapsed(),
    };
  } catch (error) {
    if (signal.aborted || !(error instanceof NetError) || error.code === 'OUTBOUND_BLOCKED') throw error;
    if (error.code === 'RESOLVER_UNAVAILABLE') throw error;
    return {
      url,
      status: null,
      contentType: null,
      bytes: error.code === 'BODY_TOO_LARGE' ? MTA_STS_POLICY_MAX_BYTES : 0,
      body: null,
      refusal: failureRefusal(domain, error),
      certificate: null,
      durationMs: elapsed(),
    };
  }
}
