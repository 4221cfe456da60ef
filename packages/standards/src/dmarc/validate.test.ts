import { describe, expect, it } from 'vitest';
import { analyzeDmarcRecord, validateDmarcRecord } from './validate.ts';

const rua = 'rua=mailto:dmarc@example.com';

function codes(text: string, spec: 'RFC 9989' | 'RFC 7489' = 'RFC 9989') {
  return analyzeDmarcRecord(text, spec).diagnostics.map((d) => `${d.severity}:${d.code}`);
}

function finding(text: string, code: string, spec: 'RFC 9989' | 'RFC 7489' = 'RFC 9989') {
  const found = analyzeDmarcRecord(text, spec).diagnostics.find((d) => d.code === code);
  if (!found) throw new Error(`${code} not reported for ${text}: ${codes(text, spec).join(', ')}`);
  return found;
}

describe('analyzeDmarcRecord: tag values', () => {
  it('reads values case-insensitively and fills in the defaults', () => {
    const parsed = analyzeDmarcRecord(`v=DMARC1; p=ReJect; ADKIM=S; ${rua}`).parsed!;
    expect(parsed).toMatchObject({
      p: 'reject',
      sp: null,
      np: null,
      adkim: 's',
      aspf: 'r',
      fo: ['0'],
      psd: 'u',
      t: 'n',
    });
    expect(parsed.effective).toEqual({
      domain: 'reject',
      subdomains: 'reject',
      nonExistentSubdomains: 'reject',
    });
    expect(codes(`v=DMARC1; p=ReJect; ADKIM=S; ${rua}`)).toContain('warning:DMARC_TAG_CASE');
  });

  it('falls back from np to sp to p (RFC 9989 §4.7)', () => {
    expect(analyzeDmarcRecord(`v=DMARC1; p=reject; sp=quarantine; ${rua}`).parsed!.effective).toEqual({
      domain: 'reject',
      subdomains: 'quarantine',
      nonExistentSubdomains: 'quarantine',
    });
    expect(analyzeDmarcRecord(`v=DMARC1; p=none; np=reject; ${rua}`).parsed!.effective).toEqual({
      domain: 'none',
      subdomains: 'none',
      nonExistentSubdomains: 'reject',
    });
  });

  it('ignores np for RFC 7489 receivers', () => {
    const parsed = analyzeDmarcRecord(`v=DMARC1; p=none; np=reject; ${rua}`, 'RFC 7489').parsed!;
    expect(parsed.np).toBeNull();
    expect(parsed.effective?.nonExistentSubdomains).toBe('none');
    expect(codes(`v=DMARC1; p=none; np=reject; ${rua}`, 'RFC 7489')).toContain(
      'info:DMARC_TAG_UNKNOWN_TO_RFC7489',
    );
  });

  it.each([
    ['p=maybe', 'DMARC_P_INVALID', 'invalid-p'],
    ['sp=block', 'DMARC_SP_INVALID', 'invalid'],
    ['np=x', 'DMARC_NP_INVALID', 'invalid'],
    ['adkim=relaxed', 'DMARC_ADKIM_INVALID', 'invalid'],
    ['aspf=x', 'DMARC_ASPF_INVALID', 'invalid'],
    ['psd=yes', 'DMARC_PSD_INVALID', 'invalid'],
    ['t=1', 'DMARC_T_INVALID', 'invalid'],
    ['fo=2', 'DMARC_FO_INVALID', 'invalid'],
    ['fo=1::d', 'DMARC_FO_INVALID', 'invalid'],
  ])('rejects %s with %s at the value', (tag, code, verdict) => {
    const text = `v=DMARC1; p=none; ${rua}; ${tag}`.replace(
      'p=none; rua',
      tag.startsWith('p=') ? 'rua' : 'p=none; rua',
    );
    const analysis = analyzeDmarcRecord(text);
    const error = analysis.diagnostics.find((d) => d.code === code)!;
    expect(error).toMatchObject({ severity: 'error', requirement: 'MUST', rfc: 'RFC 9989 §4.8' });
    expect(text.slice(error.span!.start, error.span!.end)).toBe(tag.slice(tag.indexOf('=') + 1));
    expect(analysis.verdict).toBe(verdict);
  });

  it('treats an invalid p with a valid rua as p=none, and without one as no DMARC at all (RFC 9989 §4.10.1)', () => {
    const withRua = analyzeDmarcRecord(`v=DMARC1; p=foo; ${rua}`);
    expect(withRua.parsed!.effective?.domain).toBe('none');
    expect(withRua.diagnostics.map((d) => d.code)).toContain('DMARC_INVALID_POLICY_AS_NONE');
    const without = analyzeDmarcRecord('v=DMARC1; p=foo');
    expect(without.parsed!.effective).toBeNull();
    expect(without.diagnostics.map((d) => d.code)).toContain('DMARC_NO_POLICY');
    expect(without.verdict).toBe('invalid-p');
  });

  it('reads a missing p as p=none under RFC 9989 and as a warning under RFC 7489', () => {
    const current = analyzeDmarcRecord(`v=DMARC1; ${rua}`);
    expect(current.verdict).toBe('valid');
    expect(finding(`v=DMARC1; ${rua}`, 'DMARC_P_MISSING')).toMatchObject({
      severity: 'info',
      requirement: 'SHOULD',
    });
    expect(current.parsed!.effective?.domain).toBe('none');
    expect(finding(`v=DMARC1; ${rua}`, 'DMARC_P_MISSING', 'RFC 7489')).toMatchObject({
      severity: 'warning',
      requirement: 'MUST',
    });
    expect(analyzeDmarcRecord('v=DMARC1; adkim=s').verdict).toBe('no-policy');
  });

  it('says 0 and 1 in fo are mutually exclusive, and fo needs ruf', () => {
    expect(codes(`v=DMARC1; p=none; ${rua}; fo=0:1`)).toEqual(
      expect.arrayContaining(['warning:DMARC_FO_REDUNDANT', 'warning:DMARC_FO_WITHOUT_RUF']),
    );
    expect(codes(`v=DMARC1; p=none; ${rua}; ruf=mailto:f@example.com; fo=d:s`)).not.toContain(
      'warning:DMARC_FO_WITHOUT_RUF',
    );
    expect(
      analyzeDmarcRecord(`v=DMARC1; p=none; ${rua}; ruf=mailto:f@example.com; fo=D : s`).parsed!.fo,
    ).toEqual(['d', 's']);
    expect(codes(`v=DMARC1; p=none; ${rua}; ruf=mailto:f@example.com; fo=d:d`)).toContain(
      'warning:DMARC_FO_DUPLICATE',
    );
  });

  it('warns that p is not second, for RFC 7489 receivers', () => {
    const warning = finding(`v=DMARC1; ${rua}; p=none`, 'DMARC_P_NOT_SECOND');
    expect(warning).toMatchObject({ severity: 'warning', rfc: 'RFC 7489 §6.4' });
  });
});

describe('analyzeDmarcRecord: unknown and removed tags', () => {
  it('ignores an unknown tag with a warning, suggesting a close tag name', () => {
    const warning = finding(`v=DMARC1; p=none; ${rua}; rfu=mailto:f@example.com`, 'DMARC_UNKNOWN_TAG');
    expect(warning).toMatchObject({ severity: 'warning', requirement: 'MUST', rfc: 'RFC 9989 §4.7' });
    expect(warning.message).toContain('did you mean ruf?');
    expect(finding(`v=DMARC1; p=none; ${rua}; xyz=1`, 'DMARC_UNKNOWN_TAG').message).not.toContain(
      'did you mean',
    );
    expect(finding(`v=DMARC1; p=none; ${rua}; xyz=1`, 'DMARC_UNKNOWN_TAG', 'RFC 7489').severity).toBe('info');
  });

  it.each([
    ['pct=50', 'pct', 'inaccurately', 'only 50% of failing mail'],
    ['pct=0', 'pct', 'inaccurately', 't=y is its replacement'],
    ['ri=3600', 'ri', 'at least once every 24 hours', ''],
    ['rf=afrf', 'rf', 'single format', ''],
  ])('flags %s as removed in RFC 9989 with the reason', (tag, name, reason, legacy) => {
    const analysis = analyzeDmarcRecord(`v=DMARC1; p=none; ${rua}; ${tag}`);
    const warning = analysis.diagnostics.find((d) => d.code === 'DMARC_REMOVED_TAG')!;
    expect(warning.severity).toBe('warning');
    expect(warning.message).toContain(reason);
    expect(warning.message).toContain(legacy);
    expect(warning.rfc).toMatch(/^RFC 9989 Appendix/);
    expect(analysis.parsed!.removed).toEqual([{ tag: name, value: tag.split('=')[1] }]);
    expect(analysis.parsed!.tags.find((t) => t.key === name)?.status).toBe('removed');
    // RFC 7489 receivers still know the tag
    expect(analyzeDmarcRecord(`v=DMARC1; p=none; ${rua}; ${tag}`, 'RFC 7489').verdict).toBe('valid');
  });

  it('checks the removed tags as RFC 7489 defines them', () => {
    expect(analyzeDmarcRecord(`v=DMARC1; p=none; ${rua}; pct=101`, 'RFC 7489').verdict).toBe('invalid');
    expect(analyzeDmarcRecord(`v=DMARC1; p=none; ${rua}; ri=soon`, 'RFC 7489').verdict).toBe('invalid');
    expect(analyzeDmarcRecord(`v=DMARC1; p=none; ${rua}; rf=iodef`, 'RFC 7489').verdict).toBe('invalid');
    // but RFC 9989 ignores them whatever they say
    expect(analyzeDmarcRecord(`v=DMARC1; p=none; ${rua}; pct=101`).verdict).toBe('valid-warn');
  });
});

describe('analyzeDmarcRecord: reporting URIs', () => {
  it.each([
    [
      'rua=reports@example.com',
      'is an email address, not a URI: it needs the mailto: scheme',
      'Write rua=mailto:reports@example.com.',
    ],
    ['rua=__', 'is not a URI', undefined],
    ['rua=mailto:', 'mailto: has no address', undefined],
    ['rua=mailto:not-an-address', 'is not an email address', undefined],
    ['rua=mailto:a@localhost', "'localhost' is not a domain name", undefined],
    ['rua=mailto:a@example.com,', 'An entry of the list is empty', undefined],
    ['rua=mailto:a b@example.com', 'contains a space', undefined],
    ['rua=mailto:a@example.com!big', "ends in '!big'", undefined],
  ])('reports %s as an invalid URI', (tag, message, fix) => {
    const text = `v=DMARC1; p=none; ${tag}`;
    const analysis = analyzeDmarcRecord(text);
    expect(analysis.verdict).toBe('invalid-uri');
    const error = analysis.diagnostics.find((d) => d.code === 'DMARC_URI_INVALID')!;
    expect(error.message).toContain(message);
    if (fix) expect(error.fix).toBe(fix);
    expect(error.span!.start).toBeGreaterThanOrEqual(text.indexOf('=', 15) + 1);
  });

  it('reads several URIs with their addresses, hosts and size suffixes', () => {
    const parsed = analyzeDmarcRecord(
      'v=DMARC1; p=none; rua=mailto:a@Example.COM , mailto:b@reports.example.net!10m, https://collector.example.org/dmarc',
    ).parsed!;
    expect(
      parsed.rua.map(({ uri, address, host, size, scheme }) => ({ uri, address, host, size, scheme })),
    ).toEqual([
      {
        uri: 'mailto:a@Example.COM',
        address: 'a@Example.COM',
        host: 'example.com',
        size: null,
        scheme: 'mailto',
      },
      {
        uri: 'mailto:b@reports.example.net',
        address: 'b@reports.example.net',
        host: 'reports.example.net',
        size: '10m',
        scheme: 'mailto',
      },
      {
        uri: 'https://collector.example.org/dmarc',
        address: null,
        host: 'collector.example.org',
        size: null,
        scheme: 'https',
      },
    ]);
  });

  it('calls the size suffix obsolete under RFC 9989 only', () => {
    const text = `v=DMARC1; p=none; ${rua}!10m`;
    expect(finding(text, 'DMARC_URI_SIZE_OBSOLETE').severity).toBe('warning');
    expect(codes(text, 'RFC 7489')).not.toContain('warning:DMARC_URI_SIZE_OBSOLETE');
  });

  it('warns that receivers need only support mailto:', () => {
    expect(codes('v=DMARC1; p=none; rua=https://collector.example.org/')).toContain(
      'warning:DMARC_URI_SCHEME_UNSUPPORTED',
    );
  });

  it('decodes percent-encoded commas in an address list', () => {
    const parsed = analyzeDmarcRecord('v=DMARC1; p=none; rua=mailto:a@example.com%2Cb@example.com').parsed!;
    expect(parsed.rua).toHaveLength(1);
    expect(parsed.rua[0]!.problem).toBeNull();
  });
});

describe('analyzeDmarcRecord: policy advice', () => {
  it('explains monitoring mode for p=none without warning', () => {
    const analysis = analyzeDmarcRecord(`v=DMARC1; p=none; ${rua}`);
    expect(analysis.verdict).toBe('valid');
    expect(finding(`v=DMARC1; p=none; ${rua}`, 'DMARC_POLICY_NONE').message).toContain('3-6 months');
  });

  it('warns that sp=none leaves subdomains open when p enforces', () => {
    expect(finding(`v=DMARC1; p=reject; sp=none; ${rua}`, 'DMARC_SP_NONE').severity).toBe('warning');
    expect(codes(`v=DMARC1; p=none; sp=none; ${rua}`)).not.toContain('warning:DMARC_SP_NONE');
  });

  it('cites RFC 9989 §7.4 on p=reject and indirect mail', () => {
    expect(finding(`v=DMARC1; p=reject; ${rua}`, 'DMARC_REJECT_INDIRECT_MAIL')).toMatchObject({
      severity: 'info',
      requirement: 'SHOULD NOT',
      rfc: 'RFC 9989 §7.4',
    });
  });

  it('applies one level less in test mode', () => {
    const analysis = analyzeDmarcRecord(`v=DMARC1; p=reject; sp=quarantine; t=y; ${rua}`);
    expect(analysis.parsed!.testMode).toBe(true);
    expect(analysis.parsed!.applied).toEqual({
      domain: 'quarantine',
      subdomains: 'none',
      nonExistentSubdomains: 'none',
    });
    expect(finding(`v=DMARC1; p=reject; t=y; ${rua}`, 'DMARC_TEST_MODE').severity).toBe('info');
    expect(finding(`v=DMARC1; p=none; t=y; ${rua}`, 'DMARC_TEST_MODE').message).toContain('no effect');
    expect(analyzeDmarcRecord(`v=DMARC1; p=reject; t=y; ${rua}`, 'RFC 7489').parsed!.testMode).toBe(false);
  });

  it('warns that psd=y is for public suffix operators only', () => {
    expect(finding(`v=DMARC1; p=reject; psd=y; ${rua}`, 'DMARC_PSD_Y')).toMatchObject({
      severity: 'warning',
      rfc: 'RFC 9989 §5.2',
    });
  });

  it('notes a record longer than one TXT string', () => {
    const long = `v=DMARC1; p=none; rua=${Array.from({ length: 12 }, (_, i) => `mailto:reports-${i}@example.com`).join(',')}`;
    expect(long.length).toBeGreaterThan(255);
    expect(codes(long)).toContain('info:DMARC_LONG_RECORD');
  });
});

describe('validateDmarcRecord', () => {
  it('gives both verdicts and the spec-shaped lists', () => {
    const result = validateDmarcRecord('v=DMARC1; p=reject; pct=50');
    expect(result.valid).toBe(true);
    expect(result.parsed?.verdicts).toEqual({ rfc9989: 'valid-warn', rfc7489: 'valid-warn' });
    expect(result.warnings).toEqual(
      result.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message),
    );
    expect(result.errors).toEqual([]);
  });

  it('adds RFC 7489 readings that differ as notes', () => {
    const result = validateDmarcRecord(`v=DMARC1; p=none; ${rua}; pct=150`);
    expect(result.valid).toBe(true);
    const note = result.diagnostics.find((d) => d.code === 'DMARC_RFC7489_PCT_INVALID');
    expect(note).toMatchObject({ severity: 'info' });
    expect(note?.message).toMatch(/^For RFC 7489 receivers: pct=150/);
    expect(result.parsed?.verdicts.rfc7489).toBe('invalid');
  });

  it('is invalid without parsed fields for a record that is not DMARC', () => {
    const result = validateDmarcRecord('v=spf1 -all');
    expect(result.valid).toBe(false);
    expect(result.parsed).toBeUndefined();
    expect(result.errors[0]).toContain('SPF record');
  });
});
