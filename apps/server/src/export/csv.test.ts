import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [42, '42'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['two\r\nlines', '"two\r\nlines"'],
    // formula starters get a leading quote (and quoting when they also need it)
    ['=1+1', "'=1+1"],
    ['+44 20 7946 0000', "'+44 20 7946 0000"],
    ['-2', "'-2"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tindent', "'\tindent"],
    ['\rreturn', '"\'\rreturn"'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    // only the start counts
    ['a=b', 'a=b'],
    ['::1', '::1'],
    ["'quoted", "'quoted"],
  ])('%j → %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });
});

describe('csvRow', () => {
  it('joins cells with commas and ends the record with CRLF', () => {
    expect(csvRow(['a', 'b,c', null, '=x'])).toBe('a,"b,c",,\'=x\r\n');
  });
});
