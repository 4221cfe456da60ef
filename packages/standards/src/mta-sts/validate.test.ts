import { describe, expect, it } from 'vitest';
import { createRng } from '../core/seeded-random.ts';
import { mxPatternProblem, validateMtaStsPolicy, validateMtaStsRecord } from './validate.ts';

const policy = (...lines: string[]) => lines.map((line) => `${line}\r\n`).join('');
const good = ['version: STSv1', 'mode: enforce', 'mx: mail.example.com', 'max_age: 604800'];

describe('validateMtaStsPolicy (RFC 8461 §3.2, spec part 1 §5 messages)', () => {
  it('accepts the RFC example with no finding', () => {
    const result = validateMtaStsPolicy(policy(...good));
    expect(result).toMatchObject({ valid: true, errors: [], warnings: [], diagnostics: [] });
    expect(result.parsed).toMatchObject({
      mode: 'enforce',
      maxAge: 604800,
      mx: ['mail.example.com'],
      version: 'STSv1',
    });
  });

  it.each([
    ['', 'MTA-STS policy is required'],
    [policy('mode: enforce', 'mx: a.example.com', 'max_age: 86400'), 'version field is required'],
    [
      policy('version: STSv2', 'mode: enforce', 'mx: a.example.com', 'max_age: 86400'),
      'Version must be STSv1',
    ],
    [policy('version: STSv1', 'mx: a.example.com', 'max_age: 86400'), 'mode field is required'],
    [
      policy('version: STSv1', 'mode: strict', 'mx: a.example.com', 'max_age: 86400'),
      'Mode must be enforce, testing, or none',
    ],
    [policy('version: STSv1', 'mode: enforce', 'max_age: 86400'), 'At least one mx field is required'],
    [policy('version: STSv1', 'mode: enforce', 'mx: a.example.com'), 'max_age field is required'],
    [
      policy('version: STSv1', 'mode: enforce', 'mx: a.example.com', 'max_age: -5'),
      'max_age must be a non-negative integer',
    ],
    [
      policy('version: STSv1', 'mode: enforce', 'mx: a.example.com', 'max_age: 31557601'),
      'max_age must be at most 31557600 seconds (about one year)',
    ],
  ])('%j → %s', (text, message) => {
    const result = validateMtaStsPolicy(text);
    expect(result.valid).toBe(false);
    expect(result.errors).toContain(message);
    const diagnostic = result.diagnostics.find((d) => d.message === message);
    expect(diagnostic?.rfc).toMatch(/^RFC 8461 §3\.2$/);
    expect(diagnostic?.fix).toBeTruthy();
  });

  it('points at the line of a bad value and suggests lower case for a mode in capitals', () => {
    const result = validateMtaStsPolicy(
      policy('version: STSv1', 'mode: Enforce', 'mx: a.example.com', 'max_age: 604800'),
    );
    expect(result.diagnostics).toMatchObject([
      { code: 'MTASTS_POLICY_MODE', line: 2, fix: expect.stringContaining('mode: enforce') },
    ]);
  });

  it('gives guidance, not warnings, on testing mode, none and a short max_age', () => {
    const testing = validateMtaStsPolicy(
      policy('version: STSv1', 'mode: testing', 'mx: a.example.com', 'max_age: 3600'),
    );
    expect(testing.valid).toBe(true);
    expect(testing.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ['info', 'MTASTS_POLICY_MODE_TESTING'],
      ['info', 'MTASTS_POLICY_MAX_AGE_SHORT'],
    ]);
    const none = validateMtaStsPolicy(policy('version: STSv1', 'mode: none', 'max_age: 86400'));
    expect(none.diagnostics.map((d) => d.code)).toEqual(['MTASTS_POLICY_MODE_NONE']);
  });

  it.each([
    ['mail*.example.com', 'MTASTS_POLICY_MX_SYNTAX', 'error'],
    ['*.*.example.com', 'MTASTS_POLICY_MX_SYNTAX', 'error'],
    ['mail.*.com', 'MTASTS_POLICY_MX_SYNTAX', 'error'],
    ['192.0.2.1', 'MTASTS_POLICY_MX_SYNTAX', 'error'],
    ['mail_1.example.com', 'MTASTS_POLICY_MX_SYNTAX', 'error'],
    ['mail..example.com', 'MTASTS_POLICY_MX_SYNTAX', 'error'],
    ['mail.example.com.', 'MTASTS_POLICY_MX_TRAILING_DOT', 'warning'],
    ['*.com', 'MTASTS_POLICY_MX_TOO_WIDE', 'warning'],
  ])('mx: %s gives %s (%s)', (pattern, code, severity) => {
    const result = validateMtaStsPolicy(
      policy('version: STSv1', 'mode: enforce', `mx: ${pattern}`, 'max_age: 604800'),
    );
    expect(result.diagnostics).toMatchObject([{ code, severity, line: 3 }]);
  });

  it('accepts a wildcard as the whole left-most label', () => {
    expect(mxPatternProblem('*.mail.example.com')).toBeNull();
    expect(mxPatternProblem('mx1.example.com')).toBeNull();
  });
});

describe('validateMtaStsRecord (RFC 8461 §3.1)', () => {
  it('says a record is required when the text is blank', () => {
    expect(validateMtaStsRecord('  ').errors).toEqual(['MTA-STS record is required']);
  });

  it.each([['\uFEFFv=STSv1; id=abc'], [' \uFEFFv=STSv1; id=abc']])(
    'refuses %j: the byte-order mark stands before v=STSv1 where senders read it',
    (record) => {
      const result = validateMtaStsRecord(record);
      expect(result.valid).toBe(false);
      expect(result.diagnostics.map((d) => d.code)).toEqual(['MTASTS_RECORD_BYTE_ORDER_MARK']);
    },
  );

  it('refuses a policy file saved with a byte-order mark, and reads the rest as usual', () => {
    const result = validateMtaStsPolicy(
      '\uFEFFversion: STSv1\r\nmode: enforce\r\nmx: mx.example.com\r\nmax_age: 604800\r\n',
    );
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['MTASTS_POLICY_BYTE_ORDER_MARK']);
    expect(result.diagnostics[0]).toMatchObject({ line: 1, rfc: 'RFC 8461 §3.2' });
  });

  it('gives the id it read', () => {
    expect(validateMtaStsRecord('v=STSv1; id=20240101120000')).toMatchObject({
      valid: true,
      parsed: { kind: 'record', id: '20240101120000' },
    });
  });
});

describe('every MTA-STS warning and error has a fix (docs/architecture.md §3)', () => {
  it('over seeded edits of good policies and records', () => {
    const rng = createRng(0x8461);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
    const seeds = [
      policy(...good),
      'version: STSv1\nmode: none\nmax_age: 0\n',
      'v=STSv1; id=20240101120000;',
    ];
    const tokens = [
      '\r\n',
      '\n',
      '\r',
      ':',
      ';',
      '=',
      ' ',
      '*',
      '.',
      '#',
      'mx: ',
      'mode: ',
      'max_age: ',
      'id=',
      'v=',
      '-1',
      'é',
    ];
    const missing = new Set<string>();
    for (let n = 0; n < 600; n++) {
      let text = pick(seeds);
      for (let edits = 1 + Math.floor(rng() * 3); edits > 0; edits--) {
        const at = Math.floor(rng() * (text.length + 1));
        text =
          rng() < 0.6
            ? text.slice(0, at) + pick(tokens) + text.slice(at)
            : text.slice(0, at) + text.slice(at + 3);
      }
      for (const result of [validateMtaStsPolicy(text), validateMtaStsRecord(text)]) {
        for (const d of result.diagnostics)
          if (d.severity !== 'info' && (d.fix ?? '').trim() === '') missing.add(`${d.code}: ${d.message}`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
