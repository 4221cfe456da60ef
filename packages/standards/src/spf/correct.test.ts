import { describe, expect, it } from 'vitest';
import { createRng } from '../core/seeded-random.ts';
import { correctSpfRecord } from './correct.ts';
import { generateSpfRecord, mutateSpfRecord } from './fuzz-records.ts';
import { parseSpfRecord } from './parse.ts';

describe('correctSpfRecord', () => {
  // expected records written by hand from RFC 7208 §4.6, §5.1, §5.5, §6 and §6.1
  it.each([
    [
      'v=spf1 ip4:300.1.1.1 ip4:192.0.2.0/24 -all',
      'v=spf1 ip4:192.0.2.0/24 -all',
      /'ip4:300\.1\.1\.1'.*§4\.6/,
    ],
    ['v=spf1 mx -all -all', 'v=spf1 mx -all', /after '-all'.*§5\.1/],
    ['v=spf1 ptr a ~all', 'v=spf1 a ~all', /ptr SHOULD NOT.*§5\.5/],
    ['v=spf1 a redirect=_spf.example.com -all', 'v=spf1 a -all', /ignored.*§6\.1/],
    ['v=spf1 a redirect=a.example redirect=b.example', 'v=spf1 a redirect=a.example', /may appear once.*§6/],
    [
      'v=spf1 include: ip6:2001:db8::/32 ~all',
      'v=spf1 ip6:2001:db8::/32 ~all',
      /the domain after ':' or '=' is empty/,
    ],
    ['v=spf1 ip4:192.0.2.1/33 -all', 'v=spf1 -all', /out of range/],
  ])('%s → %s', (input, expected, why) => {
    const corrected = correctSpfRecord(input);
    expect(corrected?.record).toBe(expected);
    expect(corrected?.changes.join('\n')).toMatch(why);
    expect(parseSpfRecord(expected).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it.each([
    'v=spf1 ip4:192.0.2.0/24 -all',
    'v=spf1 +all',
    'not an spf record',
    // the lookup limit is not a term to remove: no mechanical fix
    `v=spf1 ${Array.from({ length: 11 }, (_, i) => `include:s${i}.example.com`).join(' ')} -all`,
  ])('offers nothing for %s', (input) => {
    expect(correctSpfRecord(input)).toBeUndefined();
  });

  it('gives records that parse without errors, over generated and mutated records', () => {
    const rng = createRng(7208);
    let offered = 0;
    for (let n = 0; n < 3000; n++) {
      const corrected = correctSpfRecord(mutateSpfRecord(rng, generateSpfRecord(rng)));
      if (corrected === undefined) continue;
      offered += 1;
      expect(corrected.changes.length).toBeGreaterThan(0);
      expect(parseSpfRecord(corrected.record).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
    expect(offered).toBeGreaterThan(100);
  });
});
