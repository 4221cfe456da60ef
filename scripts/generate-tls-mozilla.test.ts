import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mozillaGuidelines } from '../packages/standards/src/tls/mozilla-guidelines.ts';
import { conformanceDir } from './generate-tls-suites.ts';
import { generateMozillaSource, mozillaFile } from './generate-tls-mozilla.ts';

const dir = conformanceDir();
const source = path.join(dir, 'tls', 'mozilla', 'guidelines-5.8.json');

describe.skipIf(!existsSync(source))('generated Mozilla profiles', () => {
  it('are up to date with the conformance data (node scripts/generate-tls-mozilla.ts)', () => {
    expect(readFileSync(mozillaFile, 'utf8') === generateMozillaSource(dir)).toBe(true);
  });

  it('keep the three profiles with their versions and suite counts (conformance/tls/README.md)', () => {
    expect(mozillaGuidelines.map((p) => [p.name, p.tlsVersions, p.ciphersIana.length])).toEqual([
      ['modern', ['TLSv1.3'], 0],
      ['intermediate', ['TLSv1.2', 'TLSv1.3'], 6],
      ['old', ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'], 21],
    ]);
    for (const profile of mozillaGuidelines)
      expect(profile.ciphersOpenssl.length, profile.name).toBe(profile.ciphersIana.length);
  });
});
