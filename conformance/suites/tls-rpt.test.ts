import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { checkTlsRptRecordSet, readTlsRptReport, validateTlsRptRecord } from '@rfckit/standards';

const dir = path.join(process.env.CONFORMANCE_DIR!, 'tls-rpt');
const cases = JSON.parse(readFileSync(path.join(dir, 'cases.json'), 'utf8')) as {
  txt_records: { txt: string; expect: string; note: string }[];
  txt_record_sets: { txt_set: string[]; expect: string; note: string }[];
  reports: { file: string; json?: string; expect: string }[];
};

/** The gzip attachment of a report mail (application/tlsrpt+gzip, base64), as its receiver would take it out. */
function attachedReport(eml: string): string {
  const part = /Content-Type: application\/tlsrpt\+gzip[\s\S]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(eml);
  assert.ok(part?.[1], 'no application/tlsrpt+gzip part');
  return gunzipSync(Buffer.from(part[1].replace(/\s+/g, ''), 'base64')).toString('utf8');
}

describe('TLS-RPT records (cases.json txt_records, RFC 8460 §3)', () => {
  it('has the 14 cases', () => assert.equal(cases.txt_records.length, 14));
  for (const testCase of cases.txt_records) {
    it(`${JSON.stringify(testCase.txt)} is ${testCase.expect}`, () => {
      const result = validateTlsRptRecord(testCase.txt);
      assert.equal(result.verdict, testCase.expect, `${testCase.note}: ${result.errors.join('; ')}`);
    });
  }
});

describe('TLS-RPT record sets (cases.json txt_record_sets, RFC 8460 §3)', () => {
  for (const testCase of cases.txt_record_sets) {
    it(`${JSON.stringify(testCase.txt_set)} is ${testCase.expect}`, () => {
      assert.equal(checkTlsRptRecordSet(testCase.txt_set).verdict, testCase.expect, testCase.note);
    });
  }
});

describe('TLS-RPT reports (cases.json reports, RFC 8460 §4)', () => {
  it('has the 3 reports', () => assert.equal(cases.reports.length, 3));

  it('RFC 8460 Appendix B: valid, 5326 ok / 303 failed over three result types', () => {
    const result = readTlsRptReport(readFileSync(path.join(dir, 'reports/rfc8460-appendix-b.json'), 'utf8'));
    assert.deepEqual(result.diagnostics, []);
    const summary = result.summary!;
    assert.deepEqual([summary.successful, summary.failed], [5326, 303]);
    assert.deepEqual(
      summary.policies[0]?.failureGroups.map((group) => [group.resultType, group.sessions]),
      [
        ['starttls-not-supported', 200],
        ['certificate-expired', 100],
        ['validation-failure', 3],
      ],
    );
    assert.deepEqual(summary.policies[0]?.mxHosts, ['*.mail.company-y.example']);
  });

  it('the Google report: the mail attachment is the JSON file, and it is valid', () => {
    const json = readFileSync(path.join(dir, 'reports/mox-example.json'), 'utf8');
    const attached = attachedReport(readFileSync(path.join(dir, 'reports/mox-example.eml'), 'utf8'));
    assert.deepEqual(JSON.parse(attached), JSON.parse(json));
    const result = readTlsRptReport(attached);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual([result.summary?.successful, result.summary?.failed], [3, 0]);
    assert.equal(result.summary?.policies[0]?.policyDomain, 'test.xmox.nl');
  });

  it('the Microsoft report: valid when read leniently, with warnings for the zoneless dates and missing mx-host', () => {
    const json = readFileSync(path.join(dir, 'reports/mox-microsoft.json'), 'utf8');
    const attached = attachedReport(readFileSync(path.join(dir, 'reports/mox-microsoft.eml'), 'utf8'));
    assert.deepEqual(JSON.parse(attached), JSON.parse(json));
    const result = readTlsRptReport(attached);
    assert.equal(result.valid, true, result.errors.join('; '));
    assert.deepEqual(
      result.diagnostics.map((d) => d.code),
      ['TLSRPT_REPORT_DATE_NO_ZONE', 'TLSRPT_REPORT_DATE_NO_ZONE', 'TLSRPT_REPORT_MX_HOST_MISSING'],
    );
    assert.equal(result.summary?.startDatetime, '2023-01-10T00:00:00.000Z');
    assert.deepEqual([result.summary?.successful, result.summary?.failed], [2, 0]);
  });
});
