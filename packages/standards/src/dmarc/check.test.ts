import { describe, expect, it } from 'vitest';
import { createFixtureResolver, type FixtureZones } from '../core/fixture-resolver.ts';
import { checkDmarc } from './check.ts';
import { checkReportDestinations, reportAuthorizationName } from './report-destinations.ts';
import { dmarcValidateBody, dmarcValidationResultSchema, normalizeDmarcDomain } from './schema.ts';
import { analyzeDmarcRecord } from './validate.ts';

const zones: FixtureZones = {
  '_dmarc.example.com': { TXT: 'v=DMARC1; p=quarantine; rua=mailto:agg@example.com,mailto:x@vendor.example' },
  'example.com._report._dmarc.vendor.example': { TXT: 'v=DMARC1' },
  'www.example.com': { A: '192.0.2.1' },
};

describe('checkDmarc', () => {
  it('validates a pasted record without any DNS query', async () => {
    const resolver = createFixtureResolver(zones);
    const result = await checkDmarc({ record: 'v=DMARC1; p=reject; rua=mailto:a@example.com' }, undefined);
    expect(result).toMatchObject({
      valid: true,
      domain: null,
      recordSource: 'pasted',
      discovery: null,
      reportDestinations: [],
    });
    expect(resolver.queries).toEqual([]);
    expect(dmarcValidationResultSchema.safeParse(result).success).toBe(true);
  });

  it('offers the record with the missing p= added, and none for a good record', async () => {
    const result = await checkDmarc({ record: 'v=DMARC1; rua=mailto:a@example.com; pct=150' });
    expect(result.correctedRecord).toEqual({
      record: 'v=DMARC1; p=none; rua=mailto:a@example.com',
      changes: [expect.stringMatching(/^Removed pct=150/), expect.stringMatching(/^Added p=none/)],
    });
    expect(dmarcValidationResultSchema.safeParse(result).success).toBe(true);
    const again = await checkDmarc({ record: result.correctedRecord!.record });
    expect(again.errors).toEqual([]);
    expect(again.correctedRecord).toBeUndefined();
  });

  it("discovers a domain's record and checks it with its report destinations", async () => {
    const result = await checkDmarc({ domain: 'www.example.com' }, createFixtureResolver(zones));
    expect(result.recordSource).toBe('dns');
    expect(result.record).toBe('v=DMARC1; p=quarantine; rua=mailto:agg@example.com,mailto:x@vendor.example');
    expect(result.discovery?.policy).toMatchObject({
      recordDomain: 'example.com',
      tag: 'p',
      requested: 'quarantine',
    });
    expect(result.reportDestinations.map((d) => [d.host, d.status])).toEqual([
      ['example.com', 'same-organization'],
      ['vendor.example', 'authorized'],
    ]);
    expect(result.valid).toBe(true);
    expect(dmarcValidationResultSchema.parse(result)).toEqual(result);
  });

  it('checks a pasted record as if it were published at the domain', async () => {
    const resolver = createFixtureResolver(zones);
    const result = await checkDmarc(
      { record: '"v=DMARC1; p=reject; " "rua=mailto:r@other.example"', domain: 'example.com' },
      resolver,
    );
    expect(result.record).toBe('v=DMARC1; p=reject; rua=mailto:r@other.example');
    expect(result.discovery?.policy).toMatchObject({ recordDomain: 'example.com', requested: 'reject' });
    expect(result.reportDestinations[0]).toMatchObject({
      host: 'other.example',
      status: 'unauthorized',
      name: 'example.com._report._dmarc.other.example',
    });
    expect(result.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(['DMARC_QUOTED_STRINGS', 'DMARC_REPORT_UNAUTHORIZED']),
    );
    // the published record was never asked for: the pasted one stands in for it
    expect(resolver.queries.some((q) => q.name === '_dmarc.example.com')).toBe(false);
    expect(resolver.queries.some((q) => q.name === '_dmarc.com')).toBe(true);
  });

  it('is invalid for a domain without DMARC', async () => {
    const result = await checkDmarc({ domain: 'example.org' }, createFixtureResolver(zones));
    expect(result.valid).toBe(false);
    expect(result.record).toBeNull();
    expect(result.errors[0]).toContain('No DMARC policy applies to example.org');
  });
});

describe('checkReportDestinations', () => {
  const uris = (record: string) => analyzeDmarcRecord(record).parsed!;

  it('reports a failed lookup, an accepted override and an unverifiable name', async () => {
    // a valid host whose authorisation name is over 253 characters
    const longHost = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example`;
    const resolver = createFixtureResolver({
      '_dmarc.example.com': { TXT: 'v=DMARC1; p=none' },
      'example.com._report._dmarc.flaky.example': { servfail: true },
      'example.com._report._dmarc.vendor.example': { TXT: 'v=DMARC1; rua=mailto:new@vendor.example' },
    });
    const check = await checkReportDestinations(
      'example.com',
      uris(`v=DMARC1; p=none; rua=mailto:a@flaky.example,mailto:b@vendor.example,mailto:c@${longHost}`),
      resolver,
    );
    expect(check.destinations.map((d) => d.status)).toEqual(['temperror', 'authorized', 'unverifiable']);
    expect(check.destinations[1]?.override).toEqual({ uris: ['mailto:new@vendor.example'], accepted: true });
    expect(check.diagnostics.map((d) => d.code)).toEqual([
      'DMARC_REPORT_LOOKUP_FAILED',
      'DMARC_REPORT_OVERRIDE',
      'DMARC_REPORT_UNVERIFIABLE',
    ]);
  });

  it('notes where RFC 7489 receivers would check and RFC 9989 ones need not', async () => {
    // psd=n makes dept.example.com its own Organizational Domain for RFC 9989 receivers only
    const resolver = createFixtureResolver({
      '_dmarc.dept.example.com': { TXT: 'v=DMARC1; p=none' },
      '_dmarc.example.com': { TXT: 'v=DMARC1; p=none' },
    });
    const check = await checkReportDestinations(
      'mail.example.com',
      uris('v=DMARC1; p=none; rua=mailto:r@example.com'),
      resolver,
    );
    expect(check.destinations[0]).toMatchObject({ status: 'same-organization', requiredRfc7489: false });
    const split = await checkReportDestinations(
      'dept.example.com',
      { rua: [], ruf: uris('v=DMARC1; p=none; ruf=mailto:r@example.com').ruf },
      createFixtureResolver({ '_dmarc.dept.example.com': { TXT: 'v=DMARC1; p=none; psd=n' } }),
    );
    expect(split.destinations[0]).toMatchObject({
      tag: 'ruf',
      required: true,
      requiredRfc7489: false,
      status: 'unauthorized',
    });
  });

  it('builds the authorisation name as RFC 9990 §3 steps 1-3 say', () => {
    expect(reportAuthorizationName('blue.example.com', 'red.example.net')).toBe(
      'blue.example.com._report._dmarc.red.example.net',
    );
  });
});

describe('normalizeDmarcDomain and dmarcValidateBody', () => {
  it.each([
    ['Example.COM.', 'example.com'],
    ['_dmarc.example.com', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['com', 'com'],
  ])('%s → %s', (input, domain) => {
    expect(normalizeDmarcDomain(input)).toEqual({ ok: true, domain });
  });

  it.each([
    ['', 'Domain is required'],
    ['dmarc@example.com', 'Enter a domain such as example.com, not an email address'],
    ['https://example.com/', 'Enter a domain such as example.com, not a URL'],
    ['-bad-.example', "'-bad-.example' is not a domain name"],
    ['a..b', "'a..b' is not a domain name"],
  ])('rejects %j', (input, message) => {
    expect(normalizeDmarcDomain(input)).toEqual({ ok: false, message });
  });

  it('rejects a domain whose _dmarc name would not fit in DNS', () => {
    const fits = `${'a'.repeat(61)}.${'b'.repeat(61)}.${'c'.repeat(61)}.${'d'.repeat(57)}.ex`;
    expect(fits.length).toBe(246);
    expect(normalizeDmarcDomain(fits).ok).toBe(true);
    const result = normalizeDmarcDomain(`a${fits}`);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(
      /^The domain is too long: _dmarc\.a{12}… would exceed 253 characters$/,
    );
  });

  it('refuses a domain that was not normalised, rather than look it up', async () => {
    await expect(checkDmarc({ domain: 'Example.COM' }, createFixtureResolver(zones))).rejects.toThrow(
      RangeError,
    );
  });

  it('needs a record or a domain, and nothing else', () => {
    expect(dmarcValidateBody.safeParse({}).error?.issues[0]?.message).toBe(
      'Enter a DMARC record or a domain',
    );
    expect(dmarcValidateBody.safeParse({ record: '  ', domain: '' }).success).toBe(false);
    expect(dmarcValidateBody.safeParse({ record: 'v=DMARC1; p=none' }).success).toBe(true);
    expect(dmarcValidateBody.safeParse({ domain: 'example.com' }).success).toBe(true);
    expect(dmarcValidateBody.safeParse({ domain: 'example.com', extra: 1 }).success).toBe(false);
    expect(dmarcValidateBody.safeParse({ domain: 'x y' }).success).toBe(false);
  });
});
