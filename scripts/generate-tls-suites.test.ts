import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cipherSuites } from '../packages/standards/src/tls/suites.ts';
import { conformanceDir, generateSuitesSource, suitesFile } from './generate-tls-suites.ts';

const dir = conformanceDir();
const present = existsSync(path.join(dir, 'tls', 'cipher-suites-derived.json'));

describe.skipIf(!present)('generated cipher-suite database', () => {
  it('is up to date with the conformance data (node scripts/generate-tls-suites.ts)', () => {
    expect(readFileSync(suitesFile, 'utf8') === generateSuitesSource(dir)).toBe(true);
  });

  it("agrees with testssl's encBits wherever that names a size (compared, never copied)", () => {
    const derived = (
      JSON.parse(readFileSync(path.join(dir, 'tls', 'cipher-suites-derived.json'), 'utf8')) as {
        suites: { value: number; encBits: number | null }[];
      }
    ).suites;
    let compared = 0;
    for (const { value, encBits } of derived) {
      if (encBits === null) continue;
      expect(cipherSuites.find((suite) => suite.code === value)?.keyBits, `0x${value.toString(16)}`).toBe(
        encBits,
      );
      compared++;
    }
    expect(compared).toBe(310);
  });

  it("matches the derived file's Mozilla 6.0 intermediate list (5.8 and 6.0 list the same suites)", () => {
    const derived = (
      JSON.parse(readFileSync(path.join(dir, 'tls', 'cipher-suites-derived.json'), 'utf8')) as {
        suites: { value: number; mozilla60: string[] }[];
      }
    ).suites;
    const expected = derived.filter((s) => s.mozilla60.includes('intermediate')).map((s) => s.value);
    const actual = cipherSuites.filter((s) => s.mozilla.includes('intermediate')).map((s) => s.code);
    expect(actual).toEqual(expected);
  });
});
