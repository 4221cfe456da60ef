import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './base64.ts';
import { toHex } from './hex.ts';

// Expected bytes from Python's base64 module.
describe('decodeBase64', () => {
  it.each([
    ['AA==', '00'],
    ['/w==', 'ff'],
    ['AQAB', '010001'],
    ['aGVsbG8gd29ybGQ=', '68656c6c6f20776f726c64'],
    ['AAECAwQFBgcICQ==', '00010203040506070809'],
    ['AAEC\n  AwQF\tBgcI CQ==', '00010203040506070809'],
    ['  AQAB\r\n', '010001'],
  ])('%j decodes to %s', (text, hex) => {
    const result = decodeBase64(text);
    expect(result.ok && toHex(result.bytes)).toBe(hex);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['AQO*', "invalid base64 character '*'"],
    ['AQ-_', 'base64url'],
    ['AQ=B', 'only allowed at the end'],
    ['AQA', 'multiple of 4'],
    ['AQ=', 'multiple of 4'],
    ['A===', "invalid base64 character '='"],
    ['AB==', 'not canonical'],
    ['AAB=', 'not canonical'],
  ])('%j is rejected (%s)', (text, error) => {
    const result = decodeBase64(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(error);
  });

  it('points at the offending character in the original text', () => {
    const result = decodeBase64('AQ AB\nA*AA');
    expect(result).toMatchObject({ ok: false, offset: 7 });
  });

  it.each([1, 700, 5000, 70000])('decodes %i bytes, also after longer and shorter inputs', (size) => {
    const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 131 + size) & 0xff);
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    const text = btoa(binary);
    // wrapped as zone files do, so offsets and blanks go through the working arrays too
    const wrapped = text.replace(/.{1,56}/g, '$& \n');
    for (const input of [text, wrapped, 'AQAB', text]) {
      const result = decodeBase64(input);
      expect(result.ok && toHex(result.bytes)).toBe(input === 'AQAB' ? '010001' : toHex(bytes));
    }
    const broken = `${wrapped.slice(0, 1)}*${wrapped.slice(2)}`;
    expect(decodeBase64(broken)).toMatchObject({ ok: false, offset: broken.indexOf('*') });
  });
});
