import { parseRfc3339 } from '../core/date-time.ts';
import { toValidationResult, type Diagnostic, type ValidationResult } from '../core/diagnostic.ts';
import { tlsRptResultTypeInfo, type TlsRptResultCategory } from './result-types.ts';

/** The policy types of RFC 8460 §4.4 `policy-type`. */
export const tlsRptPolicyTypes = ['sts', 'tlsa', 'no-policy-found'] as const;
export type TlsRptPolicyType = (typeof tlsRptPolicyTypes)[number];

/** A session count as RFC 8460 §4.4 has it: a JSON integer of 0 or more (within what JSON numbers hold exactly). */
const isSessionCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

export interface TlsRptFailureDetail {
  resultType: string;
  sendingMtaIp: string | null;
  receivingMxHostname: string | null;
  receivingMxHelo: string | null;
  receivingIp: string | null;
  failedSessionCount: number;
  additionalInformation: string | null;
  failureReasonCode: string | null;
}

/** The failure details of one policy that share a result type. */
export interface TlsRptResultGroup {
  resultType: string;
  /** Registered in RFC 8460 §4.3. */
  known: boolean;
  category: TlsRptResultCategory | null;
  meaning: string | null;
  fix: string | null;
  sessions: number;
  details: TlsRptFailureDetail[];
}

export interface TlsRptPolicySummary {
  policyType: string;
  policyDomain: string;
  policyString: string[];
  mxHosts: string[];
  successful: number;
  failed: number;
  /** By result type, most failed sessions first. */
  failureGroups: TlsRptResultGroup[];
}

export interface TlsRptReportSummary {
  organizationName: string;
  contactInfo: string;
  reportId: string;
  /** The date-range as UTC instants (ISO 8601), null when unreadable. */
  startDatetime: string | null;
  endDatetime: string | null;
  successful: number;
  failed: number;
  policies: TlsRptPolicySummary[];
}

export type TlsRptReportResult = ValidationResult<never> & { summary: TlsRptReportSummary | null };

const RFC_SCHEMA = 'RFC 8460 §4.4';
const RFC_RESULT_TYPES = 'RFC 8460 §4.3';
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isIpAddress(value: string): boolean {
  if (IPV4.test(value)) return true;
  if (!value.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(value)) return false;
  return URL.canParse(`http://[${value}]/`);
}

/** Reads the fields of a report one at a time, recording each problem with its JSON path. */
class ReportReader {
  readonly diagnostics: Diagnostic[] = [];

  problem(
    severity: Diagnostic['severity'],
    code: string,
    message: string,
    fix: string,
    extra: Partial<Diagnostic> = {},
  ): void {
    this.diagnostics.push({ severity, code, message, rfc: RFC_SCHEMA, fix, ...extra });
  }

  string(object: JsonObject, key: string, path: string, required: boolean): string | null {
    const value = object[key];
    if (value === undefined || value === null) {
      if (required)
        this.problem(
          'error',
          'TLSRPT_REPORT_FIELD_MISSING',
          `${path}${key} is missing`,
          `Add "${key}" (a string).`,
          {
            requirement: 'MUST',
          },
        );
      return null;
    }
    if (typeof value !== 'string') {
      this.problem(
        'error',
        'TLSRPT_REPORT_FIELD_TYPE',
        `${path}${key} must be a string`,
        `Write "${key}" as a JSON string.`,
        {
          requirement: 'MUST',
        },
      );
      return null;
    }
    return value;
  }

  count(object: JsonObject, key: string, path: string): number {
    const value = object[key];
    if (value === undefined || value === null) {
      this.problem(
        'error',
        'TLSRPT_REPORT_FIELD_MISSING',
        `${path}${key} is missing`,
        `Add "${key}" (a whole number).`,
        {
          requirement: 'MUST',
        },
      );
      return 0;
    }
    if (!isSessionCount(value)) {
      this.problem(
        'error',
        'TLSRPT_REPORT_COUNT',
        `${path}${key} must be a whole number of sessions, not ${JSON.stringify(value).slice(0, 30)}`,
        `Write "${key}" as a JSON integer of 0 or more.`,
        { requirement: 'MUST' },
      );
      return 0;
    }
    return value;
  }

  dateTime(object: JsonObject, key: string, path: string): string | null {
    const value = this.string(object, key, path, true);
    if (value === null) return null;
    const exact = parseRfc3339(value);
    if (exact) return new Date(exact.time).toISOString();
    const local = LOCAL_DATE_TIME.exec(value);
    const asUtc = local ? parseRfc3339(`${local[1]}T${local[2]}Z`) : null;
    if (asUtc) {
      this.problem(
        'warning',
        'TLSRPT_REPORT_DATE_NO_ZONE',
        `${path}${key} '${value}' has no time zone; read as UTC`,
        'Reporters should write date-time values with a zone, e.g. 2026-01-10T00:00:00Z (RFC 3339 §5.6). Some large reporters omit it; nothing to change on your side.',
        { requirement: 'MUST', rfc: 'RFC 8460 §4.4, RFC 3339 §5.6' },
      );
      return new Date(asUtc.time).toISOString();
    }
    this.problem(
      'error',
      'TLSRPT_REPORT_DATE',
      `${path}${key} '${value.slice(0, 40)}' is not an RFC 3339 date-time`,
      'Write it as 2026-01-10T00:00:00Z.',
      { requirement: 'MUST', rfc: 'RFC 8460 §4.4, RFC 3339 §5.6' },
    );
    return null;
  }

  stringList(object: JsonObject, key: string, path: string): string[] | null {
    const value = object[key];
    if (value === undefined || value === null) return null;
    // some copies of the RFC's example write one pattern as a plain string
    if (typeof value === 'string') return [value];
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
    this.problem(
      'error',
      'TLSRPT_REPORT_FIELD_TYPE',
      `${path}${key} must be a list of strings`,
      `Write "${key}" as a JSON array of strings.`,
      {
        requirement: 'MUST',
      },
    );
    return [];
  }
}

function readFailureDetail(reader: ReportReader, value: Json, path: string): TlsRptFailureDetail | null {
  if (!isObject(value)) {
    reader.problem(
      'error',
      'TLSRPT_REPORT_FIELD_TYPE',
      `${path} must be an object`,
      'Each failure-details entry is a JSON object.',
      {
        requirement: 'MUST',
      },
    );
    return null;
  }
  const resultType = reader.string(value, 'result-type', `${path}.`, true) ?? 'unknown';
  if (resultType !== 'unknown' && !tlsRptResultTypeInfo(resultType)) {
    reader.problem(
      'warning',
      'TLSRPT_REPORT_RESULT_TYPE_UNKNOWN',
      `${path}.result-type '${resultType.slice(0, 40)}' is not a result type of RFC 8460`,
      'Read the entry by its failure-reason-code and additional-information; the result types are listed in RFC 8460 §4.3.',
      { rfc: RFC_RESULT_TYPES },
    );
  }
  const detail: TlsRptFailureDetail = {
    resultType,
    sendingMtaIp: reader.string(value, 'sending-mta-ip', `${path}.`, false),
    receivingMxHostname: reader.string(value, 'receiving-mx-hostname', `${path}.`, false),
    receivingMxHelo: reader.string(value, 'receiving-mx-helo', `${path}.`, false),
    receivingIp: reader.string(value, 'receiving-ip', `${path}.`, false),
    failedSessionCount: reader.count(value, 'failed-session-count', `${path}.`),
    additionalInformation: reader.string(value, 'additional-information', `${path}.`, false),
    failureReasonCode: reader.string(value, 'failure-reason-code', `${path}.`, false),
  };
  for (const key of ['sending-mta-ip', 'receiving-ip'] as const) {
    const ip = key === 'sending-mta-ip' ? detail.sendingMtaIp : detail.receivingIp;
    if (ip !== null && !isIpAddress(ip)) {
      reader.problem(
        'error',
        'TLSRPT_REPORT_IP',
        `${path}.${key} '${ip.slice(0, 45)}' is not an IP address`,
        'Write an IPv4 or IPv6 address.',
        {
          requirement: 'MUST',
        },
      );
    }
  }
  return detail;
}

function groupFailures(details: TlsRptFailureDetail[]): TlsRptResultGroup[] {
  const groups = new Map<string, TlsRptResultGroup>();
  for (const detail of details) {
    let group = groups.get(detail.resultType);
    if (!group) {
      const info = tlsRptResultTypeInfo(detail.resultType);
      group = {
        resultType: detail.resultType,
        known: info !== undefined,
        category: info?.category ?? null,
        meaning: info?.meaning ?? null,
        fix: info?.fix ?? null,
        sessions: 0,
        details: [],
      };
      groups.set(detail.resultType, group);
    }
    group.sessions += detail.failedSessionCount;
    group.details.push(detail);
  }
  return [...groups.values()].sort(
    (a, b) => b.sessions - a.sessions || a.resultType.localeCompare(b.resultType),
  );
}

function readPolicy(reader: ReportReader, value: Json, index: number): TlsRptPolicySummary | null {
  const path = `policies[${index}]`;
  if (!isObject(value)) {
    reader.problem(
      'error',
      'TLSRPT_REPORT_FIELD_TYPE',
      `${path} must be an object`,
      'Each policies entry is a JSON object with policy and summary.',
      {
        requirement: 'MUST',
      },
    );
    return null;
  }
  const policy = value.policy;
  let policyType = 'unknown';
  let policyDomain = '';
  let policyString: string[] = [];
  let mxHosts: string[] = [];
  if (!isObject(policy)) {
    reader.problem(
      'error',
      'TLSRPT_REPORT_FIELD_MISSING',
      `${path}.policy is missing`,
      'Add "policy" with policy-type and policy-domain.',
      {
        requirement: 'MUST',
      },
    );
  } else {
    policyType = reader.string(policy, 'policy-type', `${path}.policy.`, true) ?? 'unknown';
    if (policyType !== 'unknown' && !(tlsRptPolicyTypes as readonly string[]).includes(policyType)) {
      reader.problem(
        'error',
        'TLSRPT_REPORT_POLICY_TYPE',
        `${path}.policy.policy-type '${policyType.slice(0, 30)}' is not sts, tlsa or no-policy-found`,
        'Use one of the policy types of RFC 8460 §4.4.',
        { requirement: 'MUST' },
      );
    }
    policyDomain = reader.string(policy, 'policy-domain', `${path}.policy.`, true) ?? '';
    policyString = reader.stringList(policy, 'policy-string', `${path}.policy.`) ?? [];
    const mx = reader.stringList(policy, 'mx-host', `${path}.policy.`);
    mxHosts = mx ?? [];
    if (mx === null && policyType !== 'no-policy-found') {
      reader.problem(
        'warning',
        'TLSRPT_REPORT_MX_HOST_MISSING',
        `${path}.policy.mx-host is missing, so the report does not say which MX hosts the policy covered`,
        'Nothing to change on your side: some reporters (Microsoft among them) leave it out; the failure details still name each MX.',
      );
    }
    if (policyString.length === 0 && (policyType === 'sts' || policyType === 'tlsa')) {
      reader.problem(
        'warning',
        'TLSRPT_REPORT_POLICY_STRING_MISSING',
        `${path}.policy.policy-string is missing: the report does not show the ${policyType === 'sts' ? 'MTA-STS policy' : 'TLSA records'} the sender applied`,
        'Nothing to change on your side; compare with the policy you publish.',
      );
    }
  }
  let successful = 0;
  let failed = 0;
  if (!isObject(value.summary)) {
    reader.problem(
      'error',
      'TLSRPT_REPORT_FIELD_MISSING',
      `${path}.summary is missing`,
      'Add "summary" with the two session counts.',
      {
        requirement: 'MUST',
      },
    );
  } else {
    successful = reader.count(value.summary, 'total-successful-session-count', `${path}.summary.`);
    failed = reader.count(value.summary, 'total-failure-session-count', `${path}.summary.`);
  }
  const details: TlsRptFailureDetail[] = [];
  const rawDetails = value['failure-details'];
  if (rawDetails !== undefined && rawDetails !== null) {
    if (!Array.isArray(rawDetails)) {
      reader.problem(
        'error',
        'TLSRPT_REPORT_FIELD_TYPE',
        `${path}.failure-details must be a list`,
        'Write "failure-details" as a JSON array.',
        {
          requirement: 'MUST',
        },
      );
    } else {
      rawDetails.forEach((raw, detailIndex) => {
        const detail = readFailureDetail(reader, raw, `${path}.failure-details[${detailIndex}]`);
        if (detail) details.push(detail);
      });
    }
  }
  const detailed = details.reduce((sum, detail) => sum + detail.failedSessionCount, 0);
  // a count already reported as invalid was read as 0: comparing it would report that 0 as sent
  const countsValid =
    isObject(value.summary) &&
    isSessionCount(value.summary['total-failure-session-count']) &&
    (!Array.isArray(rawDetails) ||
      rawDetails.every((raw) => !isObject(raw) || isSessionCount(raw['failed-session-count'])));
  if (countsValid && detailed > failed) {
    reader.problem(
      'warning',
      'TLSRPT_REPORT_COUNTS_DISAGREE',
      `${path}: the failure details add up to ${detailed} failed sessions, more than the ${failed} of total-failure-session-count`,
      'The reporter counted inconsistently; read the details as the better account of what failed.',
    );
  }
  return {
    policyType,
    policyDomain,
    policyString,
    mxHosts,
    successful,
    failed,
    failureGroups: groupFailures(details),
  };
}

/**
 * Parses an aggregate TLS-RPT report (the JSON of RFC 8460 §4.4, gunzipped) and checks its fields
 * and types; summarises it per policy: session counts and the failure details by result type.
 * Unknown fields are allowed (I-JSON readers ignore them); date-times without a zone, which large
 * reporters send, are read as UTC with a warning.
 */
export function readTlsRptReport(text: string): TlsRptReportResult {
  let json: Json;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, '')) as Json;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ...toValidationResult<never>([
        {
          severity: 'error',
          code: 'TLSRPT_REPORT_JSON',
          message: `The report is not JSON: ${detail}`,
          requirement: 'MUST',
          rfc: RFC_SCHEMA,
          fix: 'Paste the JSON file itself (unzip a .gz attachment first, or upload it as it came).',
        },
      ]),
      summary: null,
    };
  }
  const reader = new ReportReader();
  if (!isObject(json)) {
    reader.problem(
      'error',
      'TLSRPT_REPORT_NOT_OBJECT',
      'The report must be a JSON object',
      'A TLS-RPT report is one JSON object with organization-name, date-range, contact-info, report-id and policies.',
      {
        requirement: 'MUST',
      },
    );
    return { ...toValidationResult<never>(reader.diagnostics), summary: null };
  }
  const organizationName = reader.string(json, 'organization-name', '', true) ?? '';
  const contactInfo = reader.string(json, 'contact-info', '', true) ?? '';
  const reportId = reader.string(json, 'report-id', '', true) ?? '';
  let startDatetime: string | null = null;
  let endDatetime: string | null = null;
  const range = json['date-range'];
  if (!isObject(range)) {
    reader.problem(
      'error',
      'TLSRPT_REPORT_FIELD_MISSING',
      'date-range is missing',
      'Add "date-range" with start-datetime and end-datetime.',
      {
        requirement: 'MUST',
      },
    );
  } else {
    startDatetime = reader.dateTime(range, 'start-datetime', 'date-range.');
    endDatetime = reader.dateTime(range, 'end-datetime', 'date-range.');
    if (startDatetime !== null && endDatetime !== null && startDatetime > endDatetime) {
      reader.problem(
        'error',
        'TLSRPT_REPORT_DATE_ORDER',
        'date-range ends before it starts',
        'The end-datetime must not be before the start-datetime.',
      );
    }
  }
  const policies: TlsRptPolicySummary[] = [];
  const rawPolicies = json.policies;
  if (!Array.isArray(rawPolicies)) {
    reader.problem(
      'error',
      rawPolicies === undefined ? 'TLSRPT_REPORT_FIELD_MISSING' : 'TLSRPT_REPORT_FIELD_TYPE',
      'policies must be a list of policy results',
      'Add "policies" as a JSON array.',
      {
        requirement: 'MUST',
      },
    );
  } else {
    rawPolicies.forEach((raw, index) => {
      const policy = readPolicy(reader, raw, index);
      if (policy) policies.push(policy);
    });
  }
  const summary: TlsRptReportSummary = {
    organizationName,
    contactInfo,
    reportId,
    startDatetime,
    endDatetime,
    successful: policies.reduce((sum, policy) => sum + policy.successful, 0),
    failed: policies.reduce((sum, policy) => sum + policy.failed, 0),
    policies,
  };
  return { ...toValidationResult<never>(reader.diagnostics), summary };
}
