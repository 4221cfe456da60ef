import { describe, expect, it } from 'vitest';
import { matchMxToPolicy, mxMatchesPattern } from './match.ts';

describe('mxMatchesPattern (RFC 8461 §4.1)', () => {
  it.each([
    ['mail.example.com', 'mail.example.com', true],
    ['MAIL.Example.COM.', 'mail.example.com', true],
    ['mail.example.com', 'MAIL.EXAMPLE.COM.', true],
    ['mail.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['foo.bar.example.com', '*.example.com', false],
    ['mail.other.com', '*.example.com', false],
    ['mail.example.com', 'mail.*.com', false],
    ['mail.example.com', '*', false],
    ['mail.example.com', '', false],
    ['xmail.example.com', 'mail.example.com', false],
  ])('%s against %s: %s', (host, pattern, expected) => {
    expect(mxMatchesPattern(host, pattern)).toBe(expected);
  });

  it('names the first pattern that matches', () => {
    const patterns = ['gmail-smtp-in.l.google.com', '*.gmail-smtp-in.l.google.com'];
    expect(matchMxToPolicy('alt4.gmail-smtp-in.l.google.com', patterns)).toBe('*.gmail-smtp-in.l.google.com');
    expect(matchMxToPolicy('gmail-smtp-in.l.google.com.', patterns)).toBe('gmail-smtp-in.l.google.com');
    expect(matchMxToPolicy('alt4.gmail-smtp-in.l.zoogle.com', patterns)).toBeNull();
  });
});
