import { describe, expect, it } from 'vitest';
import { domainToAscii, domainToUnicode, punycodeDecode, punycodeEncode } from './punycode.ts';

// RFC 3492 §7.1 sample strings (lower-cased, as IDNA compares them) and well-known IDN labels
const vectors: [string, string][] = [
  ['他们为什么不说中文', 'ihqwcrb4cv8a8dqg056pqjye'], // (B) Chinese (simplified)
  ['pročprostěnemluvíčesky', 'proprostnemluvesky-uyb24dma41a'], // (D) Czech
  ['3年b組金八先生', '3b-ww4c5e180e575a65lsy2b'], // (L)
  ['bücher', 'bcher-kva'],
  ['münchen', 'mnchen-3ya'],
];

describe('Punycode (RFC 3492)', () => {
  it.each(vectors)('encodes and decodes %s', (unicode, punycode) => {
    expect(punycodeEncode(unicode)).toBe(punycode);
    expect(punycodeDecode(punycode)).toBe(unicode);
  });

  it('rejects digits outside the alphabet', () => {
    expect(punycodeDecode('bcher-kv!')).toBeNull();
  });
});

describe('domainToAscii', () => {
  it.each([
    ['Mail.Bücher.Example.', 'mail.xn--bcher-kva.example'],
    ['MAIL.EXAMPLE.COM', 'mail.example.com'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    // NFC: u + combining diaeresis is the same name as ü
    ['bu\u0308cher.example', 'xn--bcher-kva.example'],
  ])('%s is %s', (input, expected) => {
    expect(domainToAscii(input)).toEqual({ ok: true, name: expected });
  });

  it('refuses an xn-- label that is not Punycode', () => {
    expect(domainToAscii('xn--!!.example').ok).toBe(false);
  });

  it('shows A-labels as Unicode', () => {
    expect(domainToUnicode('mail.xn--bcher-kva.example')).toBe('mail.bücher.example');
  });
});
