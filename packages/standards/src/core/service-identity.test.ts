import { describe, expect, it } from 'vitest';
import { dnsIdMatches, readPresentedName } from './service-identity.ts';

// RFC 6125 §6.4 and RFC 7817 §3 rule 5
const table: [presented: string, reference: string, matches: boolean][] = [
  ['mail.example.com', 'mail.example.com', true],
  ['MAIL.Example.COM.', 'mail.example.com', true], // §6.4.1: case-insensitive, trailing dot
  ['mail.example.com', 'imap.example.com', false],
  ['*.example.com', 'mail.example.com', true], // §6.4.3: one left-most label
  ['*.example.com', 'example.com', false], // not the bare parent
  ['*.example.com', 'a.b.example.com', false], // not two labels
  ['m*.example.com', 'mail.example.com', false], // partial label: RFC 7817 §3 MUST NOT
  ['*ail.example.com', 'mail.example.com', false],
  ['mail.*.example.com', 'mail.imap.example.com', false], // not left-most
  ['*.com', 'example.com', false], // too broad, RFC 6125 §7.2
  ['*.co.uk', 'example.co.uk', false], // public suffix
  ['mail.bücher.example', 'mail.xn--bcher-kva.example', true], // U-label compared as A-label
  ['mail.xn--bcher-kva.example', 'mail.bücher.example', true],
  ['*.xn--bcher-kva.example', 'mail.xn--bcher-kva.example', true],
  ['xn--*.example', 'xn--bcher-kva.example', false], // wildcard inside an A-label, §6.4.3
];

describe('dnsIdMatches (RFC 6125 §6.4, RFC 7817 §3)', () => {
  it.each(table)('%s against %s: %s', (presented, reference, matches) => {
    expect(dnsIdMatches(presented, reference)).toBe(matches);
  });

  it('names why a presented name can never match', () => {
    expect(readPresentedName('m*.example.com').problem).toBe('partial-wildcard');
    expect(readPresentedName('xn--*.example').problem).toBe('a-label-wildcard');
    expect(readPresentedName('a.*.example.com').problem).toBe('wildcard-not-left-most');
    expect(readPresentedName('*.com').problem).toBe('wildcard-too-broad');
    expect(readPresentedName('*.example.com').problem).toBeNull();
  });
});
