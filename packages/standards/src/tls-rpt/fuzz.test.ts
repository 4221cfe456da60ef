import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../core/diagnostic.ts';
import { createRng, type Rng } from '../core/seeded-random.ts';
import { validateTlsRptRecord } from './record.ts';
import { readTlsRptReport } from './report.ts';
import { buildTlsRptSampleReport } from './sample.ts';

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

/** Seeded edits of a text: a character dropped, doubled or replaced by one of `alphabet`. */
function mutate(rng: Rng, text: string, alphabet: string): string {
  let out = text;
  const edits = 1 + Math.floor(rng() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rng() * Math.max(out.length, 1));
    const kind = Math.floor(rng() * 3);
    if (kind === 0) out = out.slice(0, at) + out.slice(at + 1);
    else if (kind === 1) out = out.slice(0, at) + out.charAt(at) + out.slice(at);
    else out = out.slice(0, at) + pick(rng, [...alphabet]) + out.slice(at + 1);
  }
  return out;
}

/** Every warning and error says how to fix it and where the RFC says so. */
function unexplained(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics
    .filter((d) => d.severity !== 'info' && (!d.fix || !d.rfc))
    .map((d) => `${d.code}: ${d.message}`);
}

describe('TLS-RPT checks over seeded mutations', () => {
  it('records: never throw, every finding has a fix and a section', () => {
    const rng = createRng(8460);
    const seeds = [
      'v=TLSRPTv1; rua=mailto:tlsrpt@example.com',
      'v=TLSRPTv1;rua=mailto:a@example.com,https://r.example.com/v1;ext=1',
    ];
    for (let i = 0; i < 500; i++) {
      const record = mutate(rng, pick(rng, seeds), ';=,: v@xR%!\t');
      const result = validateTlsRptRecord(record);
      expect(unexplained(result.diagnostics), record).toEqual([]);
      expect(result.valid).toBe(result.errors.length === 0);
    }
  });

  it('reports: never throw, every finding has a fix and a section', () => {
    const rng = createRng(4);
    const sample = JSON.stringify(
      buildTlsRptSampleReport({
        domain: 'example.com',
        policy: { type: 'sts', strings: [], mxHosts: ['mx.example.com'] },
        now: new Date('2026-01-02T00:00:00Z'),
        reportId: 'r1',
      }),
    );
    for (let i = 0; i < 300; i++) {
      const text = mutate(rng, sample, '{}[]",:0-9aZ ');
      const result = readTlsRptReport(text);
      expect(unexplained(result.diagnostics), text).toEqual([]);
    }
  });
});
