import type { TlsRptPolicyType } from './report.ts';

/** The sample's counts and MTA-STS max_age (spec part 1 §9). */
export const tlsRptSampleSuccesses = 100;
export const tlsRptSampleFailures = 5;
export const tlsRptSampleMaxAge = 604800;
/** Marks every sample so it is never taken for a report a real sender made. */
export const tlsRptSampleOrganization = 'rfckit (SAMPLE report, not from a real sender)';
export const tlsRptSampleContact = 'tlsrpt-sample@rfckit.invalid';

export interface TlsRptSamplePolicy {
  type: TlsRptPolicyType;
  /** The policy-string: MTA-STS policy lines, or TLSA records in presentation form. */
  strings: readonly string[];
  /** MX host names, or MTA-STS mx patterns. */
  mxHosts: readonly string[];
}

export interface TlsRptSampleInput {
  domain: string;
  policy: TlsRptSamplePolicy;
  /** When the sample is made; the report covers the UTC day before. */
  now: Date;
  /** Unique per sample; random by default. */
  reportId?: string;
}

/** The JSON of a report as RFC 8460 §4.4 writes it. */
export interface TlsRptReportJson {
  'organization-name': string;
  'date-range': { 'start-datetime': string; 'end-datetime': string };
  'contact-info': string;
  'report-id': string;
  policies: {
    policy: {
      'policy-type': TlsRptPolicyType;
      'policy-string'?: string[];
      'policy-domain': string;
      'mx-host'?: string[];
    };
    summary: { 'total-successful-session-count': number; 'total-failure-session-count': number };
    'failure-details': {
      'result-type': string;
      'sending-mta-ip': string;
      'receiving-mx-hostname': string;
      'receiving-mx-helo'?: string;
      'receiving-ip': string;
      'failed-session-count': number;
      'additional-information'?: string;
      'failure-reason-code'?: string;
    }[];
  }[];
}

/** The default MTA-STS policy of a sample when none is given: enforce, the MX hosts, the spec's max_age. */
export function sampleStsPolicyLines(mxHosts: readonly string[]): string[] {
  return [
    'version: STSv1',
    'mode: enforce',
    ...mxHosts.map((mx) => `mx: ${mx}`),
    `max_age: ${tlsRptSampleMaxAge}`,
  ];
}

/** The 5 failed sessions spread over result types a sender with this policy type can meet (RFC 8460 §4.3). */
const failuresByPolicy: Record<TlsRptPolicyType, { type: string; count: number; reason?: string }[]> = {
  sts: [
    { type: 'certificate-expired', count: 2, reason: 'X509_V_ERR_CERT_HAS_EXPIRED' },
    { type: 'certificate-host-mismatch', count: 2, reason: 'X509_V_ERR_HOSTNAME_MISMATCH' },
    { type: 'sts-policy-fetch-error', count: 1 },
  ],
  tlsa: [
    { type: 'tlsa-invalid', count: 3 },
    { type: 'dnssec-invalid', count: 1 },
    { type: 'starttls-not-supported', count: 1 },
  ],
  'no-policy-found': [
    { type: 'starttls-not-supported', count: 3 },
    { type: 'validation-failure', count: 2, reason: 'X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY' },
  ],
};

/** A host a report can name for a pattern: `*.mail.example.com` becomes `mx1.mail.example.com`. */
function concreteHost(pattern: string, index: number): string {
  return pattern.startsWith('*.') ? `mx${index + 1}.${pattern.slice(2)}` : pattern;
}

function yesterdayUtc(now: Date): { start: string; end: string } {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1));
  const date = day.toISOString().slice(0, 10);
  return { start: `${date}T00:00:00Z`, end: `${date}T23:59:59Z` };
}

/**
 * A sample aggregate report for a domain and the policy it publishes: the fields and types of RFC
 * 8460 §4.4, the UTC day before `now` (§4.1 suggests whole days), 100 successful and 5 failed
 * sessions. Addresses are from the documentation ranges (RFC 5737, RFC 3849); the organisation
 * name says it is a sample.
 */
export function buildTlsRptSampleReport(input: TlsRptSampleInput): TlsRptReportJson {
  const domain = input.domain.trim().replace(/\.$/, '').toLowerCase();
  const { type } = input.policy;
  const mxHosts = input.policy.mxHosts.length > 0 ? [...input.policy.mxHosts] : [`mx.${domain}`];
  const strings =
    input.policy.strings.length > 0
      ? [...input.policy.strings]
      : type === 'sts'
        ? sampleStsPolicyLines(mxHosts)
        : [];
  const range = yesterdayUtc(input.now);
  const reportId = input.reportId ?? `${range.start}_${domain}_${globalThis.crypto.randomUUID()}`;
  const failures = failuresByPolicy[type].map((failure, index) => {
    const host = concreteHost(mxHosts[index % mxHosts.length] ?? `mx.${domain}`, index % mxHosts.length);
    return {
      'result-type': failure.type,
      'sending-mta-ip': index % 2 === 0 ? `2001:db8:abcd:12::${index + 1}` : `192.0.2.${10 + index}`,
      'receiving-mx-hostname': host,
      'receiving-mx-helo': host,
      'receiving-ip': `203.0.113.${25 + (index % mxHosts.length)}`,
      'failed-session-count': failure.count,
      ...(failure.reason ? { 'failure-reason-code': failure.reason } : {}),
    };
  });
  const policy: TlsRptReportJson['policies'][number]['policy'] = {
    'policy-type': type,
    ...(type === 'no-policy-found' ? {} : { 'policy-string': strings }),
    'policy-domain': domain,
    'mx-host': mxHosts,
  };
  return {
    'organization-name': tlsRptSampleOrganization,
    'date-range': { 'start-datetime': range.start, 'end-datetime': range.end },
    'contact-info': tlsRptSampleContact,
    'report-id': reportId,
    policies: [
      {
        policy,
        summary: {
          'total-successful-session-count': tlsRptSampleSuccesses,
          'total-failure-session-count': failures.reduce(
            (sum, failure) => sum + failure['failed-session-count'],
            0,
          ),
        },
        'failure-details': failures,
      },
    ],
  };
}
