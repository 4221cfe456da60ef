import { describe, expect, it } from 'vitest';
import { parseClientIp } from './ip.ts';
import {
  expandMacroTokens,
  parseMacroString,
  senderParts,
  transformMacroValue,
  truncateDomain,
  urlEscape,
  type MacroStringKind,
  type MacroValues,
} from './macros.ts';

async function expand(
  text: string,
  values: MacroValues,
  kind: MacroStringKind = 'domain-spec',
): Promise<string> {
  const parsed = parseMacroString(text, kind);
  expect(parsed.diagnostics).toEqual([]);
  return expandMacroTokens(parsed.tokens, values);
}

// RFC 7208 §7.4: "The <sender> is strong-bad@email.example.com. The IPv4 SMTP client IP is
// 192.0.2.3. The IPv6 SMTP client IP is 2001:db8::cb01. The PTR domain name of the client IP is
// mx.example.org."
const rfcValues: MacroValues = {
  sender: 'strong-bad@email.example.com',
  domain: 'email.example.com',
  ip: parseClientIp('192.0.2.3')!,
  helo: 'mx.example.org',
  validatedDomain: () => Promise.resolve('mx.example.org'),
};

describe('RFC 7208 §7.4 expansion examples', () => {
  it.each([
    ['%{s}', 'strong-bad@email.example.com'],
    ['%{o}', 'email.example.com'],
    ['%{d}', 'email.example.com'],
    ['%{d4}', 'email.example.com'],
    ['%{d3}', 'email.example.com'],
    ['%{d2}', 'example.com'],
    ['%{d1}', 'com'],
    ['%{dr}', 'com.example.email'],
    ['%{d2r}', 'example.email'],
    ['%{l}', 'strong-bad'],
    ['%{l-}', 'strong.bad'],
    ['%{lr}', 'strong-bad'],
    ['%{lr-}', 'bad.strong'],
    ['%{l1r-}', 'strong'],
    ['%{ir}.%{v}._spf.%{d2}', '3.2.0.192.in-addr._spf.example.com'],
    ['%{lr-}.lp._spf.%{d2}', 'bad.strong.lp._spf.example.com'],
    ['%{lr-}.lp.%{ir}.%{v}._spf.%{d2}', 'bad.strong.lp.3.2.0.192.in-addr._spf.example.com'],
    ['%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}', '3.2.0.192.in-addr.strong.lp._spf.example.com'],
    ['%{d2}.trusted-domains.example.net', 'example.com.trusted-domains.example.net'],
  ])('%s → %s', async (macro, expected) => {
    expect(await expand(macro, rfcValues)).toBe(expected);
  });

  it('IPv6: %{ir}.%{v}._spf.%{d2}', async () => {
    const values = { ...rfcValues, ip: parseClientIp('2001:db8::cb01')! };
    expect(await expand('%{ir}.%{v}._spf.%{d2}', values)).toBe(
      '1.0.b.c.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6._spf.example.com',
    );
  });
});

describe('other macro letters and escapes (RFC 7208 §7.2, §7.3)', () => {
  it.each([
    ['%{h}', 'mx.example.org'],
    ['%{p}', 'mx.example.org'],
    ['%{p2}.trusted.example.net', 'example.org.trusted.example.net'],
    ['%{v}', 'in-addr'],
    ['%%', '%'],
    ['a%_b', 'a b'],
    ['a%-b', 'a%20b'],
    ['%{l3r+-}', 'bad.strong'],
    ['%{d100}', 'email.example.com'],
  ])('%s → %s', async (macro, expected) => {
    expect(await expand(macro, rfcValues)).toBe(expected);
  });

  it('expands c, r and t in explanation text only', async () => {
    const values = { ...rfcValues, receivingHost: 'mx.receiver.example', now: 1_700_000_000_500 };
    expect(await expand('%{c} via %{r} at %{t}', values, 'explanation')).toBe(
      '192.0.2.3 via mx.receiver.example at 1700000000',
    );
    expect(await expand('%{r}', rfcValues, 'explanation')).toBe('unknown');
    const v6 = { ...rfcValues, ip: parseClientIp('2001:DB8::CB01')! };
    expect(await expand('%{c}', v6, 'explanation')).toBe('2001:db8::cb01');
    expect(await expand('%{v}', v6)).toBe('ip6');
  });

  it('URL-escapes upper-case macros outside the unreserved set (RFC 3986 §2.3)', async () => {
    const values = { ...rfcValues, sender: '~jack&jill=up-a_b3.c@example.com' };
    expect(await expand('%{L}', values)).toBe('~jack%26jill%3Dup-a_b3.c');
    expect(await expand('%{S}', { ...rfcValues, sender: 'a b@ü.example' })).toBe('a%20b%40%C3%BC.example');
    expect(urlEscape('AZaz09-._~/')).toBe('AZaz09-._~%2F');
  });

  it('splits on every delimiter given and rejoins with dots', () => {
    expect(transformMacroValue('foo-bar+zip+quux', { delimiters: '+-', reverse: true, digits: 2 })).toBe(
      'bar.foo',
    );
    expect(transformMacroValue('a.b.c', { delimiters: '.', reverse: false })).toBe('a.b.c');
    expect(transformMacroValue('', { delimiters: '.', reverse: true, digits: 1 })).toBe('');
  });

  it('uses postmaster for a missing local-part (RFC 7208 §4.3)', () => {
    expect(senderParts('@example.net')).toEqual({ localPart: 'postmaster', domain: 'example.net' });
    expect(senderParts('a@b@example.net')).toEqual({ localPart: 'a@b', domain: 'example.net' });
    expect(senderParts('example.net')).toEqual({ localPart: 'postmaster', domain: 'example.net' });
  });
});

describe('macro syntax errors (RFC 7208 §7.1)', () => {
  it.each([
    ['%(ir).sbl.example.com', 'SPF_MACRO_PERCENT', 0, 2],
    ['foo%.sbl.example.com', 'SPF_MACRO_PERCENT', 3, 5],
    ['foo.example.com%', 'SPF_MACRO_PERCENT', 15, 16],
    ['%{a}.example.com', 'SPF_MACRO_LETTER', 2, 3],
    ['x%{d0}', 'SPF_MACRO_ZERO_DIGITS', 1, 6],
    ['%{d', 'SPF_MACRO_UNTERMINATED', 0, 3],
    ['%{}', 'SPF_MACRO_SYNTAX', 0, 3],
    ['%{dx}', 'SPF_MACRO_SYNTAX', 0, 5],
    ['%{r}.example.com', 'SPF_MACRO_EXPLANATION_ONLY', 0, 4],
    ['a b', 'SPF_MACRO_STRING_CHARACTER', 1, 2],
    ['caf\u00e9.example', 'SPF_MACRO_STRING_CHARACTER', 3, 4],
  ])('%j: %s at %i-%i', (text, code, start, end) => {
    const parsed = parseMacroString(text, 'domain-spec', 0);
    expect(parsed.diagnostics.map((d) => [d.code, d.span?.start, d.span?.end])).toEqual([[code, start, end]]);
    expect(parsed.diagnostics[0]?.severity).toBe('error');
  });

  it('offsets spans into the record', () => {
    const parsed = parseMacroString('%x', 'domain-spec', 10);
    expect(parsed.diagnostics[0]?.span).toEqual({ start: 10, end: 12 });
  });

  it('accepts c, r, t and spaces in explanation text', () => {
    expect(parseMacroString('From %{c} to %{r} at %{t}.', 'explanation').diagnostics).toEqual([]);
    expect(parseMacroString('%{c}', 'unknown-modifier').diagnostics).toEqual([]);
    expect(parseMacroString('The %{x}-files.', 'explanation').diagnostics[0]?.code).toBe('SPF_MACRO_LETTER');
  });

  it('reads tokens with their transformers', () => {
    const { tokens, hasMacros } = parseMacroString('x.%{L2r-+}%%', 'domain-spec');
    expect(hasMacros).toBe(true);
    expect(tokens).toMatchObject([
      { kind: 'literal', text: 'x.' },
      { kind: 'macro', letter: 'l', urlEscape: true, digits: 2, reverse: true, delimiters: '-+' },
      { kind: 'escape', text: '%%', value: '%' },
    ]);
    expect(parseMacroString('plain.example.com', 'domain-spec').hasMacros).toBe(false);
  });
});

describe('truncateDomain (RFC 7208 §7.3)', () => {
  it('removes labels from the left until the name fits 253 characters', () => {
    const label = 'a'.repeat(60);
    const long = `x.${[label, label, label, label].join('.')}.example.com`;
    expect(long.length).toBe(257);
    // without "x." it is still 255 characters, so the next label goes too
    expect(truncateDomain(long)).toBe(long.slice(2 + 61));
    expect(truncateDomain(`${'b'.repeat(250)}.com`)).toBe('com');
    expect(truncateDomain('example.com.')).toBe('example.com');
    expect(truncateDomain('short.example')).toBe('short.example');
  });
});
