import { describe, expect, it } from 'vitest';
import { readTlsRptReport } from './report.ts';

const base = {
  'organization-name': 'Company-X',
  'date-range': { 'start-datetime': '2016-04-01T00:00:00Z', 'end-datetime': '2016-04-01T23:59:59Z' },
  'contact-info': 'sts-reporting@company-x.example',
  'report-id': '5065427c-23d3-47ca-b6e0-946ea0e8c4be',
  policies: [
    {
      policy: {
        'policy-type': 'sts',
        'policy-string': [
          'version: STSv1',
          'mode: testing',
          'mx: *.mail.company-y.example',
          'max_age: 86400',
        ],
        'policy-domain': 'company-y.example',
        'mx-host': ['*.mail.company-y.example'],
      },
      summary: { 'total-successful-session-count': 10, 'total-failure-session-count': 2 },
      'failure-details': [
        {
          'result-type': 'certificate-expired',
          'sending-mta-ip': '2001:db8:abcd:0012::1',
          'receiving-mx-hostname': 'mx1.mail.company-y.example',
          'failed-session-count': 2,
        },
      ],
    },
  ],
};

function variant(change: (report: Record<string, unknown> & typeof base) => void): string {
  const copy = structuredClone(base) as Record<string, unknown> & typeof base;
  change(copy);
  return JSON.stringify(copy);
}

describe('readTlsRptReport: fields and types (RFC 8460 §4.4)', () => {
  it.each([
    ['a complete report', JSON.stringify(base), true, []],
    ['not JSON', '{"organization-name": ', false, ['TLSRPT_REPORT_JSON']],
    ['a JSON array', '[]', false, ['TLSRPT_REPORT_NOT_OBJECT']],
    [
      'no report-id',
      variant((r) => delete (r as Partial<typeof base>)['report-id']),
      false,
      ['TLSRPT_REPORT_FIELD_MISSING'],
    ],
    [
      'a numeric organization-name',
      variant((r) => (r['organization-name'] = 7 as never)),
      false,
      ['TLSRPT_REPORT_FIELD_TYPE'],
    ],
    [
      'a date without zone',
      variant((r) => (r['date-range']['start-datetime'] = '2016-04-01T00:00:00')),
      true,
      ['TLSRPT_REPORT_DATE_NO_ZONE'],
    ],
    [
      'a date that is no date',
      variant((r) => (r['date-range']['end-datetime'] = 'April 1st')),
      false,
      ['TLSRPT_REPORT_DATE'],
    ],
    [
      'a range ending before it starts',
      variant((r) => (r['date-range']['end-datetime'] = '2016-03-31T00:00:00Z')),
      false,
      ['TLSRPT_REPORT_DATE_ORDER'],
    ],
    [
      'an unknown policy-type',
      variant((r) => (r.policies[0]!.policy['policy-type'] = 'dane')),
      false,
      ['TLSRPT_REPORT_POLICY_TYPE'],
    ],
    [
      'no mx-host',
      variant(
        (r) => delete (r.policies[0]!.policy as Partial<(typeof base)['policies'][0]['policy']>)['mx-host'],
      ),
      true,
      ['TLSRPT_REPORT_MX_HOST_MISSING'],
    ],
    [
      'mx-host as one string',
      variant((r) => (r.policies[0]!.policy['mx-host'] = 'mx.example' as never)),
      true,
      [],
    ],
    [
      'a negative count',
      variant((r) => (r.policies[0]!.summary['total-successful-session-count'] = -1)),
      false,
      ['TLSRPT_REPORT_COUNT'],
    ],
    [
      'a count as a string',
      variant((r) => (r.policies[0]!['failure-details'][0]!['failed-session-count'] = '2' as never)),
      false,
      ['TLSRPT_REPORT_COUNT'],
    ],
    [
      'a sending-mta-ip that is a name',
      variant((r) => (r.policies[0]!['failure-details'][0]!['sending-mta-ip'] = 'mta.example')),
      false,
      ['TLSRPT_REPORT_IP'],
    ],
    [
      'an unregistered result-type',
      variant((r) => (r.policies[0]!['failure-details'][0]!['result-type'] = 'tls-too-old')),
      true,
      ['TLSRPT_REPORT_RESULT_TYPE_UNKNOWN'],
    ],
    [
      'details adding up to more than the total',
      variant((r) => (r.policies[0]!.summary['total-failure-session-count'] = 1)),
      true,
      ['TLSRPT_REPORT_COUNTS_DISAGREE'],
    ],
    // an invalid total is an error of its own; it is not read as 0 and then compared with the details
    [
      'a total-failure-session-count written as a string',
      variant((r) => (r.policies[0]!.summary['total-failure-session-count'] = '303' as never)),
      false,
      ['TLSRPT_REPORT_COUNT'],
    ],
    [
      'a total-failure-session-count of 2^60, past what JSON numbers hold exactly',
      variant((r) => (r.policies[0]!.summary['total-failure-session-count'] = 2 ** 60)),
      false,
      ['TLSRPT_REPORT_COUNT'],
    ],
    [
      'no total-failure-session-count',
      variant(
        (r) =>
          delete (r.policies[0]!.summary as Partial<(typeof base.policies)[0]['summary']>)[
            'total-failure-session-count'
          ],
      ),
      false,
      ['TLSRPT_REPORT_FIELD_MISSING'],
    ],
    [
      'no policies',
      variant((r) => delete (r as Partial<typeof base>).policies),
      false,
      ['TLSRPT_REPORT_FIELD_MISSING'],
    ],
  ])('%s', (_name, text, valid, codes) => {
    const result = readTlsRptReport(text);
    expect(result.diagnostics.map((d) => d.code)).toEqual(codes);
    expect(result.valid).toBe(valid);
  });

  it('reads a zoneless date-time as UTC', () => {
    const result = readTlsRptReport(
      variant((r) => (r['date-range']['start-datetime'] = '2016-04-01T00:00:00')),
    );
    expect(result.summary?.startDatetime).toBe('2016-04-01T00:00:00.000Z');
  });
});

describe('readTlsRptReport: a report with every result type of RFC 8460 §4.3', () => {
  const detail = (type: string, count: number, mta: string, mx: string) => ({
    'result-type': type,
    'sending-mta-ip': mta,
    'receiving-mx-hostname': mx,
    'receiving-ip': '203.0.113.5',
    'failed-session-count': count,
  });
  const report = {
    ...base,
    policies: [
      {
        policy: { ...base.policies[0]!.policy },
        summary: { 'total-successful-session-count': 900, 'total-failure-session-count': 66 },
        'failure-details': [
          detail('starttls-not-supported', 1, '192.0.2.1', 'mx1.mail.company-y.example'),
          detail('certificate-host-mismatch', 2, '192.0.2.2', 'mx1.mail.company-y.example'),
          detail('certificate-expired', 3, '192.0.2.3', 'mx2.mail.company-y.example'),
          detail('certificate-not-trusted', 4, '192.0.2.4', 'mx2.mail.company-y.example'),
          detail('validation-failure', 5, '192.0.2.5', 'mx1.mail.company-y.example'),
          detail('sts-policy-fetch-error', 6, '2001:db8::6', 'mx1.mail.company-y.example'),
          detail('sts-policy-invalid', 7, '2001:db8::7', 'mx1.mail.company-y.example'),
          detail('sts-webpki-invalid', 8, '2001:db8::8', 'mx1.mail.company-y.example'),
          detail('certificate-expired', 30, '192.0.2.9', 'mx1.mail.company-y.example'),
        ],
      },
      {
        policy: {
          'policy-type': 'tlsa',
          'policy-string': ['3 1 1 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'],
          'policy-domain': 'company-y.example',
          'mx-host': ['mx3.company-y.example'],
        },
        summary: { 'total-successful-session-count': 50, 'total-failure-session-count': 27 },
        'failure-details': [
          detail('tlsa-invalid', 9, '198.51.100.1', 'mx3.company-y.example'),
          detail('dnssec-invalid', 10, '198.51.100.2', 'mx3.company-y.example'),
          detail('dane-required', 8, '198.51.100.3', 'mx3.company-y.example'),
        ],
      },
    ],
  };

  it('is valid and summarised per policy, by result type, most sessions first', () => {
    const result = readTlsRptReport(JSON.stringify(report));
    expect(result.diagnostics).toEqual([]);
    const summary = result.summary!;
    expect([summary.successful, summary.failed]).toEqual([950, 93]);
    const [sts, tlsa] = summary.policies;
    expect(sts?.failureGroups.map((g) => [g.resultType, g.category, g.sessions, g.details.length])).toEqual([
      ['certificate-expired', 'negotiation', 33, 2],
      ['sts-webpki-invalid', 'sts', 8, 1],
      ['sts-policy-invalid', 'sts', 7, 1],
      ['sts-policy-fetch-error', 'sts', 6, 1],
      ['validation-failure', 'negotiation', 5, 1],
      ['certificate-not-trusted', 'negotiation', 4, 1],
      ['certificate-host-mismatch', 'negotiation', 2, 1],
      ['starttls-not-supported', 'negotiation', 1, 1],
    ]);
    expect(tlsa?.failureGroups.map((g) => [g.resultType, g.category, g.sessions])).toEqual([
      ['dnssec-invalid', 'dane', 10],
      ['tlsa-invalid', 'dane', 9],
      ['dane-required', 'dane', 8],
    ]);
    expect(sts?.failureGroups[0]?.details.map((d) => [d.sendingMtaIp, d.receivingMxHostname])).toEqual([
      ['192.0.2.3', 'mx2.mail.company-y.example'],
      ['192.0.2.9', 'mx1.mail.company-y.example'],
    ]);
  });
});
