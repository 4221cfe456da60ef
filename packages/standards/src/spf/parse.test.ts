import { describe, expect, it } from 'vitest';
import { parseSpfRecord } from './parse.ts';
import { recordLookupTerms, termLookups, type SpfMechanism, type SpfModifier } from './record.ts';
import { checkTxtAnswerSize, isSpfRecord, selectSpfRecords } from './record-selection.ts';

function codes(record: string): string[] {
  return parseSpfRecord(record).diagnostics.map((d) => d.code);
}

/** The first error's code and the text its span covers. */
function firstError(record: string): [string, string] | undefined {
  const d = parseSpfRecord(record).diagnostics.find((x) => x.severity === 'error');
  if (d === undefined) return undefined;
  return [d.code, d.span === undefined ? '' : record.slice(d.span.start, d.span.end)];
}

describe('version detection (RFC 7208 §4.5)', () => {
  it.each([
    ['v=spf1', true],
    ['v=spf1 -all', true],
    ['V=SpF1 ~all', true],
    ['v=spf1mx', false],
    ['v=spf10', false],
    [' v=spf1 -all', false],
    ['v=spf2.0/pra -all', false],
    ['spf1 -all', false],
  ])('%j is an SPF record: %s', (text, expected) => {
    expect(isSpfRecord(text)).toBe(expected);
    expect(parseSpfRecord(text).record !== undefined).toBe(expected);
  });

  it('notes a version not in lower case', () => {
    expect(codes('V=SPF1 -all')).toContain('SPF_VERSION_CASE');
    expect(parseSpfRecord('v=spf1x').diagnostics[0]).toMatchObject({
      code: 'SPF_VERSION_MISSING',
      span: { start: 0, end: 7 },
    });
  });
});

describe('syntax errors with their position', () => {
  it.each([
    // record, code, text under the span
    ['v=spf1 ip4:1.2.3.4 -all moo', 'SPF_UNKNOWN_MECHANISM', 'moo'],
    ['v=spf1 moo.cow/far_out=man:dog/cat -all', 'SPF_UNKNOWN_MECHANISM', 'moo.cow'],
    ['v=spf1 redirect:example.com', 'SPF_UNKNOWN_MECHANISM', 'redirect'],
    ['v=spf1 !a -all', 'SPF_UNKNOWN_MECHANISM', '!a'],
    ['v=spf1 -all.', 'SPF_UNKNOWN_MECHANISM', 'all.'],
    ['v=spf1 -all:foobar', 'SPF_ALL_ARGUMENT', ':foobar'],
    ['v=spf1 -all/8', 'SPF_ALL_ARGUMENT', '/8'],
    ['v=spf1 include -all', 'SPF_DOMAIN_SPEC_MISSING', 'include'],
    ['v=spf1 include: -all', 'SPF_DOMAIN_SPEC_EMPTY', ''],
    ['v=spf1 exists', 'SPF_DOMAIN_SPEC_MISSING', 'exists'],
    ['v=spf1 include:_spf.example.com/24 -all', 'SPF_DOMAIN_SPEC_TOPLABEL', '/24'],
    ['v=spf1 a:foo-bar -all', 'SPF_DOMAIN_SPEC_SINGLE_LABEL', 'foo-bar'],
    ['v=spf1 a:museum.', 'SPF_DOMAIN_SPEC_SINGLE_LABEL', 'museum.'],
    ['v=spf1 a:abc.123', 'SPF_DOMAIN_SPEC_TOPLABEL', '123'],
    ['v=spf1 a:example.-com', 'SPF_DOMAIN_SPEC_TOPLABEL', '-com'],
    ['v=spf1 a:example.com:8080', 'SPF_DOMAIN_SPEC_TOPLABEL', 'com:8080'],
    ['v=spf1 a:111.222.33.44', 'SPF_DOMAIN_SPEC_IP_ADDRESS', '111.222.33.44'],
    ['v=spf1 a:mail.example...com -all', 'SPF_DOMAIN_NAME_EMPTY_LABEL', 'mail.example...com'],
    [`v=spf1 a:${'a'.repeat(64)}.example.com`, 'SPF_DOMAIN_NAME_LONG_LABEL', `${'a'.repeat(64)}.example.com`],
    ['v=spf1 a/33 -all', 'SPF_CIDR_INVALID', '/33'],
    ['v=spf1 a//129 -all', 'SPF_CIDR_INVALID', '//129'],
    ['v=spf1 mx/24/64 -all', 'SPF_CIDR_INVALID', '/24/64'],
    ['v=spf1 ip4:1.2.3.4/032 -all', 'SPF_CIDR_INVALID', '/032'],
    ['v=spf1 ip4:1.2.3.4//32', 'SPF_CIDR_INVALID', '//32'],
    ['v=spf1 ip4:1.2.3', 'SPF_IP_INVALID', '1.2.3'],
    ['v=spf1 ip4:1.2.3.4:8080', 'SPF_IP_INVALID', '1.2.3.4:8080'],
    ['v=spf1 ip4:2001:db8::1', 'SPF_IP_INVALID', '2001:db8::1'],
    ['v=spf1 ip4', 'SPF_IP_MISSING', 'ip4'],
    ['v=spf1 -all ip6', 'SPF_IP_MISSING', 'ip6'],
    ['v=spf1 ip6::CAFE::BABE', 'SPF_IP_INVALID', ':CAFE::BABE'],
    ['v=spf1 ip6:::1.1.1.1/129', 'SPF_CIDR_INVALID', '/129'],
    ['v=spf1 ptr/0 -all', 'SPF_PTR_CIDR', '/0'],
    ['v=spf1 ptr:', 'SPF_DOMAIN_SPEC_EMPTY', ''],
    ['v=spf1 1up=foo', 'SPF_MODIFIER_NAME_INVALID', '1up'],
    ['v=spf1 =all', 'SPF_MODIFIER_NAME_INVALID', '='],
    ['v=spf1 -all foo=%abc', 'SPF_MACRO_PERCENT', '%a'],
    ['v=spf1 exp= -all', 'SPF_EXP_EMPTY', 'exp='],
    ['v=spf1 ?all redirect=', 'SPF_REDIRECT_EMPTY', 'redirect='],
    ['v=spf1 redirect=-all ?all', 'SPF_DOMAIN_SPEC_SINGLE_LABEL', '-all'],
    ['v=spf1 -exists:%(ir).sbl.example.com ?all', 'SPF_MACRO_PERCENT', '%('],
    ['v=spf1 a:%{a}.example.com -all', 'SPF_MACRO_LETTER', 'a'],
    ['v=spf1 -all exp=%{r}.example.com', 'SPF_MACRO_EXPLANATION_ONLY', '%{r}'],
    ['v=spf1 a:ctrl.example.com\rptr -all', 'SPF_CONTROL_CHARACTER', '\r'],
    ['v=spf1 a:\u00ef\u00bb\u00bfgarbage.example.net -all', 'SPF_NON_ASCII', '\u00ef'],
    ['v=spf1 a:foo.example.com\0', 'SPF_CONTROL_CHARACTER', '\0'],
    ['v=spf1 exp=a.example.com -all exp=b.example.com', 'SPF_EXP_DUPLICATE', 'exp=b.example.com'],
    [
      'v=spf1 redirect=a.example.com -all redirect=b.example.com',
      'SPF_REDIRECT_DUPLICATE',
      'redirect=b.example.com',
    ],
  ])('%j: %s on %j', (record, code, covered) => {
    expect(firstError(record)).toEqual([code, covered]);
    expect(parseSpfRecord(record).record?.permerror).toBe(true);
  });

  it('keeps the terms around an invalid one', () => {
    const { record } = parseSpfRecord('v=spf1 a moo -all');
    expect(record?.terms.map((t) => [t.type, t.text, t.span.start])).toEqual([
      ['mechanism', 'a', 7],
      ['invalid', 'moo', 9],
      ['mechanism', '-all', 13],
    ]);
  });
});

describe('valid records', () => {
  it.each([
    'v=spf1',
    'v=spf1 a  -all',
    'v=spf1 a -all ',
    'v=spf1 moo.cow-far_out=man:dog/cat ip4:1.2.3.4 -all',
    'v=spf1 a:foo:bar/baz.example.com -all',
    'v=spf1 a:foo.example.xn--zckzah -all',
    'v=spf1 a/24//64 mx:example.com//0 -all',
    'v=spf1 ip6:2001:db8::/32 ip4:192.0.2.0/24 -all',
    'v=spf1 a:macro%%percent%_%_space%-url-space.example.com -all',
    'v=spf1 exists:%{i}.%{l2r-}.user.%{d2} -all',
    'v=spf1 redirect=%{d}.d.spf.example.com.',
    'v=spf1 default=pass',
    `v=spf1 a:${'a'.repeat(63)}.example.com -all`,
  ])('%j has no errors', (record) => {
    const parsed = parseSpfRecord(record);
    expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(parsed.record?.permerror).toBe(false);
  });

  it('reads qualifiers, arguments and prefix lengths', () => {
    const { record } = parseSpfRecord(
      'v=spf1 ~a:Mail.Example.com/24//64 -mx ?ip4:192.0.2.0/24 +include:_spf.example.net ALL',
    );
    const [a, mx, ip4, include, all] = record?.mechanisms ?? [];
    expect(a).toMatchObject({ name: 'a', qualifier: '~', explicitQualifier: true, ip4Cidr: 24, ip6Cidr: 64 });
    expect(a?.domainSpec).toMatchObject({
      text: 'Mail.Example.com',
      span: { start: 10, end: 26 },
      hasMacros: false,
    });
    expect(mx).toMatchObject({ name: 'mx', qualifier: '-' });
    expect(mx?.domainSpec).toBeUndefined();
    expect(ip4?.network).toMatchObject({ prefix: 24, text: '192.0.2.0/24' });
    expect(include).toMatchObject({
      name: 'include',
      qualifier: '+',
      domainSpec: { text: '_spf.example.net' },
    });
    expect(all).toMatchObject({ name: 'all', qualifier: '+', explicitQualifier: false });
    expect(record?.all).toBe(all);
  });

  it('reads modifiers case-insensitively', () => {
    const { record } = parseSpfRecord('v=spf1 -all Exp=explain.example.com REDIRECT=other.example.com');
    expect(record?.exp).toMatchObject({
      kind: 'exp',
      name: 'exp',
      value: 'explain.example.com',
    } satisfies Partial<SpfModifier>);
    expect(record?.redirect?.kind).toBe('redirect');
  });
});

describe('advice on valid records', () => {
  it.each([
    ['v=spf1 +all', 'SPF_ALL_PASS', 'warning'],
    ['v=spf1 all', 'SPF_ALL_PASS', 'warning'],
    ['v=spf1 ?all', 'SPF_ALL_NEUTRAL', 'warning'],
    ['v=spf1 -all a', 'SPF_AFTER_ALL', 'warning'],
    ['v=spf1 redirect=_spf.example.com ~all', 'SPF_REDIRECT_IGNORED', 'warning'],
    ['v=spf1 ptr -all', 'SPF_PTR', 'warning'],
    ['v=spf1 exists:%{p}.example.com -all', 'SPF_MACRO_P', 'warning'],
    ['v=spf1 a', 'SPF_NO_ALL', 'info'],
    ['v=spf1', 'SPF_EMPTY_RECORD', 'warning'],
    ['v=spf1 exp=x.example.com -all', 'SPF_MODIFIER_POSITION', 'info'],
    ['v=spf1 default=pass -all', 'SPF_UNKNOWN_MODIFIER', 'warning'],
    ['v=spf1 ip4:0.0.0.0/0 -all', 'SPF_PREFIX_ZERO', 'warning'],
    ['v=spf1 a/0 -all', 'SPF_PREFIX_ZERO', 'warning'],
    ['v=spf1 ip4:192.0.2.1/24 -all', 'SPF_IP_HOST_BITS', 'info'],
    ['v=spf1 ~all', 'SPF_NO_SENDER', 'warning'],
    ['v=spf1 ?all', 'SPF_NO_SENDER', 'warning'],
    ['v=spf1 -include:_spf.example.net ~all', 'SPF_NO_SENDER', 'warning'],
    ['v=spf1 -all', 'SPF_NO_SENDER', 'info'],
  ])('%j: %s (%s)', (record, code, severity) => {
    const found = parseSpfRecord(record).diagnostics.find((d) => d.code === code);
    expect(found?.severity).toBe(severity);
    expect(parseSpfRecord(record).record?.permerror).toBe(false);
  });

  it('cites the requirement level of ptr', () => {
    expect(parseSpfRecord('v=spf1 ptr -all').diagnostics.find((d) => d.code === 'SPF_PTR')).toMatchObject({
      requirement: 'SHOULD NOT',
      rfc: 'RFC 7208 §5.5',
      span: { start: 7, end: 10 },
    });
  });

  it('says a record with no pass mechanism before all authorises no sender, with a fix (RFC 7208 §4.6.2)', () => {
    const [finding] = parseSpfRecord('v=spf1 ~all').diagnostics;
    expect(finding).toMatchObject({
      code: 'SPF_NO_SENDER',
      rfc: 'RFC 7208 §4.6.2',
      span: { start: 7, end: 11 },
    });
    expect(finding?.message).toMatch(/authorises no sender.*'softfail'/);
    expect(finding?.fix).toMatch(/before '~all'.*'v=spf1 -all'/);
  });

  it.each([
    'v=spf1 mx ~all',
    'v=spf1 +a -all',
    'v=spf1 -ip4:192.0.2.1 include:_spf.example.net ~all',
    'v=spf1 +all',
  ])('%j authorises a sender', (record) => {
    expect(codes(record)).not.toContain('SPF_NO_SENDER');
  });

  it('gives -all and ~all records no advice', () => {
    expect(codes('v=spf1 mx ip4:192.0.2.0/24 include:_spf.example.net -all')).toEqual([]);
    expect(codes('v=spf1 mx ~all')).toEqual([]);
  });
});

describe('lookup terms (RFC 7208 §4.6.4)', () => {
  it('counts include, a, mx, ptr, exists and redirect up to all', () => {
    const { record } = parseSpfRecord(
      'v=spf1 ip4:192.0.2.1 a mx include:x.example ptr exists:%{i}.e.example -all a',
    );
    expect(recordLookupTerms(record!).map((t) => t.text)).toEqual([
      'a',
      'mx',
      'include:x.example',
      'ptr',
      'exists:%{i}.e.example',
    ]);
    const { record: redirecting } = parseSpfRecord('v=spf1 a redirect=_spf.example.com');
    expect(recordLookupTerms(redirecting!).map((t) => t.text)).toEqual(['a', 'redirect=_spf.example.com']);
  });

  it('flags more than 10 in one record, at the 11th', () => {
    const record = `v=spf1 ${Array.from({ length: 11 }, (_, i) => `a:h${i}.example.com`).join(' ')} -all`;
    const d = parseSpfRecord(record).diagnostics.find((x) => x.code === 'SPF_LOOKUP_LIMIT');
    expect(d?.severity).toBe('error');
    expect(record.slice(d?.span?.start, d?.span?.end)).toBe('a:h10.example.com');
    expect(codes(`v=spf1 ${Array.from({ length: 10 }, () => 'a').join(' ')} -all`)).not.toContain(
      'SPF_LOOKUP_LIMIT',
    );
  });

  it('describes what each term queries', () => {
    const { record } = parseSpfRecord(
      'v=spf1 mx:example.com include:_spf.example.net ip4:192.0.2.0/24 -all exp=why.example.com',
    );
    const [mx, include, ip4, all, exp] = record?.terms ?? [];
    expect(termLookups(mx!)).toMatchObject({
      counts: true,
      queries: [{ type: 'MX', target: 'example.com' }, { type: 'A/AAAA' }],
    });
    expect(termLookups(include!)).toEqual({
      counts: true,
      queries: [{ type: 'TXT', target: '_spf.example.net' }],
    });
    expect(termLookups(ip4!)).toEqual({ counts: false, queries: [] });
    expect(termLookups(all!)).toEqual({ counts: false, queries: [] });
    expect(termLookups(exp!)).toMatchObject({
      counts: false,
      queries: [{ type: 'TXT', target: 'why.example.com' }],
    });
    const a = parseSpfRecord('v=spf1 a').record?.mechanisms[0] as SpfMechanism;
    expect(termLookups(a).queries[0]?.target).toBe('%{d}');
  });
});

describe('selectSpfRecords (RFC 7208 §4.5, §3.2)', () => {
  it('picks the one SPF record among other TXT records', () => {
    const selection = selectSpfRecords('example.com', ['google-site-verification=x', ['v=spf1 ', 'mx -all']]);
    expect(selection.records).toEqual(['v=spf1 mx -all']);
    expect(selection.diagnostics).toEqual([]);
  });

  it('finds more than one record an error, even when identical', () => {
    const selection = selectSpfRecords('example.com', ['v=spf1 -all', 'V=spf1 -all']);
    expect(selection.diagnostics[0]).toMatchObject({
      code: 'SPF_MULTIPLE_RECORDS',
      severity: 'error',
      requirement: 'MUST NOT',
    });
  });

  it('explains strings joined without a space', () => {
    const selection = selectSpfRecords('example2.com', [['v=spf1', 'mx']]);
    expect(selection.records).toEqual([]);
    expect(selection.diagnostics.map((d) => d.code)).toEqual(['SPF_VERSION_NOT_TERMINATED']);
    expect(selectSpfRecords('a.example', ['hello']).diagnostics.map((d) => d.code)).toEqual([
      'SPF_NO_RECORD',
    ]);
    expect(selectSpfRecords('a.example', ['v = spf1 -all']).diagnostics.map((d) => d.code)).toEqual([
      'SPF_VERSION_MALFORMED',
    ]);
  });
});

describe('record size (RFC 7208 §3.3, §3.4)', () => {
  const long = `v=spf1 ${Array.from({ length: 20 }, (_, i) => `ip4:198.51.100.${i}`).join(' ')} -all`;

  it('asks for a record over 255 octets to be split into strings', () => {
    expect(long.length).toBeGreaterThan(255);
    expect(checkTxtAnswerSize('example.com', [long]).map((d) => [d.code, d.severity])).toEqual([
      ['SPF_STRING_SPLIT', 'info'],
    ]);
    expect(checkTxtAnswerSize('example.com', [[long]]).map((d) => d.code)).toEqual(['SPF_STRING_TOO_LONG']);
    expect(checkTxtAnswerSize('example.com', [[long.slice(0, 200), long.slice(200)]])).toEqual([]);
  });

  it('warns over 450 octets of name and text, and over a 512-octet answer', () => {
    const big = `v=spf1 ${Array.from({ length: 30 }, (_, i) => `ip4:198.51.100.${i}`).join(' ')} -all`;
    const found = checkTxtAnswerSize('example.com', [big]).map((d) => d.code);
    expect(big.length + 'example.com'.length).toBeGreaterThan(450);
    expect(found).toContain('SPF_ANSWER_SIZE');
    const other = 'x'.repeat(200);
    expect(checkTxtAnswerSize('example.com', [big, other]).map((d) => d.code)).toContain(
      'SPF_ANSWER_OVER_512',
    );
    expect(checkTxtAnswerSize('example.com', ['v=spf1 -all'])).toEqual([]);
  });
});
