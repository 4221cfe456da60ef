// MTA-STS discovery as a sending MTA does it (RFC 8461 §3): the TXT record at _mta-sts.<domain>
// and the policy fetched over HTTPS from mta-sts.<domain>, through the guarded network layer
// (docs/architecture.md §6). What a sender must refuse is said in `refusal`, with its section.
import {
  isMtaStsRecord,
  judgePolicyFetch,
  mtaStsPolicyFetchMaxBytes,
  mtaStsPolicyFetchTimeoutMs,
  mtaStsPolicyHost,
  mtaStsPolicyUrl,
  mtaStsRecordName,
  type Diagnostic,
} from '@rfckit/standards';
import { NetError } from '../net/errors.ts';
import { headerValue, type HttpLimits } from '../net/http.ts';
import type { NetSession } from '../net/layer.ts';

/** RFC 8461 §3.3 suggests senders stop reading a policy at 64 KB. */
export const MTA_STS_POLICY_MAX_BYTES = mtaStsPolicyFetchMaxBytes;

/**
 * RFC 8461 §3.3 suggests a 60 s limit on the fetch; a check a person waits for uses 15 s, which is
 * still far beyond what a policy file of a few hundred bytes needs.
 */
export const MTA_STS_POLICY_TIMEOUT_MS = mtaStsPolicyFetchTimeoutMs;

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
  /** The RFC 8461 §3.3 judgement of the fetch (judgePolicyFetch): the refusal, its consequence, warnings. */
  diagnostics: Diagnostic[];
  certificate: {
    subject: string;
    issuer: string;
    notAfter: string;
    trusted: boolean;
    nameMatches: boolean;
  } | null;
  durationMs: number;
}

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

/** The first refusal of a judgement, as the contract's `refusal`. */
function refusalOf(diagnostics: readonly Diagnostic[]): MtaStsPolicyRefusal | null {
  const refused = diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  return refused === undefined
    ? null
    : {
        code: refused.code,
        message: refused.message,
        rfc: refused.rfc ?? 'RFC 8461 §3.3',
        fix: refused.fix ?? '',
      };
}

const TIMEOUTS = new Set(['TIMEOUT', 'FIRST_BYTE_TIMEOUT', 'CONNECT_TIMEOUT']);

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
    const leaf = result.tls?.certificates[0];
    const problem = result.tls?.verificationError?.problem;
    // a certificate valid for another name still chains: RFC 8461 §3.3 refuses both, apart
    const trusted = result.tls === undefined ? null : result.tls.verified || problem === 'wrong-name';
    const contentType = headerValue(result.headers, 'content-type') ?? null;
    const judgement = judgePolicyFetch({
      status: result.status,
      redirected: headerValue(result.headers, 'location') !== undefined,
      contentType,
      bytes: result.body.length,
      certificateTrusted: trusted,
      nameMatches: result.tls?.hostnameMatches ?? null,
      timedOut: false,
      host: mtaStsPolicyHost(domain),
    });
    return {
      url,
      status: result.status,
      contentType,
      bytes: result.body.length,
      // RFC 8461 §3.2: the policy is UTF-8 text
      body: judgement.usable ? new TextDecoder('utf-8').decode(result.body) : null,
      refusal: refusalOf(judgement.diagnostics),
      diagnostics: judgement.diagnostics,
      certificate:
        leaf === undefined || trusted === null
          ? null
          : {
              subject: leaf.subject,
              issuer: leaf.issuer,
              notAfter: leaf.validTo,
              trusted,
              nameMatches: result.tls?.hostnameMatches ?? false,
            },
      durationMs: elapsed(),
    };
  } catch (error) {
    if (signal.aborted || !(error instanceof NetError) || error.code === 'OUTBOUND_BLOCKED') throw error;
    if (error.code === 'RESOLVER_UNAVAILABLE') throw error;
    const tooLarge = error.code === 'BODY_TOO_LARGE';
    const status = tooLarge && typeof error.details.status === 'number' ? error.details.status : null;
    const contentType =
      tooLarge && typeof error.details.contentType === 'string' ? error.details.contentType : null;
    const tlsFailed = error.code === 'TLS_CERTIFICATE_INVALID' || error.code === 'TLS_HANDSHAKE_FAILED';
    const judgement = judgePolicyFetch({
      status,
      redirected: error.code === 'TOO_MANY_REDIRECTS',
      contentType,
      bytes: tooLarge ? MTA_STS_POLICY_MAX_BYTES + 1 : 0,
      certificateTrusted: tlsFailed ? false : null,
      nameMatches: null,
      timedOut: TIMEOUTS.has(error.code),
      host: mtaStsPolicyHost(domain),
    });
    // what stopped the fetch, in the network's words, beside the rule it breaks
    const diagnostics = judgement.diagnostics.map((diagnostic) =>
      diagnostic.code === 'MTASTS_FETCH_FAILED'
        ? { ...diagnostic, message: `${diagnostic.message}: ${error.message}` }
        : diagnostic,
    );
    return {
      url,
      status,
      contentType,
      bytes: tooLarge ? MTA_STS_POLICY_MAX_BYTES + 1 : 0,
      body: null,
      refusal: refusalOf(diagnostics),
      diagnostics,
      certificate: null,
      durationMs: elapsed(),
    };
  }
}
