import { describe, expect, it } from 'vitest';
import { parseMtaStsPolicy, parseMtaStsRecord, selectMtaStsRecord } from './parse.ts';

const codes = (diagnostics: { code: string }[]) => diagnostics.map((d) => d.code);

describe('parseMtaStsRecord (RFC 8461 §3.1)', () => {
  it('reads the RFC example with its places in the input', () => {
    const input = 'v=STSv1; id=20160831085700Z;';
    const parsed = parseMtaStsRecord(input);
    expect(parsed).toMatchObject({ kind: 'mta-sts', id: '20160831085700Z', diagnostics: [] });
    expect(parsed.fields.map((f) => input.slice(f.span.start, f.span.end))).toEqual([
      'v=STSv1',
      'id=20160831085700Z',
    ]);
  });

  it('takes off zone-file quotes and keeps spans pointing into the input', () => {
    const input = '  "v=STSv1; id=abc"';
    const parsed = parseMtaStsRecord(input);
    expect(parsed.id).toBe('abc');
    const id = parsed.fields[1];
    expect(id && input.slice(id.span.start, id.span.end)).toBe('id=abc');
  });

  it.each([
    ['v=STSv1;id=1', [], '1'],
    ['v=STSv1; id=abc; xyz=foo', ['MTASTS_RECORD_UNKNOWN_FIELD'], 'abc'],
    ['v=STSv1', ['MTASTS_RECORD_ID_MISSING'], null],
    ['v=STSv1; id=', ['MTASTS_RECORD_ID_SYNTAX'], null],
    ['v=STSv1; id=abc_123', ['MTASTS_RECORD_ID_SYNTAX'], null],
    ['v=STSv1; id=' + 'a'.repeat(33), ['MTASTS_RECORD_ID_SYNTAX'], null],
    ['v=STSv1; id=foo; id=bar', ['MTASTS_RECORD_DUPLICATE_ID'], null],
    ['v=STSv1;; id=1', ['MTASTS_RECORD_EMPTY_FIELD'], '1'],
    ['v=STSv1; id=1 2', ['MTASTS_RECORD_ID_SYNTAX'], null],
    ['v=STSv1; id=1; novalue', ['MTASTS_RECORD_FIELD_SYNTAX'], '1'],
    ['v=STSv1; id=1; ext=a b', ['MTASTS_RECORD_EXTENSION_SYNTAX'], '1'],
    ['V=STSv1; id=1', ['MTASTS_RECORD_VERSION'], null],
    ['v=spf1 -all', ['MTASTS_RECORD_NOT_STS'], null],
  ])('%s gives %j', (input, expected, id) => {
    const parsed = parseMtaStsRecord(input);
    expect(codes(parsed.diagnostics)).toEqual(expected);
    expect(parsed.id).toBe(id);
  });

  it('keeps one v=STSv1 record and discards the rest; two mean no policy', () => {
    expect(selectMtaStsRecord(['v=STSv1; id=1', 'some other text'])).toEqual({
      outcome: 'record',
      record: 'v=STSv1; id=1',
      discarded: ['some other text'],
    });
    expect(selectMtaStsRecord(['v=STSv1; id=1', 'v=STSv1; id=2']).outcome).toBe('multiple');
    expect(selectMtaStsRecord(['v=spf1 -all']).outcome).toBe('none');
    expect(selectMtaStsRecord(['v=STSv10; id=1']).outcome).toBe('none');
  });
});

describe('parseMtaStsPolicy (RFC 8461 §3.2)', () => {
  it('reads the fields with their lines, CRLF or LF', () => {
    for (const end of ['\r\n', '\n']) {
      const parsed = parseMtaStsPolicy(
        [
          'version: STSv1',
          'mode: enforce',
          'mx: mail.example.com',
          'mx: *.example.net',
          'max_age: 604800',
          '',
        ].join(end),
      );
      expect(parsed).toMatchObject({ version: 'STSv1', mode: 'enforce', maxAge: '604800', diagnostics: [] });
      expect(parsed.mx).toEqual([
        { pattern: 'mail.example.com', line: 3 },
        { pattern: '*.example.net', line: 4 },
      ]);
    }
  });

  it('uses the first of a repeated non-mx field and warns', () => {
    const parsed = parseMtaStsPolicy('version: STSv1\r\nmode: enforce\r\nmode: testing\r\n');
    expect(parsed.mode).toBe('enforce');
    expect(parsed.diagnostics).toMatchObject([{ code: 'MTASTS_POLICY_DUPLICATE_FIELD', line: 3 }]);
  });

  it.each([
    ['badkey: badvalue', 'MTASTS_POLICY_UNKNOWN_FIELD'],
    ['not_a_pair', 'MTASTS_POLICY_LINE_SYNTAX'],
    ['mode : enforce', 'MTASTS_POLICY_LINE_SYNTAX'],
    ['# a comment', 'MTASTS_POLICY_COMMENT'],
    ['', 'MTASTS_POLICY_BLANK_LINE'],
  ])('line %j gives %s on line 2', (line, code) => {
    const parsed = parseMtaStsPolicy(`version: STSv1\r\n${line}\r\nmode: none\r\n`);
    expect(parsed.diagnostics).toMatchObject([{ code, line: 2 }]);
  });

  it('flags a lone carriage return', () => {
    expect(codes(parseMtaStsPolicy('version: STSv1\rmode: none\r\n').diagnostics)).toContain(
      'MTASTS_POLICY_LINE_ENDINGS',
    );
  });
});
