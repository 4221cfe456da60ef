import { describe, expect, it } from 'vitest';
import { parseTagList } from './tag-list.ts';

const text = (value: string) => ({
  text: value,
  offsets: Array.from({ length: value.length }, (_, i) => i + 10),
});

describe('parseTagList', () => {
  it('reads tags with whitespace around names, = and values, and spans into the input', () => {
    const { tags, diagnostics } = parseTagList(text(' a = 1 ;b=two words; '), {
      prefix: 'X',
      subject: 'field',
    });
    expect(diagnostics).toEqual([]);
    expect(tags!.map((t) => [t.name, t.value])).toEqual([
      ['a', '1'],
      ['b', 'two words'],
    ]);
    expect(tags![0]!.valueSpan).toEqual({ start: 15, end: 16 });
  });

  it('names its diagnostics with the prefix and subject it is given', () => {
    const { tags, diagnostics } = parseTagList(text('a=1; a=2'), { prefix: 'ARC', subject: 'field' });
    expect(tags).toBeNull();
    expect(diagnostics).toMatchObject([
      { code: 'ARC_DUPLICATE_TAG', requirement: 'MUST NOT', rfc: 'RFC 6376 §3.2' },
    ]);
    expect(diagnostics[0]!.message).toMatch(/whole field invalid/);
    expect(parseTagList(text('a=1;;b=2'), { prefix: 'DKIM', subject: 'record' }).diagnostics[0]!.code).toBe(
      'DKIM_EMPTY_TAG',
    );
  });
});
