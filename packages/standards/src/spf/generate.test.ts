import { describe, expect, it } from 'vitest';
import { buildSpfRecord, generateSpf } from './generate.ts';
import { parseSpfRecord } from './parse.ts';
import { spfGenerateBody, spfGenerateResultSchema } from './schema.ts';

describe('buildSpfRecord', () => {
  it.each<[Parameters<typeof buildSpfRecord>[0], string]>([
    [{}, 'v=spf1 ~all'],
    [{ all: 'none', redirect: '_spf.example.com' }, 'v=spf1 redirect=_spf.example.com'],
    [
      {
        ip4: [' 192.0.2.0/24 ', '', 'ip4:198.51.100.1', '192.0.2.0/24'],
        ip6: ['2001:db8::/32'],
        aSelf: true,
        a: ['mail.example.com/24'],
        mxSelf: true,
        mx: ['example.net'],
        include: ['_spf.google.com', 'include:spf.protection.outlook.com'],
        exists: ['%{i}._spf.example.com'],
        all: '-',
        exp: 'explain.example.com',
      },
      'v=spf1 ip4:192.0.2.0/24 ip4:198.51.100.1 ip6:2001:db8::/32 a a:mail.example.com/24 mx mx:example.net include:_spf.google.com include:spf.protection.outlook.com exists:%{i}._spf.example.com -all exp=explain.example.com',
    ],
    [{ all: '?' }, 'v=spf1 ?all'],
    [{ all: '+' }, 'v=spf1 +all'],
  ])('%j → %s', (input, record) => {
    expect(buildSpfRecord(input)).toBe(record);
  });
});

describe('generateSpf', () => {
  it('counts the lookups of the record and gives the parser diagnostics', () => {
    const result = generateSpf({ mxSelf: true, include: ['_spf.example.net'], all: '-' });
    spfGenerateResultSchema.parse(result);
    expect(result).toMatchObject({
      record: 'v=spf1 mx include:_spf.example.net -all',
      lookups: 2,
      valid: true,
    });
    expect(result.diagnostics.map((d) => d.code)).toContain('SPF_LOOKUP_COUNT');
  });

  it('reports a bad entry at its place in the record', () => {
    const result = generateSpf({ ip4: ['192.0.2.300'], all: '-' });
    expect(result.valid).toBe(false);
    const error = result.diagnostics.find((d) => d.severity === 'error');
    expect(error?.span && result.record.slice(error.span.start, error.span.end)).toContain('192.0.2.300');
  });

  it('says its starting record authorises no sender rather than finding no problem', () => {
    const result = generateSpf({});
    expect(result.record).toBe('v=spf1 ~all');
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toContainEqual(['SPF_NO_SENDER', 'warning']);
  });

  it('warns about +all and about redirect beside all', () => {
    expect(generateSpf({ all: '+' }).warnings.length).toBeGreaterThan(0);
    const both = generateSpf({ all: '-', redirect: 'example.net' });
    expect(both.diagnostics.map((d) => d.code)).toContain('SPF_REDIRECT_IGNORED');
  });

  it('flags more than 10 lookups', () => {
    const include = Array.from({ length: 11 }, (_, i) => `p${i}.example.net`);
    const result = generateSpf({ include, all: '-' });
    expect(result.lookups).toBe(11);
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain('SPF_LOOKUP_LIMIT');
  });

  it('accepts the API body with its defaults and gives a record the parser reads', () => {
    const body = spfGenerateBody.parse({ ip4: ['192.0.2.1'] });
    expect(body).toMatchObject({ all: '~', aSelf: false, include: [], redirect: '' });
    const { record } = generateSpf(body);
    expect(parseSpfRecord(record).record?.permerror).toBe(false);
    expect(spfGenerateBody.safeParse({ ip4: [], extra: 1 }).success).toBe(false);
  });
});
