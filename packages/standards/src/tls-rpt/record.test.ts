import { describe, expect, it } from 'vitest';
import { checkTlsRptRecordSet, validateTlsRptRecord } from './record.ts';

describe('validateTlsRptRecord (RFC 8460 §3)', () => {
  it.each([
    ['v=TLSRPTv1; rua=mailto:tlsrpt@example.com', 'valid', []],
    ['v=TLSRPTv1;rua=mailto:reports@example.com;', 'valid', []],
    ['v=TLSRPTv1 ; rua=mailto:a@example.com , https://r.example.com/v1', 'valid', []],
    ['v=TLSRPTv1; rua=https://reporting.example.com/v1/tlsrpt', 'valid', []],
    ['v=TLSRPTv1; rua=mailto:a@example.com; ext.x-1=y', 'valid-warn', ['TLSRPT_UNKNOWN_FIELD']],
    ['v=TLSRPTv1', 'invalid', ['TLSRPT_RUA_MISSING']],
    ['v=TLSRPTv1; RUA=mailto:a@example.com', 'invalid', ['TLSRPT_RUA_MISSING']],
    ['v=tlsrptv1; rua=mailto:a@example.com', 'invalid', ['TLSRPT_VERSION_CASE']],
    ['v=TLSRPTv2; rua=mailto:a@example.com', 'invalid', ['TLSRPT_VERSION_UNKNOWN']],
    ['rua=mailto:a@example.com; v=TLSRPTv1', 'invalid', ['TLSRPT_VERSION_NOT_FIRST']],
    ['v=TLSRPTv1; rua=http://r.example.com/', 'invalid', ['TLSRPT_URI_INVALID']],
    ['v=TLSRPTv1; rua=tlsrpt@example.com', 'invalid', ['TLSRPT_URI_NO_SCHEME']],
    ['v=TLSRPTv1; rua=mailto:nobody', 'invalid', ['TLSRPT_URI_INVALID']],
    ['v=TLSRPTv1; rua=mailto:a@example.com,', 'invalid', ['TLSRPT_URI_NO_SCHEME']],
    ['v=TLSRPTv1; rua=mailto:a@example.com;; x=1', 'invalid', ['TLSRPT_EMPTY_FIELD', 'TLSRPT_UNKNOWN_FIELD']],
    ['\uFEFFv=TLSRPTv1; rua=mailto:a@example.com', 'invalid', ['TLSRPT_BYTE_ORDER_MARK']],
    ['v=TLSRPTv1; rua=mailto:a@example.com; rua=mailto:b@example.com', 'invalid', ['TLSRPT_DUPLICATE_RUA']],
    ['v=TLSRPTv1; rua=mailto:a@example.com; _bad=1', 'invalid', ['TLSRPT_EXTENSION_SYNTAX']],
    ['v=spf1 -all', 'not-tls-rpt', ['TLSRPT_NOT_TLSRPT']],
  ])('%j is %s', (record, verdict, codes) => {
    const result = validateTlsRptRecord(record);
    expect(result.verdict).toBe(verdict);
    expect(result.diagnostics.map((d) => d.code)).toEqual(codes);
    for (const diagnostic of result.diagnostics) {
      expect(diagnostic.rfc).toBe('RFC 8460 §3');
      expect(diagnostic.fix).toBeTruthy();
    }
  });

  it('gives each reporting URI its scheme and span in the record', () => {
    const record = 'v=TLSRPTv1; rua=mailto:a@example.com,https://r.example.com/x';
    const parsed = validateTlsRptRecord(record).parsed;
    expect(parsed?.rua.map((uri) => [uri.scheme, record.slice(uri.span.start, uri.span.end)])).toEqual([
      ['mailto', 'mailto:a@example.com'],
      ['https', 'https://r.example.com/x'],
    ]);
  });
});

describe('checkTlsRptRecordSet (RFC 8460 §3, several TXT records)', () => {
  it.each([
    [[], 'none'],
    [['v=spf1 -all'], 'none'],
    [['v=TLSRPTv1; rua=mailto:a@example.com', 'v=TLSRPTv1; rua=mailto:b@example.com'], 'no-reporting'],
    [['v=TLSRPTv1; rua=mailto:a@example.com', 'unrelated'], 'valid'],
    [['v=TLSRPTv1', 'unrelated'], 'invalid'],
    [['v=TLSRPTv2; rua=mailto:a@example.com'], 'invalid'],
  ])('%j is %s', (records, verdict) => {
    expect(checkTlsRptRecordSet(records).verdict).toBe(verdict);
  });

  it('no record is information, not a MUST: RFC 8460 does not require publishing one', () => {
    const result = checkTlsRptRecordSet([]);
    expect(result.verdict).toBe('none');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'TLSRPT_NO_RECORD',
        severity: 'info',
        fix: expect.stringMatching(/^Publish one to receive reports/),
      }),
    ]);
    expect(result.diagnostics[0]?.requirement).toBeUndefined();
  });
});
