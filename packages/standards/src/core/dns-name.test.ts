import { describe, expect, it } from 'vitest';
import { parseDnsName } from './dns-name.ts';
import { toHex } from './hex.ts';

// Wire forms written out by hand: length octet, label octets, …, 00.
describe('parseDnsName', () => {
  it.each([
    ['dskey.example.com.', 'dskey.example.com.', '0564736b6579076578616d706c6503636f6d00'],
    ['dskey.example.com', 'dskey.example.com.', '0564736b6579076578616d706c6503636f6d00'],
    ['DSKEY.Example.COM.', 'dskey.example.com.', '0564736b6579076578616d706c6503636f6d00'],
    ['.', '.', '00'],
    ['a\\.b.example.', 'a\\.b.example.', '03612e62076578616d706c6500'],
    ['a\\046b.example.', 'a\\.b.example.', '03612e62076578616d706c6500'],
    ['\\065.', 'a.', '016100'],
    ['x\\032y.', 'x\\032y.', '0378207900'],
    ['\\000.', '\\000.', '010000'],
    ['_443._tcp.example.', '_443._tcp.example.', '045f343433045f746370076578616d706c6500'],
    ['a\\\\b.', 'a\\\\b.', '03615c6200'],
  ])('%j is %j, wire %s', (input, text, wire) => {
    const result = parseDnsName(input);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.name.text).toBe(text);
      expect(toHex(result.name.wire)).toBe(wire);
    }
  });

  it('accepts a 63-octet label and a 255-octet name', () => {
    expect(parseDnsName(`${'a'.repeat(63)}.example.`).ok).toBe(true);
    // 4 labels of 63 octets = 4 * 64 = 256 octets with the root: one too many; 3 + one of 61 = 255.
    const name255 = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}.`;
    const result = parseDnsName(name255);
    expect(result.ok && result.name.wire.length).toBe(255);
  });

  it.each([
    ['', 'empty'],
    ['@', '$ORIGIN'],
    ['a..b.', 'empty label'],
    ['.example.', 'empty label'],
    [`${'a'.repeat(64)}.example.`, '63'],
    [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}.`, '255'],
    ['a\\25.', 'three digits'],
    ['a\\256.', '255 or less'],
    ['a\\', 'lone backslash'],
    ['bücher.example.', 'xn--'],
    ['a b.', 'space'],
  ])('%j is rejected (%s)', (input, error) => {
    const result = parseDnsName(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(error);
  });
});
