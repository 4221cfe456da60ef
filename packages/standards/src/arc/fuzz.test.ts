// Random and mutated ARC header blocks through the parser: it never throws, every diagnostic is
// well formed with its span inside the input, and a structure failure always comes with an
// error diagnostic that says it.
import { describe, expect, it } from 'vitest';
import { createRng } from '../core/seeded-random.ts';
import { parseArcHeaders } from './parse.ts';

const base = [
  'ARC-Seal: i=2; a=rsa-sha256; cv=pass; d=example.org; s=sel; t=12346; b=dGVzdA==',
  'ARC-Message-Signature: i=2; a=rsa-sha256; c=relaxed/relaxed; d=example.org; s=sel;',
  ' h=from:to; bh=dGVzdA==; b=dGVzdA==',
  'ARC-Authentication-Results: i=2; mx.example.org; arc=pass (comment; here) spf=pass',
  'ARC-Seal: i=1; a=ed25519-sha256; cv=none; d=example.org; s=sel; b=dGVzdA==',
  'ARC-Message-Signature: i=1; a=rsa-sha256; d=example.org; s=sel; h=from; bh=dGVzdA==; b=dGVzdA==',
  'ARC-Authentication-Results: i=1; mx.example.org; "quoted;x" spf=pass',
  'From: a@example.org',
  '',
  'body',
].join('\r\n');

const pieces = [
  '',
  ';',
  '=',
  ' ',
  '\t',
  '\r\n',
  '\n',
  '\r\n ',
  'i=',
  'i=1',
  'i=51',
  'i=99',
  'cv=',
  'cv=fail',
  'a=rsa-sha1',
  'h=arc-seal',
  ':',
  '(',
  ')',
  '"',
  '\\',
  'ARC-Seal:',
  'arc-message-signature: ',
  'ARC-Authentication-Results: i=',
  '\u0000',
  '\u00e9',
  '\ud800',
  'b=',
  '==',
];

function check(input: string): void {
  const result = parseArcHeaders(input);
  for (const d of result.diagnostics) {
    expect(typeof d.code).toBe('string');
    expect(d.code).toMatch(/^ARC_[A-Z0-9_]+$/);
    expect(d.message.length).toBeGreaterThan(0);
    if (d.span) {
      expect(d.span.start).toBeGreaterThanOrEqual(0);
      expect(d.span.end).toBeLessThanOrEqual(input.length);
      expect(d.span.start).toBeLessThanOrEqual(d.span.end);
    }
  }
  if (result.structure) expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  for (const set of result.sets) expect(set.instance).toBeGreaterThanOrEqual(1);
}

describe('parseArcHeaders fuzz', () => {
  it('survives 3000 mutations of a valid chain', { timeout: 60_000 }, () => {
    const next = createRng(8617);
    for (let round = 0; round < 3000; round++) {
      const chars = [...base];
      const edits = 1 + Math.floor(next() * 8);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(next() * (chars.length + 1));
        chars.splice(at, Math.floor(next() * 4), pieces[Math.floor(next() * pieces.length)]!);
      }
      check(chars.join(''));
    }
  });

  it('survives 1000 blocks of random ARC-looking lines', { timeout: 60_000 }, () => {
    const next = createRng(6376);
    for (let round = 0; round < 1000; round++) {
      const lines: string[] = [];
      const count = Math.floor(next() * 12);
      for (let l = 0; l < count; l++) {
        let line = '';
        const length = Math.floor(next() * 10);
        for (let p = 0; p < length; p++) line += pieces[Math.floor(next() * pieces.length)];
        lines.push(line);
      }
      check(lines.join(next() < 0.5 ? '\r\n' : '\n'));
    }
  });
});
