// The TLS-RPT routes (RFC 8460) against the lab: the spec's /v1/tlsrpt/* paths and the tool's own,
// the live TXT lookup at _smtp._tls through the lab DNS, a report with every result type summarised
// (counts written out by hand), sample reports from an entered policy, the live MTA-STS policy of a
// lab domain, DNSSEC-validated TLSA records, or neither; and bad input, which is never a 5xx.
import type {
  TlsRptGenerateResultData,
  TlsRptReportJson,
  TlsRptReportResultData,
  TlsRptSampleResultData,
  TlsRptValidateResultData,
} from '@rfckit/standards';
import {
  mtaStsLabDomains,
  mtaStsLabZones,
  startMtaStsLab,
  startWebServer,
  type MtaStsLab,
  type WebServer,
} from '@rfckit/testlab';
import { createRng } from '@rfckit/standards/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const tlsa = { usage: 3, selector: 1, matchingType: 1, certificate: 'ab'.repeat(32) };
const zones = {
  ...testTld,
  ...mtaStsLabZones(),
  '_smtp._tls.good.tlsrpt.example.test': { TXT: 'v=TLSRPTv1; rua=mailto:tlsrpt@good.tlsrpt.example.test' },
  '_smtp._tls.split.tlsrpt.example.test': {
    TXT: [['v=TLSRPTv1; rua=mai', 'lto:r@split.tlsrpt.example.test']],
  },
  '_smtp._tls.mixed.tlsrpt.example.test': { TXT: ['unrelated', 'v=TLSRPTv1;rua=https://r.example.test/v1'] },
  '_smtp._tls.twice.tlsrpt.example.test': {
    TXT: ['v=TLSRPTv1; rua=mailto:a@twice.example.test', 'v=TLSRPTv1; rua=mailto:b@twice.example.test'],
  },
  '_smtp._tls.bad.tlsrpt.example.test': { TXT: 'v=TLSRPTv1; rua=tlsrpt@bad.example.test' },
  '_smtp._tls.slow.tlsrpt.example.test': { timeout: ['TXT'] },
  'dane.tlsrpt.example.test': { MX: { preference: 10, exchange: 'mx.dane.tlsrpt.example.test' } },
  'mx.dane.tlsrpt.example.test': { A: '127.0.0.1' },
  '_25._tcp.mx.dane.tlsrpt.example.test': { TLSA: tlsa, authenticated: true },
  'unsigned.tlsrpt.example.test': { MX: { preference: 10, exchange: 'mx.unsigned.tlsrpt.example.test' } },
  'mx.unsigned.tlsrpt.example.test': { A: '127.0.0.1' },
  '_25._tcp.mx.unsigned.tlsrpt.example.test': { TLSA: tlsa },
};

let web: WebServer;
let lab: MtaStsLab;
beforeAll(async () => {
  web = await startWebServer({ sites: {} });
  lab = await startMtaStsLab({ web });
});
afterAll(async () => {
  await lab?.close();
  await web?.close();
});

const tool = toolTestApp({ zones, lab: () => ({ web, connectTo: lab.connectTo }) });
const { post } = tool;

describe('POST /v1/tlsrpt/generate and /v1/tls-rpt/generate', () => {
  it.each(['/v1/tlsrpt/generate', '/v1/tls-rpt/generate', '/api/v1/tlsrpt/generate'])(
    '%s writes the record',
    async (path) => {
      const data = await tool.data<TlsRptGenerateResultData>(path, {
        domain: 'example.com',
        reportingUris: ['mailto:tlsrpt@example.com', '', 'https://tlsrpt.example.net/v1'],
        version: 'TLSRPTv1',
      });
      expect(data).toEqual({
        record: 'v=TLSRPTv1; rua=mailto:tlsrpt@example.com,https://tlsrpt.example.net/v1',
        name: '_smtp._tls.example.com',
        zoneLine:
          '_smtp._tls.example.com. IN TXT "v=TLSRPTv1; rua=mailto:tlsrpt@example.com,https://tlsrpt.example.net/v1"',
      });
    },
  );

  it.each([
    [{ domain: '', reportingUris: ['mailto:a@example.com'] }, 'Domain is required'],
    [{ domain: 'example.com', reportingUris: [''] }, 'Enter at least one reporting URI (mailto: or https:)'],
    [
      { domain: 'example.com', reportingUris: ['ftp://r.example.com/'] },
      "Reporting URI 'ftp://r.example.com/' uses ftp:, but TLS-RPT reports go only to mailto: or https: URIs",
    ],
    [{ domain: 'example.com', reportingUris: ['mailto:a@example.com'], version: 'TLSRPTv2' }, undefined],
    [{ domain: 'example.com', reportingUris: ['mailto:a@example.com'], extra: 1 }, undefined],
  ])('refuses %j with a 400', async (body, error) => {
    const response = await post('/v1/tlsrpt/generate', body);
    expect(response.statusCode, response.body).toBe(400);
    const answer = response.json() as { success: boolean; error: string };
    expect(answer.success).toBe(false);
    if (error !== undefined) expect(answer.error).toBe(error);
  });

  it('needs a signed-in caller', async () => {
    expect(
      (await post('/v1/tlsrpt/generate', { domain: 'example.com', reportingUris: [] }, {})).statusCode,
    ).toBe(401);
  });
});

describe('POST /v1/tlsrpt/validate', () => {
  const validate = (body: unknown, path = '/v1/tlsrpt/validate') =>
    tool.data<TlsRptValidateResultData>(path, body);

  it('checks a pasted record, trimmed, on both paths', async () => {
    for (const path of ['/v1/tlsrpt/validate', '/v1/tls-rpt/validate']) {
      const data = await validate({ record: '  v=TLSRPTv1; rua=mailto:a@example.com  ' }, path);
      expect(data).toMatchObject({ valid: true, verdict: 'valid', errors: [], lookup: null });
    }
    const bad = await validate({ record: 'v=TLSRPTv1; rua=http://r.example.com/' });
    expect(bad.valid).toBe(false);
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['TLSRPT_URI_INVALID']);
  });

  it.each([{}, { record: '' }, { record: '   ' }])('answers %j with the spec text', async (body) => {
    const response = await post('/v1/tlsrpt/validate', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: 'TLS-RPT record is required' });
  });

  it.each([
    ['good.tlsrpt.example.test', 'valid', ['v=TLSRPTv1; rua=mailto:tlsrpt@good.tlsrpt.example.test']],
    ['split.tlsrpt.example.test', 'valid', ['v=TLSRPTv1; rua=mailto:r@split.tlsrpt.example.test']],
    ['mixed.tlsrpt.example.test', 'valid', ['unrelated', 'v=TLSRPTv1;rua=https://r.example.test/v1']],
    [
      'twice.tlsrpt.example.test',
      'no-reporting',
      ['v=TLSRPTv1; rua=mailto:a@twice.example.test', 'v=TLSRPTv1; rua=mailto:b@twice.example.test'],
    ],
    ['bad.tlsrpt.example.test', 'invalid', ['v=TLSRPTv1; rua=tlsrpt@bad.example.test']],
    ['none.tlsrpt.example.test', 'none', []],
  ])('looks up %s: %s', async (domain, verdict, records) => {
    const data = await validate({ domain });
    expect(data.verdict).toBe(verdict);
    expect(data.lookup?.name).toBe(`_smtp._tls.${domain}`);
    expect([...(data.lookup?.records ?? [])].sort()).toEqual([...records].sort());
  });

  it('says we could not check when our resolver gets no answer', { timeout: 30_000 }, async () => {
    const response = await post('/v1/tlsrpt/validate', { domain: 'slow.tlsrpt.example.test' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ success: false, code: 'RESOLVER_UNAVAILABLE' });
  });
});

describe('POST /v1/tls-rpt/report', () => {
  const detail = (type: string, count: number, mta: string, mx: string) => ({
    'result-type': type,
    'sending-mta-ip': mta,
    'receiving-mx-hostname': mx,
    'receiving-ip': '203.0.113.7',
    'failed-session-count': count,
  });
  // every result type of RFC 8460 §4.3, in two policies; the totals below are added up by hand
  const everyResultType = {
    'organization-name': 'Reporter Inc.',
    'date-range': { 'start-datetime': '2026-11-24T00:00:00Z', 'end-datetime': '2026-11-24T23:59:59Z' },
    'contact-info': 'tlsrpt@reporter.example',
    'report-id': 'every-result-type-1',
    policies: [
      {
        policy: {
          'policy-type': 'sts',
          'policy-string': ['version: STSv1', 'mode: enforce', 'mx: *.example.test', 'max_age: 604800'],
          'policy-domain': 'example.test',
          'mx-host': ['*.example.test'],
        },
        summary: { 'total-successful-session-count': 1000, 'total-failure-session-count': 48 },
        'failure-details': [
          detail('starttls-not-supported', 11, '192.0.2.1', 'mx1.example.test'),
          detail('certificate-host-mismatch', 2, '192.0.2.2', 'mx2.example.test'),
          detail('certificate-expired', 3, '192.0.2.3', 'mx1.example.test'),
          detail('certificate-not-trusted', 4, '2001:db8::4', 'mx2.example.test'),
          detail('validation-failure', 5, '192.0.2.5', 'mx1.example.test'),
          detail('sts-policy-fetch-error', 6, '192.0.2.6', 'mx1.example.test'),
          detail('sts-policy-invalid', 7, '192.0.2.7', 'mx1.example.test'),
          detail('sts-webpki-invalid', 8, '192.0.2.8', 'mx2.example.test'),
          detail('starttls-not-supported', 2, '192.0.2.9', 'mx2.example.test'),
        ],
      },
      {
        policy: {
          'policy-type': 'tlsa',
          'policy-string': [`3 1 1 ${'ab'.repeat(32)}`],
          'policy-domain': 'example.test',
          'mx-host': ['mx3.example.test'],
        },
        summary: { 'total-successful-session-count': 20, 'total-failure-session-count': 15 },
        'failure-details': [
          detail('tlsa-invalid', 4, '198.51.100.1', 'mx3.example.test'),
          detail('dnssec-invalid', 5, '198.51.100.2', 'mx3.example.test'),
          detail('dane-required', 6, '198.51.100.3', 'mx3.example.test'),
        ],
      },
    ],
  };

  it('summarises a report with every RFC 8460 result type', async () => {
    const data = await tool.data<TlsRptReportResultData>('/v1/tls-rpt/report', {
      report: JSON.stringify(everyResultType),
    });
    expect(data.valid).toBe(true);
    expect(data.diagnostics).toEqual([]);
    expect(data.summary).toMatchObject({
      organizationName: 'Reporter Inc.',
      reportId: 'every-result-type-1',
      startDatetime: '2026-11-24T00:00:00.000Z',
      successful: 1020,
      failed: 63,
    });
    const [sts, dane] = data.summary!.policies;
    expect([sts?.policyType, sts?.successful, sts?.failed]).toEqual(['sts', 1000, 48]);
    expect(Object.fromEntries(sts!.failureGroups.map((g) => [g.resultType, g.sessions]))).toEqual({
      'starttls-not-supported': 13,
      'certificate-host-mismatch': 2,
      'certificate-expired': 3,
      'certificate-not-trusted': 4,
      'validation-failure': 5,
      'sts-policy-fetch-error': 6,
      'sts-policy-invalid': 7,
      'sts-webpki-invalid': 8,
    });
    expect(sts!.failureGroups[0]).toMatchObject({
      resultType: 'starttls-not-supported',
      category: 'negotiation',
      known: true,
    });
    expect(
      sts!.failureGroups[0]!.details.map((d) => [
        d.sendingMtaIp,
        d.receivingMxHostname,
        d.failedSessionCount,
      ]),
    ).toEqual([
      ['192.0.2.1', 'mx1.example.test', 11],
      ['192.0.2.9', 'mx2.example.test', 2],
    ]);
    expect(dane!.failureGroups.map((g) => [g.resultType, g.category, g.sessions])).toEqual([
      ['dane-required', 'dane', 6],
      ['dnssec-invalid', 'dane', 5],
      ['tlsa-invalid', 'dane', 4],
    ]);
  });

  it.each([
    ['not JSON', '{', 'TLSRPT_REPORT_JSON'],
    ['an array', '[1]', 'TLSRPT_REPORT_NOT_OBJECT'],
    [
      'a report without policies',
      JSON.stringify({ ...everyResultType, policies: undefined }),
      'TLSRPT_REPORT_FIELD_MISSING',
    ],
  ])('reads %s as an invalid report, not an error', async (_name, report, code) => {
    const data = await tool.data<TlsRptReportResultData>('/v1/tls-rpt/report', { report });
    expect(data.valid).toBe(false);
    expect(data.diagnostics.map((d) => d.code)).toContain(code);
  });

  it.each([{}, { report: '' }, { report: 5 }, { report: 'x'.repeat(1_000_001) }])(
    'refuses %# with a 4xx',
    async (body) => {
      const response = await post('/v1/tls-rpt/report', body);
      expect([400, 413]).toContain(response.statusCode);
    },
  );
});

describe('POST /v1/tls-rpt/sample', () => {
  const sample = (body: unknown) => tool.data<TlsRptSampleResultData>('/v1/tls-rpt/sample', body);
  const yesterday = () => {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1))
      .toISOString()
      .slice(0, 10);
  };

  const stsLines = ['version: STSv1', 'mode: enforce', 'mx: mx.example.com', 'max_age: 604800'];

  it('builds a sample for an entered policy: yesterday, 100 successes, 5 failures, labelled', async () => {
    const data = await sample({
      domain: 'example.com',
      policy: { type: 'sts', strings: stsLines, mxHosts: ['mx.example.com'] },
    });
    expect(data.policy).toMatchObject({ type: 'sts', source: 'entered' });
    const report = JSON.parse(data.report) as TlsRptReportJson;
    expect(report['organization-name']).toContain('SAMPLE');
    expect(report['date-range']['start-datetime']).toBe(`${yesterday()}T00:00:00Z`);
    expect(report.policies[0]?.summary).toEqual({
      'total-successful-session-count': 100,
      'total-failure-session-count': 5,
    });
    expect(report.policies[0]?.policy['policy-string']).toContain('max_age: 604800');
    const again = await sample({
      domain: 'example.com',
      policy: { type: 'sts', strings: stsLines, mxHosts: ['mx.example.com'] },
    });
    expect((JSON.parse(again.report) as TlsRptReportJson)['report-id']).not.toBe(report['report-id']);
    const checked = await tool.data<TlsRptReportResultData>('/v1/tls-rpt/report', { report: data.report });
    expect(checked.diagnostics).toEqual([]);
  });

  it('uses the live MTA-STS policy of a lab domain', { timeout: 30_000 }, async () => {
    const domain = mtaStsLabDomains.enforce;
    const data = await sample({ domain });
    expect(data.policy).toMatchObject({
      type: 'sts',
      source: 'mta-sts',
      mxHosts: [1, 2, 3].map((index) => `mx${index}.${domain}`),
      strings: [
        'version: STSv1',
        'mode: enforce',
        ...[1, 2, 3].map((index) => `mx: mx${index}.${domain}`),
        'max_age: 604800',
      ],
    });
    const report = JSON.parse(data.report) as TlsRptReportJson;
    expect(report.policies[0]?.policy['policy-domain']).toBe(domain);
  });

  it('says why a policy that is refused is not used', { timeout: 30_000 }, async () => {
    const data = await sample({ domain: mtaStsLabDomains.html });
    expect(data.policy).toMatchObject({ type: 'no-policy-found', source: 'none-found' });
    expect(data.policy.note).toContain('could not be fetched');
  });

  it('uses DNSSEC-validated TLSA records of the MX hosts, and not unvalidated ones', async () => {
    const dane = await sample({ domain: 'dane.tlsrpt.example.test' });
    expect(dane.policy).toMatchObject({
      type: 'tlsa',
      source: 'tlsa',
      strings: [`3 1 1 ${'ab'.repeat(32)}`],
      mxHosts: ['mx.dane.tlsrpt.example.test'],
    });
    const unsigned = await sample({ domain: 'unsigned.tlsrpt.example.test' });
    expect(unsigned.policy).toMatchObject({
      type: 'no-policy-found',
      mxHosts: ['mx.unsigned.tlsrpt.example.test'],
    });
    expect(unsigned.policy.note).toContain('not DNSSEC-validated');
  });

  it.each([
    {},
    { domain: '' },
    { domain: 'example.com', policy: { type: 'dane' } },
    // an entered policy without its lines or MX hosts: the sample would have to invent them
    { domain: 'example.com', policy: { type: 'tlsa', strings: [], mxHosts: ['mx.example.com'] } },
    { domain: 'example.com', policy: { type: 'sts', strings: ['version: STSv1'] } },
    { domain: 'example.com', extra: true },
  ])('refuses %j with a 400', async (body) => {
    expect((await post('/v1/tls-rpt/sample', body)).statusCode).toBe(400);
  });
});

describe('bad input', () => {
  it(
    'answers a few hundred odd bodies on every route without a server error',
    { timeout: 60_000 },
    async () => {
      const next = createRng(0x8460);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const strings = [
        '',
        ' ',
        'v=TLSRPTv1',
        'x'.repeat(5000),
        '\u0000\ud800😀',
        '{"policies":[null]}',
        'example.com',
        '_smtp._tls.',
      ];
      const values: unknown[] = [
        ...strings,
        0,
        -1,
        null,
        true,
        [],
        {},
        ['mailto:a@example.com', 7],
        { type: 'sts' },
      ];
      const keys = ['domain', 'record', 'report', 'reportingUris', 'version', 'policy', 'extra'];
      const paths = [
        '/v1/tlsrpt/generate',
        '/v1/tlsrpt/validate',
        '/v1/tls-rpt/report',
        '/v1/tls-rpt/sample',
      ];
      for (let i = 0; i < 200; i++) {
        const body = Object.fromEntries(
          Array.from({ length: 1 + Math.floor(next() * 3) }, () => [pick(keys), pick(values)]),
        );
        const path = pick(paths);
        const response = await post(path, body);
        expect(
          response.statusCode,
          `${path} ${JSON.stringify(body).slice(0, 200)}: ${response.body.slice(0, 200)}`,
        ).toBeLessThan(500);
      }
    },
  );
});
