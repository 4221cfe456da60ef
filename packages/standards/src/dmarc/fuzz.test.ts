import { describe, expect, it } from 'vitest';
import { createRng } from '../core/seeded-random.ts';
import { parseDmarcRecord, readDmarcTxtInput } from './parse.ts';
import { dmarcParsedSchema } from './schema.ts';
import { analyzeDmarcRecord, validateDmarcRecord } from './validate.ts';

/** Seeded picks, so a failure can be replayed from its seed and index. */
function prng(seed: number) {
  const next = createRng(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

const seeds = [
  'v=DMARC1; p=none; rua=mailto:dmarc@example.com',
  'v=DMARC1; p=reject; sp=quarantine; np=reject; adkim=s; aspf=s; psd=n; t=y; rua=mailto:a@example.com,mailto:b@example.net!10m; ruf=mailto:f@example.com; fo=1:d:s',
  'v=DMARC1; p=quarantine; pct=50; ri=3600; rf=afrf; rua=mailto:r@example.org',
  'v = DMARC1 ; p = reject ; rua = mailto:r@example.com , https://collector.example/x',
  'v=DMARC1;p=ReJect;',
  'v=spf1 include:_spf.example.com -all',
];
const tokens = [
  'v',
  'V',
  '=',
  'DMARC1',
  'dmarc1',
  ';',
  ';;',
  ' ',
  '\t',
  ',',
  ':',
  '!',
  '!10m',
  '%2C',
  '%',
  '%zz',
  'p',
  'sp',
  'np',
  'adkim',
  'aspf',
  'fo',
  'rua',
  'ruf',
  'psd',
  't',
  'pct',
  'ri',
  'rf',
  'none',
  'quarantine',
  'reject',
  'r',
  's',
  'y',
  'n',
  'u',
  '0',
  '1',
  'd',
  '100',
  '-1',
  '4294967296',
  'afrf',
  'iodef',
  'mailto:',
  'https://',
  'a@example.com',
  '@',
  'example.com',
  '"',
  '\\',
  '\n',
  '\r',
  '\u0000',
  'é',
  '😀',
  '\u202e',
  'x'.repeat(70),
  '.',
  '..',
  '_dmarc',
  '[::1]',
];
const characters = ' \t;=,:!@%."\\abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\u00e9\u200b';

function randomRecord(random: ReturnType<typeof prng>): string {
  const parts: string[] = random.next() < 0.6 ? ['v=DMARC1'] : [];
  const count = random.int(24);
  for (let i = 0; i < count; i++) {
    parts.push(random.next() < 0.8 ? random.pick(tokens) : random.pick([...characters]));
  }
  return parts.join(random.next() < 0.5 ? '' : random.pick([';', ' ', '; ', '=']));
}

function mutate(random: ReturnType<typeof prng>, text: string): string {
  let out = text;
  const rounds = 1 + random.int(4);
  for (let i = 0; i < rounds; i++) {
    const at = random.int(out.length + 1);
    switch (random.int(7)) {
      case 0: // delete a run
        out = out.slice(0, at) + out.slice(at + 1 + random.int(6));
        break;
      case 1: // insert a token
        out = out.slice(0, at) + random.pick(tokens) + out.slice(at);
        break;
      case 2: // replace a character
        out = out.slice(0, at) + random.pick([...characters]) + out.slice(at + 1);
        break;
      case 3: // duplicate a tag
        out = `${out}; ${out.split(';')[random.int(out.split(';').length)] ?? ''}`;
        break;
      case 4: // shuffle the tags
        out = out
          .split(';')
          .map((tag) => ({ tag, key: random.next() }))
          .sort((a, b) => a.key - b.key)
          .map(({ tag }) => tag)
          .join(';');
        break;
      case 5: // truncate
        out = out.slice(0, at);
        break;
      default: // repeat a run to make it long
        out = out.slice(0, at) + out.slice(at, at + 8).repeat(1 + random.int(40)) + out.slice(at);
    }
  }
  return out;
}

describe('DMARC parser and validator under fuzzing', () => {
  it('survive 10,000 random and mutated records with consistent results', { timeout: 60_000 }, () => {
    const random = prng(0x00d4a2c1);
    const verdicts = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const text = i % 2 === 0 ? randomRecord(random) : mutate(random, random.pick(seeds));
      const context = `case ${i}: ${JSON.stringify(text)}`;
      const parse = parseDmarcRecord(text);
      const current = analyzeDmarcRecord(text, 'RFC 9989');
      const legacy = analyzeDmarcRecord(text, 'RFC 7489');
      const result = validateDmarcRecord(readDmarcTxtInput(text).text);
      verdicts.add(current.verdict);

      expect(parse.ok, context).toBe(current.verdict !== 'not-dmarc');
      expect(legacy.verdict === 'not-dmarc', context).toBe(current.verdict === 'not-dmarc');
      expect(result.valid, context).toBe(result.errors.length === 0);
      for (const diagnostic of [...current.diagnostics, ...legacy.diagnostics]) {
        if (diagnostic.span === undefined) continue;
        expect(diagnostic.span.start, context).toBeGreaterThanOrEqual(0);
        expect(diagnostic.span.end, context).toBeLessThanOrEqual(text.length);
        expect(diagnostic.span.start, context).toBeLessThanOrEqual(diagnostic.span.end);
      }
      if (current.parsed !== undefined) {
        expect(current.parsed.tags[0]?.key, context).toBe('v');
        // every parsed result is what the API schema promises (checked on a sample: it is the slow part)
        if (i % 10 === 1) {
          const full = { ...current.parsed, verdicts: { rfc9989: current.verdict, rfc7489: legacy.verdict } };
          expect(dmarcParsedSchema.safeParse(full).success, context).toBe(true);
        }
      }
    }
    // the corpus reaches every verdict, so the run exercised every path that decides one
    expect([...verdicts].sort()).toEqual(
      ['invalid', 'invalid-p', 'invalid-uri', 'no-policy', 'not-dmarc', 'valid', 'valid-warn'].sort(),
    );
  });
});
