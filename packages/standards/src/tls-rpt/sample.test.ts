import { describe, expect, it } from 'vitest';
import { readTlsRptReport } from './report.ts';
import { buildTlsRptSampleReport } from './sample.ts';

const now = new Date('2026-03-01T08:30:00Z');

describe('buildTlsRptSampleReport', () => {
  it.each([
    [
      'sts',
      [],
      ['mx1.example.com', 'mx2.example.com'],
      ['certificate-expired', 'certificate-host-mismatch', 'sts-policy-fetch-error'],
    ],
    ['tlsa', ['3 1 1 ab'], ['mx.example.com'], ['tlsa-invalid', 'dnssec-invalid', 'starttls-not-supported']],
    ['no-policy-found', [], ['mx.example.com'], ['starttls-not-supported', 'validation-failure']],
  ] as const)(
    '%s: a valid report of yesterday with 100 successes and 5 failures',
    (type, strings, mxHosts, resultTypes) => {
      const report = buildTlsRptSampleReport({
        domain: 'Example.com',
        policy: { type, strings, mxHosts },
        now,
        reportId: 'id-1',
      });
      expect(report['date-range']).toEqual({
        'start-datetime': '2026-02-28T00:00:00Z',
        'end-datetime': '2026-02-28T23:59:59Z',
      });
      expect(report['organization-name']).toContain('SAMPLE');
      expect(report['report-id']).toBe('id-1');
      const checked = readTlsRptReport(JSON.stringify(report));
      expect(checked.diagnostics).toEqual([]);
      const policy = checked.summary?.policies[0];
      expect(policy?.policyDomain).toBe('example.com');
      expect([policy?.successful, policy?.failed]).toEqual([100, 5]);
      expect(policy?.failureGroups.map((g) => g.resultType).sort()).toEqual([...resultTypes].sort());
    },
  );

  it('writes the default MTA-STS policy with max_age 604800 and gives each sample its own id', () => {
    const make = () =>
      buildTlsRptSampleReport({
        domain: 'example.com',
        policy: { type: 'sts', strings: [], mxHosts: ['*.mail.example.com'] },
        now,
      });
    const first = make();
    expect(first.policies[0]?.policy['policy-string']).toEqual([
      'version: STSv1',
      'mode: enforce',
      'mx: *.mail.example.com',
      'max_age: 604800',
    ]);
    expect(first.policies[0]?.['failure-details'][0]?.['receiving-mx-hostname']).toBe('mx1.mail.example.com');
    expect(make()['report-id']).not.toBe(first['report-id']);
  });
});
