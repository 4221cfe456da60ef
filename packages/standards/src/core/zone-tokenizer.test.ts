import { describe, expect, it } from 'vitest';
import { tokenizeZoneText } from './zone-tokenizer.ts';

function fields(text: string): string[][] {
  const result = tokenizeZoneText(text);
  if (!result.ok) throw new Error(result.error);
  return result.entries.map((e) => e.tokens.map((t) => t.text));
}

describe('tokenizeZoneText', () => {
  it.each([
    ['a b\tc', [['a', 'b', 'c']]],
    [
      'a b ; comment\nc d',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['a ( b\n c ) d\ne', [['a', 'b', 'c', 'd'], ['e']]],
    ['a (b\n; inner comment\n c)', [['a', 'b', 'c']]],
    ['a\r\nb\r\n', [['a'], ['b']]],
    ['\n\n  ; just a comment\n\n', []],
    ['', []],
    ['a\\ b c', [['a\\ b', 'c']]],
    ['a\\;b c', [['a\\;b', 'c']]],
    ['a "b c" d', [['a', 'b c', 'd']]],
    ['a "b \\" c" d', [['a', 'b \\" c', 'd']]],
    ['a "x;y(z)"', [['a', 'x;y(z)']]],
  ])('%j', (text, expected) => {
    expect(fields(text)).toEqual(expected);
  });

  it('marks quoted fields and keeps spans into the text', () => {
    const result = tokenizeZoneText('ab "c d"\n  (e\n f)');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.entries).toEqual([
      {
        tokens: [
          { text: 'ab', quoted: false, span: { start: 0, end: 2 } },
          { text: 'c d', quoted: true, span: { start: 3, end: 8 } },
        ],
        span: { start: 0, end: 8 },
      },
      {
        tokens: [
          { text: 'e', quoted: false, span: { start: 12, end: 13 } },
          { text: 'f', quoted: false, span: { start: 15, end: 16 } },
        ],
        span: { start: 12, end: 16 },
      },
    ]);
  });

  it.each([
    ['a ( b', "'(' is never closed", 2],
    ['a ) b', "')' without a matching '('", 2],
    ['a ( ( b ) )', 'do not nest', 4],
    ['a "b', 'not closed', 2],
    ['a b\\', 'lone backslash', 3],
  ])('%j fails: %s', (text, error, start) => {
    const result = tokenizeZoneText(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(error);
      expect(result.span.start).toBe(start);
    }
  });
});
