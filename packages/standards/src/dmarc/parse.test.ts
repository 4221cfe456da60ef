import { describe, expect, it } from 'vitest';
import { isDmarcRecord, parseDmarcRecord, readDmarcTxtInput } from './parse.ts';

function tagsOf(text: string) {
  const result = parseDmarcRecord(text);
  if (!result.ok) throw new Error(`not a DMARC record: ${result.reason}`);
  return result;
}

describe('isDmarcRecord', () => {
  it.each([
    ['v=DMARC1; p=none', true],
    ['v=DMARC1', true],
    ['v=DMARC1;', true],
    ['v = DMARC1 ; p=none', true],
    ['V=DMARC1; p=none', true],
    ['v=DMARC1 p=none', false],
    ['v=dmarc1; p=none', false],
    ['v=DMARC1x', false],
    [' v=DMARC1; p=none', false],
    ['p=none; v=DMARC1', false],
    ['v=spf1 -all', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(isDmarcRecord(text)).toBe(expected);
  });
});

describe('parseDmarcRecord', () => {
  it('reads every tag with its name, value and positions', () => {
    const text = 'v=DMARC1; p = reject ;rua=mailto:a@example.com';
    const { tags, diagnostics } = tagsOf(text);
    expect(diagnostics).toEqual([]);
    expect(tags.map((t) => [t.key, t.value])).toEqual([
      ['v', 'DMARC1'],
      ['p', 'reject'],
      ['rua', 'mailto:a@example.com'],
    ]);
    const p = tags[1]!;
    expect(text.slice(p.span.start, p.span.end)).toBe('p = reject');
    expect(text.slice(p.nameSpan.start, p.nameSpan.end)).toBe('p');
    expect(text.slice(p.valueSpan.start, p.valueSpan.end)).toBe('reject');
    const rua = tags[2]!;
    expect(text.slice(rua.valueSpan.start, rua.valueSpan.end)).toBe('mailto:a@example.com');
  });

  it('keeps the name as written and a lower-case key', () => {
    const { tags } = tagsOf('v=DMARC1; P=reject');
    expect(tags[1]).toMatchObject({ name: 'P', key: 'p', value: 'reject' });
  });

  it('accepts a trailing separator without a finding', () => {
    expect(tagsOf('v=DMARC1; p=none;').diagnostics).toEqual([]);
    expect(tagsOf('v=DMARC1; p=none; ').diagnostics).toEqual([]);
  });

  it('warns about an empty tag between two separators', () => {
    const text = 'v=DMARC1;; p=none';
    const finding = tagsOf(text).diagnostics[0]!;
    expect(finding).toMatchObject({ severity: 'warning', code: 'DMARC_EMPTY_TAG' });
  });

  it.each([
    ['v=DMARC1; p', "'p' has no '='"],
    ['v=DMARC1; p=', 'The tag p has no value'],
    ['v=DMARC1; =none', "has no tag name before '='"],
    ['v=DMARC1; p1=none', "'p1' is not a tag name"],
    ['v=DMARC1; p=none\n', 'contains a line break'],
    ['v=DMARC1; p=nöne', "contains 'ö' (U+00F6)"],
  ])('reports the syntax error in %j at its position', (text, message) => {
    const { diagnostics } = tagsOf(text);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'DMARC_SYNTAX', requirement: 'MUST' });
    expect(diagnostics[0]!.message).toContain(message);
    const span = diagnostics[0]!.span!;
    expect(span.start).toBeGreaterThanOrEqual(10);
    expect(span.end).toBeLessThanOrEqual(text.length);
  });

  it('reports a duplicate tag at the second occurrence', () => {
    const text = 'v=DMARC1; p=reject; P=none';
    const { diagnostics, tags } = tagsOf(text);
    expect(tags).toHaveLength(3);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'DMARC_DUPLICATE_TAG',
        severity: 'error',
        span: { start: 20, end: 26 },
      }),
    ]);
  });

  it.each([
    ['', 'empty', 'DMARC_NOT_DMARC'],
    ['  ', 'empty', 'DMARC_NOT_DMARC'],
    [' v=DMARC1; p=none', 'leading-whitespace', 'DMARC_NOT_DMARC'],
    ['v=spf1 include:_spf.example.com -all', 'spf', 'DMARC_SPF_RECORD'],
    ['v=dmarc1; p=none', 'version-case', 'DMARC_NOT_DMARC'],
    ['v=DMARC2; p=none', 'version-value', 'DMARC_NOT_DMARC'],
    ['v=DMARC1 p=none', 'missing-separator', 'DMARC_NOT_DMARC'],
    ['p=none; v=DMARC1', 'version-not-first', 'DMARC_NOT_DMARC'],
    ['some unrelated text', 'no-version', 'DMARC_NOT_DMARC'],
  ])('says why %j is not a DMARC record', (text, reason, code) => {
    const result = parseDmarcRecord(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe(reason);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code, requirement: 'MUST' }),
    ]);
  });
});

describe('readDmarcTxtInput', () => {
  it('joins zone-file quoted strings without a separator', () => {
    expect(readDmarcTxtInput('"v=DMARC1; p=re" "ject; rua=mailto:a@example.com"')).toEqual({
      text: 'v=DMARC1; p=reject; rua=mailto:a@example.com',
      strings: ['v=DMARC1; p=re', 'ject; rua=mailto:a@example.com'],
      quoted: true,
    });
  });

  it('reads escapes inside quoted strings', () => {
    expect(readDmarcTxtInput('"v=DMARC1\\; p=none"').text).toBe('v=DMARC1; p=none');
    expect(readDmarcTxtInput('"v=DMARC1;\\032p=none"').text).toBe('v=DMARC1; p=none');
  });

  it('takes anything else as written', () => {
    expect(readDmarcTxtInput('v=DMARC1; p=none')).toEqual({
      text: 'v=DMARC1; p=none',
      strings: ['v=DMARC1; p=none'],
      quoted: false,
    });
    expect(readDmarcTxtInput('"v=DMARC1; p=none" trailing').quoted).toBe(false);
  });
});
