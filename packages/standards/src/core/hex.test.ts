import { describe, expect, it } from 'vitest';
import { toHex } from './hex.ts';

describe('toHex', () => {
  it.each([
    [[], false, ''],
    [[0, 1, 15, 16, 255], false, '00010f10ff'],
    [[0xab, 0xcd], true, 'ABCD'],
  ])('%j (upper case: %s) is %j', (bytes, upperCase, hex) => {
    expect(toHex(Uint8Array.from(bytes), upperCase)).toBe(hex);
  });
});
