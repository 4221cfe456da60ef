import { describe, expect, it } from 'vitest';
import { createFixtureResolver } from '../core/fixture-resolver.ts';
import { checkHost } from './evaluate.ts';
import { createRng } from '../core/seeded-random.ts';
import { fuzzZones, generateSpfRecord, mutateSpfRecord } from './fuzz-records.ts';
import { parseSpfRecord } from './parse.ts';
import { spfResults } from './record.ts';
import { checkTxtAnswerSize, selectSpfRecords } from './record-selection.ts';
import { spfCheckResultSchema } from './schema.ts';

const CASES = 10_000;

// Hand-written seeds in the shapes the RFC 7208 suite exercises, to mutate alongside generated ones
const SEEDS = [
  'v=spf1 mx a:host.example.com ip4:192.0.2.0/24 ip6:2001:db8::/32 include:inc1.example.com -all',
  'v=spf1 a/24//64 mx:example.com/24 ptr:example.com exists:%{ir}.%{v}.host.example.com ~all',
  'v=spf1 redirect=%{d2}. exp=%{l}.%{o}.example.com',
  'v=spf1 -include:inc2.example.com ip4:1.2.3.4 ?all moo.cow-far_out=man:dog/cat',
  'v=spf1 exists:%{l2r+-}.user.%{d2} a:macro%%percent%_%_space%-url-space.example.com -all',
  'v=spf1 include:loop.example.com include:slow.example.com include:broken.example.com -all',
  'v=spf1 a:missing.example.com mx:missing.example.com exists:missing.example.com ptr ?all',
  'v=spf1 ip4:192.0.2.10 -all exp=exp.example.com exp=exp2.example.com',
];

/** The invariants every record must keep, whatever it holds. */
function checkParse(record: string) {
  const parsed = parseSpfRecord(record);
  for (const d of parsed.diagnostics) {
    expect(['error', 'warning', 'info']).toContain(d.severity);
    if (d.span !== undefined) {
      expect(d.span.start).toBeGreaterThanOrEqual(0);
      expect(d.span.end).toBeLessThanOrEqual(record.length);
      expect(d.span.start).toBeLessThanOrEqual(d.span.end);
    }
  }
  if (parsed.record !== undefined) {
    for (const term of parsed.record.terms)
      expect(record.slice(term.span.start, term.span.end)).toBe(term.text);
    // every error but the lookup count (known only when evaluation gets that far) stops evaluation
    const stopping = parsed.diagnostics.filter(
      (d) => d.severity === 'error' && d.code !== 'SPF_LOOKUP_LIMIT',
    );
    expect(parsed.record.permerror, record).toBe(stopping.length > 0);
  }
  checkTxtAnswerSize('example.com', [record]);
  selectSpfRecords('example.com', [record, [record.slice(0, 7), record.slice(7)]]);
}

describe('fuzzing the SPF parser and evaluator', () => {
  it(`keeps its invariants over ${CASES} random and mutated records`, { timeout: 60_000 }, async () => {
    const rng = createRng(7208);
    const corpus = [...SEEDS];
    const seen = new Set<string>();
    for (let n = 0; n < CASES; n++) {
      const record =
        n % 2 === 0
          ? generateSpfRecord(rng)
          : mutateSpfRecord(rng, corpus[Math.floor(rng() * corpus.length)] ?? '');
      if (n % 50 === 0) corpus.push(record);
      seen.add(record);
      checkParse(record);
      const resolver = createFixtureResolver(
        fuzzZones(record, [generateSpfRecord(rng), mutateSpfRecord(rng, record)]),
      );
      const ip = n % 3 === 0 ? '2001:db8::10' : '192.0.2.10';
      const outcome = await checkHost(
        { ip, sender: n % 7 === 0 ? '' : 'user@example.com', helo: 'host.example.com' },
        { resolver, timeoutMs: 5_000 },
      );
      expect(spfResults).toContain(outcome.result);
      expect(outcome.lookups).toBeLessThanOrEqual(11);
      expect(outcome.voidLookups).toBeLessThanOrEqual(3);
      // 10 terms of at most 11 queries each, the records, %{p} and exp= stay far below this
      expect(resolver.queries.length).toBeLessThan(300);
      if (n % 500 === 0)
        expect(spfCheckResultSchema.parse(JSON.parse(JSON.stringify(outcome)))).toEqual(outcome);
    }
    // the generator and mutator really vary their output
    expect(seen.size).toBeGreaterThan(CASES * 0.9);
  });
});
