import { describe, expect, it } from 'vitest';

import { quotedTxtStrings, splitTxtStrings, txtStringMaxLength } from './txt-strings.ts';

describe('splitTxtStrings', () => {
  it('cuts at 255 octets', () => {
    expect(txtStringMaxLength).toBe(255);
    expect(splitTxtStrings('a'.repeat(600)).map((part) => part.length)).toEqual([255, 255, 90]);
  });

  it('keeps a short text and the empty text as one string', () => {
    expect(splitTxtStrings('v=spf1 -all')).toEqual(['v=spf1 -all']);
    expect(splitTxtStrings('')).toEqual(['']);
    expect(splitTxtStrings('a'.repeat(255))).toEqual(['a'.repeat(255)]);
  });

  it('never cuts a multi-octet character in two', () => {
    // 254 ASCII octets, then 'é' (2 octets) would straddle the 255th octet
    const parts = splitTxtStrings(`${'a'.repeat(254)}é${'b'.repeat(10)}`);
    expect(parts).toEqual(['a'.repeat(254), `é${'b'.repeat(10)}`]);
    for (const part of parts) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(255);
  });
});

describe('quotedTxtStrings', () => {
  it('quotes each string and joins them with spaces', () => {
    expect(quotedTxtStrings('v=DMARC1; p=none')).toBe('"v=DMARC1; p=none"');
    expect(quotedTxtStrings('x'.repeat(300))).toBe(`"${'x'.repeat(255)}" "${'x'.repeat(45)}"`);
  });
});
