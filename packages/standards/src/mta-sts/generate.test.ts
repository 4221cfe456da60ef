import { describe, expect, it } from 'vitest';
import { generateMtaSts, mtaStsIdFromDate } from './generate.ts';
import { validateMtaStsPolicy, validateMtaStsRecord } from './validate.ts';

const now = new Date('2026-03-04T05:06:07.890Z');

describe('generateMtaSts', () => {
  it('writes the record, the CRLF policy and the hosting steps (RFC 8461 §3.1-3.3)', () => {
    const outcome = generateMtaSts(
      {
        domain: 'Example.COM.',
        mode: 'enforce',
        mx: ['mx1.example.com', '', ' *.backup.example.com '],
        maxAge: 604800,
      },
      now,
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { record, policy, hosting } = outcome.result;
    expect(record).toEqual({
      name: '_mta-sts.example.com',
      type: 'TXT',
      value: 'v=STSv1; id=20260304050607',
      id: '20260304050607',
    });
    expect(policy).toEqual({
      host: 'mta-sts.example.com',
      url: 'https://mta-sts.example.com/.well-known/mta-sts.txt',
      contentType: 'text/plain',
      text: 'version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: *.backup.example.com\r\nmax_age: 604800\r\n',
    });
    expect(hosting.join(' ')).toContain('certificate');
    expect(hosting.join(' ')).toContain('text/plain');
    expect(validateMtaStsPolicy(policy.text).valid).toBe(true);
    expect(validateMtaStsRecord(record.value).valid).toBe(true);
  });

  it('uses a counter the user gives as the id', () => {
    const outcome = generateMtaSts(
      { domain: 'example.com', mode: 'none', mx: [], maxAge: 86400, id: '42' },
      now,
    );
    expect(outcome.ok && outcome.result.record.value).toBe('v=STSv1; id=42');
    expect(outcome.ok && outcome.result.diagnostics.map((d) => d.code)).toEqual(['MTASTS_POLICY_MODE_NONE']);
  });

  it.each([
    [{ domain: '' }, 'Domain is required'],
    [{ mx: [] }, 'At least one mx field is required'],
    [
      { mx: ['mail*.example.com'] },
      "'mail*.example.com': '*' may only stand as the whole left-most label, as in *.example.com",
    ],
    [{ id: 'a_b' }, 'The id is 1 to 32 letters or digits'],
  ])('refuses %j', (change, error) => {
    const input = {
      domain: 'example.com',
      mode: 'enforce' as const,
      mx: ['mx.example.com'],
      maxAge: 604800,
      ...change,
    };
    expect(generateMtaSts(input, now)).toEqual({ ok: false, error });
  });

  it('makes the id from the UTC date and time', () => {
    expect(mtaStsIdFromDate(new Date('1999-12-31T23:59:59Z'))).toBe('19991231235959');
  });
});
