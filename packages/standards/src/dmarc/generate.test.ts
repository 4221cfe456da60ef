import { describe, expect, it } from 'vitest';
import {
  dmarcGeneratorDefaults,
  dmarcMailtoUri,
  generateDmarcRecord,
  type DmarcGeneratorInput,
} from './generate.ts';
import { dmarcGenerateBody } from './schema.ts';
import { analyzeDmarcRecord } from './validate.ts';

function input(patch: Partial<DmarcGeneratorInput> = {}): DmarcGeneratorInput {
  return {
    ...dmarcGeneratorDefaults,
    alignment: { ...dmarcGeneratorDefaults.alignment },
    reporting: { rua: [''], ruf: [''] },
    reportingOptions: { ...dmarcGeneratorDefaults.reportingOptions },
    ...patch,
  };
}

const record = (patch: Partial<DmarcGeneratorInput> = {}) => generateDmarcRecord(input(patch)).record;

describe('generateDmarcRecord: the spec rules (part 1 §5)', () => {
  it('writes only v and p for the defaults (part 1 §9)', () => {
    expect(record()).toBe('v=DMARC1; p=none');
  });

  it('always starts with v=DMARC1 and p', () => {
    for (const policy of ['none', 'quarantine', 'reject'] as const) {
      expect(record({ policy })).toBe(`v=DMARC1; p=${policy}`);
    }
  });

  it('adds sp only when the subdomain policy is not none', () => {
    expect(record({ policy: 'reject', subdomainPolicy: 'none' })).toBe('v=DMARC1; p=reject');
    expect(record({ policy: 'reject', subdomainPolicy: 'quarantine' })).toBe(
      'v=DMARC1; p=reject; sp=quarantine',
    );
  });

  it('adds aspf and adkim only when not r', () => {
    expect(record({ alignment: { aspf: 's', adkim: 'r' } })).toBe('v=DMARC1; p=none; aspf=s');
    expect(record({ alignment: { aspf: 'r', adkim: 's' } })).toBe('v=DMARC1; p=none; adkim=s');
    expect(record({ alignment: { aspf: 's', adkim: 's' } })).toBe('v=DMARC1; p=none; aspf=s; adkim=s');
  });

  it('adds pct only when not 100', () => {
    expect(record({ percentage: 100 })).toBe('v=DMARC1; p=none');
    expect(record({ percentage: 0 })).toBe('v=DMARC1; p=none; pct=0');
    expect(record({ percentage: 25 })).toBe('v=DMARC1; p=none; pct=25');
  });

  it('writes rua and ruf as mailto: lists, skipping blanks', () => {
    expect(
      record({
        reporting: {
          rua: ['agg@example.com', '  ', 'mailto:agg2@example.net'],
          ruf: ['', 'fail@example.com'],
        },
      }),
    ).toBe(
      'v=DMARC1; p=none; rua=mailto:agg@example.com,mailto:agg2@example.net; ruf=mailto:fail@example.com',
    );
    expect(record({ reporting: { rua: ['', ' '], ruf: [] } })).toBe('v=DMARC1; p=none');
  });

  it('adds ri only when not 86400, rf only when not afrf, fo only when not 0', () => {
    expect(record({ reportingOptions: { ri: 3600, rf: 'afrf', fo: '0' } })).toBe('v=DMARC1; p=none; ri=3600');
    expect(record({ reportingOptions: { ri: 86400, rf: 'iodef', fo: '0' } })).toBe(
      'v=DMARC1; p=none; rf=iodef',
    );
    expect(record({ reportingOptions: { ri: 86400, rf: 'afrf', fo: '1:d' } })).toBe(
      'v=DMARC1; p=none; fo=1:d',
    );
  });

  it('puts every tag in the spec order, with the RFC 9989 tags after sp and pct', () => {
    expect(
      record({
        policy: 'quarantine',
        subdomainPolicy: 'reject',
        nonExistentPolicy: 'reject',
        alignment: { aspf: 's', adkim: 's' },
        percentage: 50,
        testMode: true,
        psd: 'n',
        reporting: { rua: ['a@example.com'], ruf: ['f@example.com'] },
        reportingOptions: { ri: 3600, rf: 'iodef', fo: '1' },
      }),
    ).toBe(
      'v=DMARC1; p=quarantine; sp=reject; np=reject; aspf=s; adkim=s; pct=50; t=y; psd=n; rua=mailto:a@example.com; ruf=mailto:f@example.com; ri=3600; rf=iodef; fo=1',
    );
  });

  it('leaves psd=u and t off, as they are the defaults', () => {
    expect(record({ psd: 'u', testMode: false })).toBe('v=DMARC1; p=none');
  });

  it('names the record _dmarc.{domain}', () => {
    expect(generateDmarcRecord(input({ domain: 'Example.COM.' })).name).toBe('_dmarc.example.com');
    expect(generateDmarcRecord(input()).name).toBeNull();
  });
});

describe('generateDmarcRecord: notes', () => {
  const codes = (patch: Partial<DmarcGeneratorInput>) =>
    generateDmarcRecord(input(patch)).diagnostics.map((d) => `${d.severity}:${d.code}`);

  it("gives the spec's guidance for each policy", () => {
    const none = generateDmarcRecord(input()).diagnostics.find((d) => d.code === 'DMARC_GUIDANCE_MONITOR');
    expect(none?.message).toContain('3-6 months');
    const quarantine = generateDmarcRecord(input({ policy: 'quarantine' })).diagnostics.find(
      (d) => d.code === 'DMARC_GUIDANCE_QUARANTINE',
    );
    expect(quarantine?.message).toContain('25-50%');
    expect(codes({ policy: 'reject' })).toContain('info:DMARC_GUIDANCE_REJECT');
  });

  it('badges pct, ri and rf as removed in RFC 9989 when set', () => {
    expect(codes({ percentage: 50 }).filter((c) => c === 'warning:DMARC_REMOVED_TAG')).toHaveLength(1);
    const all = generateDmarcRecord(
      input({ percentage: 0, reportingOptions: { ri: 600, rf: 'iodef', fo: '0' } }),
    ).diagnostics.filter((d) => d.code === 'DMARC_REMOVED_TAG');
    expect(all.map((d) => d.message.split(':')[0])).toEqual(['pct=0', 'ri=600', 'rf=iodef']);
    expect(all.every((d) => d.rfc?.startsWith('RFC 9989 Appendix'))).toBe(true);
    expect(codes({})).not.toContain('warning:DMARC_REMOVED_TAG');
  });

  it('warns without rua, about fo without ruf, and flags bad addresses', () => {
    expect(codes({})).toContain('warning:DMARC_RUA_MISSING');
    expect(codes({ reporting: { rua: ['a@example.com'], ruf: [] } })).not.toContain(
      'warning:DMARC_RUA_MISSING',
    );
    expect(codes({ reportingOptions: { ri: 86400, rf: 'afrf', fo: 'd' } })).toContain(
      'warning:DMARC_FO_WITHOUT_RUF',
    );
    expect(codes({ reporting: { rua: ['not an address'], ruf: [] } })).toContain(
      'error:DMARC_GENERATOR_ADDRESS',
    );
  });

  it('produces records the validator accepts', () => {
    const generated = record({
      policy: 'reject',
      subdomainPolicy: 'quarantine',
      nonExistentPolicy: 'reject',
      alignment: { aspf: 's', adkim: 's' },
      testMode: true,
      reporting: { rua: ['a@example.com', 'b@example.net'], ruf: ['f@example.com'] },
      reportingOptions: { ri: 86400, rf: 'afrf', fo: '1:d:s' },
    });
    const analysis = analyzeDmarcRecord(generated);
    expect(analysis.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(analysis.parsed?.applied).toEqual({
      domain: 'quarantine',
      subdomains: 'none',
      nonExistentSubdomains: 'quarantine',
    });
  });
});

describe('dmarcMailtoUri', () => {
  it('adds mailto: and encodes the characters DMARC reserves', () => {
    expect(dmarcMailtoUri(' reports@example.com ')).toBe('mailto:reports@example.com');
    expect(dmarcMailtoUri('MAILTO:reports@example.com')).toBe('mailto:reports@example.com');
    expect(dmarcMailtoUri('a,b!c@example.com')).toBe('mailto:a%2Cb%21c@example.com');
    expect(dmarcMailtoUri('https://collector.example.com/')).toBe('https://collector.example.com/');
  });
});

describe('dmarcGenerateBody', () => {
  it("fills in the spec's defaults", () => {
    const parsed = dmarcGenerateBody.parse({});
    expect(generateDmarcRecord(parsed).record).toBe('v=DMARC1; p=none');
    expect(parsed).toMatchObject({
      policy: 'none',
      subdomainPolicy: 'none',
      alignment: { aspf: 'r', adkim: 'r' },
      percentage: 100,
      reportingOptions: { ri: 86400, rf: 'afrf', fo: '0' },
    });
  });

  it.each([
    [{ percentage: 101 }, 'The percentage is from 0 to 100'],
    [{ percentage: 2.5 }, 'The percentage is a whole number'],
    [{ policy: 'block' }, undefined],
    [
      { reportingOptions: { fo: '0:1' } },
      'Failure options are 0 or 1, d and s, separated by colons, each once',
    ],
    [{ reportingOptions: { ri: 0 } }, 'The report interval is at least 1 second'],
    [{ domain: 'not a domain' }, 'Enter a domain such as example.com, not a URL'],
    [{ colour: 'blue' }, undefined],
  ])('rejects %j', (body, message) => {
    const result = dmarcGenerateBody.safeParse(body);
    expect(result.success).toBe(false);
    if (message) expect(result.error?.issues.map((issue) => issue.message)).toContain(message);
  });
});
