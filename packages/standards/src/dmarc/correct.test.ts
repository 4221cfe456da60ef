import { describe, expect, it } from 'vitest';
import { createRng } from '../core/seeded-random.ts';
import { correctDmarcRecord } from './correct.ts';
import { analyzeDmarcRecord, validateDmarcRecord } from './validate.ts';

const errorsOf = (record: string) =>
  validateDmarcRecord(record).diagnostics.filter((d) => d.severity === 'error');

describe('correctDmarcRecord', () => {
  // expected records written by hand from RFC 9989 §4.7 and RFC 7489 §6.3, §6.4
  it.each([
    [
      'v=DMARC1; rua=mailto:r@example.com',
      'v=DMARC1; p=none; rua=mailto:r@example.com',
      /Added p=none.*§6\.3/,
    ],
    ['v=DMARC1; p=block', 'v=DMARC1; p=none', /Replaced p=block with p=none/],
    ['v=DMARC1; p=reject; pct=150', 'v=DMARC1; p=reject', /Removed pct=150/],
    ['v=DMARC1; p=none; rua=dmarc@example.com', 'v=DMARC1; p=none; rua=mailto:dmarc@example.com', /mailto:/],
    ['v=DMARC1; p=quarantine; adkim=x', 'v=DMARC1; p=quarantine', /default adkim=r/],
    ['v=DMARC1; p=none; foo=bar', 'v=DMARC1; p=none', /not a DMARC tag/],
    ['v=DMARC1; p=none; p=reject', 'v=DMARC1; p=none', /only the first p= counts/],
    [
      'v=DMARC1; rua=mailto:r@example.com; p=reject',
      'v=DMARC1; p=reject; rua=mailto:r@example.com',
      /RFC 7489 §6\.4/,
    ],
    ['v=DMARC1; P=reject', 'v=DMARC1; p=reject', /lower case/],
  ])('%s → %s', (input, expected, why) => {
    const corrected = correctDmarcRecord(input);
    expect(corrected?.record).toBe(expected);
    expect(corrected?.changes.join('\n')).toMatch(why);
    expect(errorsOf(expected)).toEqual([]);
  });

  it.each(['v=DMARC1; p=reject; rua=mailto:r@example.com', 'v=spf1 -all', ''])(
    'offers nothing for %j',
    (input) => {
      expect(correctDmarcRecord(input)).toBeUndefined();
    },
  );

  it('gives records that validate without errors under both RFCs, over mutated records', () => {
    const rng = createRng(7489);
    const seeds = [
      'v=DMARC1; p=reject; rua=mailto:a@example.com',
      'v=DMARC1; p=none; sp=quarantine; pct=50; fo=1',
    ];
    const tokens = [
      ';',
      ' ',
      '=',
      'p',
      'sp',
      'pct',
      'rua',
      'x',
      '200',
      'a@b.example',
      'foo',
      'P',
      'reject',
      'adkim',
    ];
    let offered = 0;
    for (let n = 0; n < 3000; n++) {
      let text = seeds[Math.floor(rng() * seeds.length)]!;
      const at = 9 + Math.floor(rng() * (text.length - 8));
      text =
        text.slice(0, at) +
        tokens[Math.floor(rng() * tokens.length)]! +
        text.slice(at + Math.floor(rng() * 3));
      const corrected = correctDmarcRecord(text);
      if (corrected === undefined) continue;
      offered += 1;
      expect(errorsOf(corrected.record)).toEqual([]);
      expect(analyzeDmarcRecord(corrected.record, 'RFC 9989').verdict).not.toBe('not-dmarc');
    }
    expect(offered).toBeGreaterThan(100);
  });
});
