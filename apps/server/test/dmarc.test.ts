// POST /v1/dmarc/generate and /v1/dmarc/validate, with discovery through the guarded DNS client
// pointed at the lab DNS server: a subdomain falling back to its Organizational Domain, np for a
// name that does not exist, multiple records, external report destinations authorised or not,
// and a short fuzz of request bodies that must never produce a 5xx.
import type { DmarcGenerateResultData, DmarcValidationResultData } from '@rfckit/standards';
import { createRng } from '@rfckit/standards/testing';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const orgRecord =
  'v=DMARC1; p=reject; sp=quarantine; np=reject; rua=mailto:agg@example.test,mailto:dmarc@vendor.test; ruf=mailto:fail@nowhere.test';

const zones = {
  ...testTld,
  '_dmarc.example.test': { TXT: orgRecord },
  'mail.example.test': { MX: { preference: 10, exchange: 'mx.example.test' } },
  'example.test._report._dmarc.vendor.test': { TXT: 'v=DMARC1' },
  '_dmarc.twice.test': { TXT: ['v=DMARC1; p=none; rua=mailto:a@twice.test', 'v=DMARC1; p=reject'] },
  '_dmarc.split.test': { TXT: [['v=DMARC1; p=qua', 'rantine; rua=mailto:r@split.test']] },
  '_dmarc.wild.test': { TXT: 'v=spf1 -all' },
  'apex.test': { TXT: 'v=DMARC1; p=reject' },
};

describeEachDatabase('DMARC routes', (database) => {
  const tool = toolTestApp({ database, zones });
  const { post } = tool;
  const validate = (body: unknown) => tool.data<DmarcValidationResultData>('/v1/dmarc/validate', body);

  const codes = (data: DmarcValidationResultData, severity?: string) =>
    data.diagnostics.filter((d) => severity === undefined || d.severity === severity).map((d) => d.code);

  it('needs a signed-in caller, and is documented', async () => {
    expect((await post('/v1/dmarc/validate', { record: 'v=DMARC1; p=none' }, {})).statusCode).toBe(401);
    expect((await post('/v1/dmarc/generate', {}, {})).statusCode).toBe(401);
    const document = (await tool.inject('/docs/json')).json();
    expect(document.paths['/v1/dmarc/generate'].post.summary).toBe('Generate a DMARC record');
    const data =
      document.paths['/v1/dmarc/validate'].post.responses['200'].content['application/json'].schema.properties
        .data;
    expect(Object.keys(data.properties)).toEqual(
      expect.arrayContaining(['valid', 'errors', 'warnings', 'diagnostics', 'parsed', 'discovery']),
    );
  });

  describe('generate', () => {
    it('writes the record by the spec rules, with its name and the removed-tag notes', async () => {
      const response = await post('/v1/dmarc/generate', {
        domain: 'Example.test',
        policy: 'quarantine',
        subdomainPolicy: 'reject',
        alignment: { aspf: 's', adkim: 'r' },
        percentage: 50,
        reporting: { rua: ['agg@example.test', ''], ruf: [] },
        reportingOptions: { ri: 86400, rf: 'afrf', fo: '0' },
        testMode: true,
      });
      expect(response.statusCode, response.body).toBe(200);
      const { data } = response.json() as { data: DmarcGenerateResultData };
      expect(data.record).toBe(
        'v=DMARC1; p=quarantine; sp=reject; aspf=s; pct=50; t=y; rua=mailto:agg@example.test',
      );
      expect(data.name).toBe('_dmarc.example.test');
      expect(
        data.diagnostics.filter((d) => d.code === 'DMARC_REMOVED_TAG').map((d) => d.message.split(':')[0]),
      ).toEqual(['pct=50']);
    });

    it("gives v=DMARC1; p=none for the spec's defaults", async () => {
      const response = await post('/v1/dmarc/generate', {});
      expect((response.json() as { data: DmarcGenerateResultData }).data).toMatchObject({
        record: 'v=DMARC1; p=none',
        name: null,
      });
    });

    it('refuses a body outside the rules', async () => {
      const response = await post('/v1/dmarc/generate', { percentage: 101 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: 'The percentage is from 0 to 100',
        code: 'VALIDATION_ERROR',
      });
      expect((await post('/v1/dmarc/generate', { policy: 'none', extra: true })).statusCode).toBe(400);
    });
  });

  describe('validate', () => {
    it('checks a pasted record without a domain, and needs one of the two', async () => {
      const data = await validate({ record: 'v=DMARC1; p=none; rua=reports@example.test' });
      expect(data).toMatchObject({ valid: false, domain: null, discovery: null, recordSource: 'pasted' });
      expect(data.parsed?.verdicts).toEqual({ rfc9989: 'invalid-uri', rfc7489: 'invalid-uri' });
      expect(data.errors[0]).toContain('needs the mailto: scheme');
      const empty = await post('/v1/dmarc/validate', { record: '  ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({
        error: 'Enter a DMARC record or a domain',
        code: 'VALIDATION_ERROR',
      });
      const bad = await post('/v1/dmarc/validate', { domain: 'dmarc@example.test' });
      expect(bad.json()).toMatchObject({ error: 'Enter a domain such as example.com, not an email address' });
    });

    it("discovers a subdomain's policy at its Organizational Domain, sp for a name that exists", async () => {
      const data = await validate({ domain: 'MAIL.example.test.' });
      expect(data.domain).toBe('mail.example.test');
      expect(data.recordSource).toBe('dns');
      expect(data.record).toBe(orgRecord);
      expect(data.discovery?.lookups.map((l) => [l.name, l.outcome])).toEqual([
        ['_dmarc.mail.example.test', 'none'],
        ['_dmarc.example.test', 'record'],
        ['_dmarc.test', 'none'],
      ]);
      expect(data.discovery?.policy).toMatchObject({
        recordDomain: 'example.test',
        source: 'organizational',
        tag: 'sp',
        requested: 'quarantine',
      });
      expect(data.discovery?.domainExists).toBe(true);
      expect(data.discovery?.rfc7489.policy).toMatchObject({
        recordDomain: 'example.test',
        requested: 'quarantine',
      });
    });

    it('applies np to a subdomain that does not exist', async () => {
      const data = await validate({ domain: 'ghost.example.test' });
      expect(data.discovery?.domainExists).toBe(false);
      expect(data.discovery?.policy).toMatchObject({ tag: 'np', requested: 'reject' });
      // RFC 7489 receivers know no np and apply sp
      expect(data.discovery?.rfc7489.policy).toMatchObject({ tag: 'sp', requested: 'quarantine' });
      expect(codes(data)).toContain('DMARC_RFC7489_DIFFERENT');
    });

    it('checks the external report destinations: one authorised, one not', async () => {
      const data = await validate({ domain: 'example.test' });
      expect(data.reportDestinations.map((d) => [d.tag, d.host, d.status])).toEqual([
        ['rua', 'example.test', 'same-organization'],
        ['rua', 'vendor.test', 'authorized'],
        ['ruf', 'nowhere.test', 'unauthorized'],
      ]);
      expect(data.reportDestinations[2]?.name).toBe('example.test._report._dmarc.nowhere.test');
      expect(codes(data, 'warning')).toContain('DMARC_REPORT_UNAUTHORIZED');
      expect(data.valid).toBe(true);
    });

    it('reports multiple records, which receivers discard', async () => {
      const data = await validate({ domain: 'twice.test' });
      expect(data.valid).toBe(false);
      expect(codes(data, 'error')).toEqual(
        expect.arrayContaining(['DMARC_MULTIPLE_RECORDS', 'DMARC_NO_RECORD']),
      );
      expect(data.discovery?.lookups[0]?.dmarc).toHaveLength(2);
      expect(data.record).toBeNull();
    });

    it('joins a record split into several strings', async () => {
      const data = await validate({ domain: 'split.test' });
      expect(data.record).toBe('v=DMARC1; p=quarantine; rua=mailto:r@split.test');
      expect(data.discovery?.policy?.requested).toBe('quarantine');
    });

    it('finds an SPF record at _dmarc and a DMARC record at the apex', async () => {
      expect(codes(await validate({ domain: 'wild.test' }))).toContain('DMARC_SPF_AT_DMARC');
      expect(codes(await validate({ domain: 'apex.test' }))).toContain('DMARC_RECORD_AT_APEX');
    });

    it('checks a pasted record as if it were published at the domain', async () => {
      const before = tool.dns.queries.length;
      const data = await validate({
        record: 'v=DMARC1; p=none; rua=mailto:r@elsewhere.test',
        domain: 'example.test',
      });
      expect(data.recordSource).toBe('pasted');
      expect(data.discovery?.policy).toMatchObject({ recordDomain: 'example.test', requested: 'none' });
      expect(data.reportDestinations[0]).toMatchObject({ host: 'elsewhere.test', status: 'unauthorized' });
      // the published record was not asked for, the rest of the walk was
      const asked = tool.dns.queries.slice(before).map((q) => q.name);
      expect(asked).not.toContain('_dmarc.example.test');
      expect(asked).toContain('_dmarc.test');
    });
  });

  it('answers a few hundred fuzzed bodies without a server error', async () => {
    const next = createRng(0x0d3a2c);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const records = [
      orgRecord,
      'v=DMARC1; p=none',
      'v=DMARC1; p=reject; pct=0; ri=1; rf=iodef; fo=0:1:d:d',
      '"v=DMARC1; " "p=reject"',
      'v=spf1 -all',
      'v=DMARC1; rua=mailto:a@vendor.test,mailto:b@nowhere.test,https://x.test/;!',
      '\u0000\ud800😀',
      'x'.repeat(5000),
      '',
    ];
    // a valid domain of 250 characters, whose _dmarc name would be too long
    const longDomain = `${Array.from({ length: 4 }, () => 'a'.repeat(61)).join('.')}.test`;
    const domains = [
      longDomain,
      'example.test',
      'ghost.example.test',
      'a.b.c.d.e.f.g.h.i.example.test',
      'twice.test',
      'bücher.test',
      '',
      ' ',
      '..',
      'a@b',
      '-x-',
      'x'.repeat(300),
      '_dmarc.split.test',
    ];
    const values = [
      null,
      true,
      0,
      -1,
      1.5,
      1e308,
      'none',
      'quarantine',
      'reject',
      'r',
      's',
      'y',
      '0:1',
      [],
      {},
      ['a@example.test'],
      'x'.repeat(400),
    ];
    const generateFields = [
      'domain',
      'policy',
      'subdomainPolicy',
      'alignment',
      'percentage',
      'reporting',
      'reportingOptions',
      'nonExistentPolicy',
      'testMode',
      'psd',
      '__proto__',
      'constructor',
    ];
    for (let round = 0; round < 300; round++) {
      const generating = next() < 0.4;
      const body: Record<string, unknown> = {};
      if (generating) {
        for (let i = Math.floor(next() * 4); i > 0; i--) body[pick(generateFields)] = pick(values);
      } else {
        if (next() < 0.7) body.record = next() < 0.8 ? pick(records) : pick(values);
        if (next() < 0.5) body.domain = next() < 0.8 ? pick(domains) : pick(values);
        if (next() < 0.05) body[pick(generateFields)] = pick(values);
      }
      const response = await post(generating ? '/v1/dmarc/generate' : '/v1/dmarc/validate', body);
      expect(
        response.statusCode,
        `round ${round}: ${JSON.stringify(body).slice(0, 300)} → ${response.body.slice(0, 300)}`,
      ).toBeLessThan(500);
      if (response.statusCode === 200) expect(response.json()).toMatchObject({ success: true });
      else expect(response.json()).toMatchObject({ success: false, code: expect.any(String) });
    }
  });
});
