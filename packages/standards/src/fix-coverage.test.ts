/**
 * Every warning and error a check reports tells the admin how to fix it (docs/architecture.md §3:
 * a Diagnostic has a `fix`). The producers of every tool are run over well-formed inputs, their
 * seeded mutations and the broken cases of the unit tests, and any finding without a fix is
 * listed by code. The conformance vectors are run the same way in conformance/suites/fixes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from './core/diagnostic.ts';
import { createFixtureResolver } from './core/fixture-resolver.ts';
import { createRng, type Rng } from './core/seeded-random.ts';
import { parseArcHeaders } from './arc/parse.ts';
import { validateDkimRecord } from './dkim/validate.ts';
import { checkDmarc } from './dmarc/check.ts';
import { analyzeDmarcRecord, validateDmarcRecord } from './dmarc/validate.ts';
import { validateDnskey } from './dnskey/validate.ts';
import { gradeHeaderBlock, HttpHeadersGradeError } from './http-headers/grade.ts';
import { parseHeaderBlock } from './http-headers/parse.ts';
import { validateSecurityTxt } from './security-txt/validate.ts';
import { fuzzZones, generateSpfRecord, mutateSpfRecord } from './spf/fuzz-records.ts';
import { lintSpf } from './spf/lint.ts';
import { parseSpfRecord } from './spf/parse.ts';

/** `code: message` of each warning or error without a fix. */
function findingsWithoutFix(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics
    .filter((d) => d.severity !== 'info' && (d.fix === undefined || d.fix.trim() === ''))
    .map((d) => `${d.code}: ${d.message}`);
}

/** Seeded edits of a well-formed input: tokens inserted, removed or replaced, characters dropped. */
function mutations(rng: Rng, seeds: readonly string[], tokens: readonly string[], count: number): string[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    let text = pick(seeds);
    for (let edits = 1 + Math.floor(rng() * 3); edits > 0; edits--) {
      const at = Math.floor(rng() * (text.length + 1));
      const roll = rng();
      if (roll < 0.4) text = text.slice(0, at) + pick(tokens) + text.slice(at);
      else if (roll < 0.7) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(rng() * 6));
      else text = text.slice(0, at) + pick(tokens) + text.slice(at + Math.floor(rng() * 6));
    }
    out.push(text);
  }
  return out;
}

/** Missing fixes by code, with one example message each, so a failure names what to write. */
class Missing {
  readonly byCode = new Map<string, string>();
  add(diagnostics: readonly Diagnostic[]): void {
    for (const finding of findingsWithoutFix(diagnostics)) {
      const code = finding.slice(0, finding.indexOf(':'));
      if (!this.byCode.has(code)) this.byCode.set(code, finding);
    }
  }
  get list(): string[] {
    return [...this.byCode.values()].sort();
  }
}

describe('every warning and error has a fix', () => {
  it('SPF: parsed records, generated and mutated, and the linted tree', { timeout: 120_000 }, async () => {
    const rng = createRng(4711);
    const missing = new Missing();
    const records = [
      'v=spf1 ip4:300.1.1.1 -all',
      'v=spf1 -all -all',
      'v=spf1 ptr ~all',
      'v=spf1 +all',
      'v=spf1 include:%{p}.example.com exp=%{p} foo=bar -all',
      'v=spf1 redirect=a.example redirect=b.example',
    ];
    for (let n = 0; n < 3000; n++) records.push(mutateSpfRecord(rng, generateSpfRecord(rng)));
    for (const record of records) missing.add(parseSpfRecord(record).diagnostics);
    for (const record of records.slice(0, 400)) {
      const resolver = createFixtureResolver(fuzzZones(record, records.slice(0, 20)));
      const linted = await lintSpf({ domain: 'example.com', record }, { resolver, timeoutMs: 5000 });
      missing.add(linted.diagnostics);
      for (const node of linted.tree) missing.add(node.diagnostics);
    }
    expect(missing.list).toEqual([]);
  });

  it('DMARC: records as RFC 9989 and RFC 7489 read them, and policy discovery', async () => {
    const rng = createRng(9989);
    const missing = new Missing();
    const seeds = [
      'v=DMARC1; p=none; rua=mailto:dmarc@example.com',
      'v=DMARC1; p=reject; sp=quarantine; np=reject; adkim=s; aspf=s; psd=n; t=y; rua=mailto:a@example.com,mailto:b@example.net!10m; ruf=mailto:f@example.com; fo=1:d:s',
      'v=DMARC1; p=quarantine; pct=50; ri=3600; rf=afrf; rua=mailto:r@example.org',
      'v=DMARC1; rua=mailto:r@example.com',
      'v=DMARC1; p=none; pct=150',
    ];
    const tokens = [
      'v',
      '=',
      'DMARC1',
      ';',
      ' ',
      ',',
      ':',
      '!',
      '!10m',
      '%',
      'p',
      'sp',
      'np',
      'rua',
      'ruf',
      'pct',
      'ri',
      'rf',
      'fo',
      'adkim',
      'aspf',
      'psd',
      't',
      'reject',
      'none',
      'x',
      '200',
      '-1',
      'mailto:',
      'https://r.example/',
      'quarantine',
      'y',
      'n',
      'r',
      's',
      'afrf',
      'iodef',
    ];
    for (const record of [...seeds, ...mutations(rng, seeds, tokens, 3000)]) {
      missing.add(validateDmarcRecord(record).diagnostics);
      missing.add(analyzeDmarcRecord(record, 'RFC 7489').diagnostics);
    }
    const resolver = createFixtureResolver({
      '_dmarc.example.com': { TXT: 'v=DMARC1; p=none; rua=mailto:r@reports.example' },
      '_dmarc.two.example': { TXT: ['v=DMARC1; p=none', 'v=DMARC1; p=reject'] },
      '_dmarc.down.example': { servfail: true },
      'example.com': { A: '192.0.2.1' },
      'reports.example': { A: '192.0.2.2' },
    });
    for (const domain of [
      'example.com',
      'two.example',
      'down.example',
      'nothing.example',
      'a.b.example.com',
    ]) {
      missing.add((await checkDmarc({ domain }, resolver)).diagnostics);
    }
    expect(missing.list).toEqual([]);
  });

  it('DKIM key records', () => {
    const rng = createRng(6376);
    const missing = new Missing();
    const seeds = [
      'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=',
      'v=DKIM1; k=rsa; h=sha256; t=y:s; s=email; n=notes; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQoBTzWRiGs5V6NpP3idY6Wk08a5qhdR6wy5bdOKb2jLQiY/J16JYi0Qvx/byYzCNb3W91y3FutACDfzwQ/BC/e/8uBsCR+yz1Lxj+PL6lHvqMKrM3rG4hstT5QjvHO9PzoxZyVYLzBfO2EeC3Ip3G+2kryOTIKT+l/K4w3QIDAQAB',
      'v=DKIM1; p=',
      '',
    ];
    const tokens = [
      'v',
      '=',
      'DKIM1',
      ';',
      ' ',
      'k',
      'rsa',
      'ed25519',
      'p',
      'h',
      'sha1',
      'sha256',
      't',
      'y',
      's',
      '*',
      'g',
      'x',
      '"',
      'AAAA',
      '==',
    ];
    for (const record of [...seeds, ...mutations(rng, seeds, tokens, 2000)]) {
      missing.add(validateDkimRecord(record).diagnostics);
    }
    expect(missing.list).toEqual([]);
  });

  it('DNSKEY records', async () => {
    const rng = createRng(4034);
    const missing = new Missing();
    const seeds = [
      'example.com. 3600 IN DNSKEY 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==',
      '256 3 8 AwEAAagAIKlVZrpC6Ia7gEzahOR+9W29euxhJhVVLOyQbSEW0O8gcCjFFVQUTf6v58fLjwBd0YI0EzrAcQqBGCzh/RStIoO8g0NfnfL2MTJRkxoXbfDaUeVPQuYEhg37NZWAJQ9VnMVDxP/VHL496M/QZxkjf5/Efucp2gaDX6RS6CXpoY68LsvPVjR0ZSwzz1apAzvN9dlzEheX7ICJBBtuA6G3LQpzW5hOA2hzCTMjJPJ8LbqF6dsV6DoBQzgul0sGIcGOYl7OyQdXfZ57relSQageu+ipAdTTJ25AsRTAoub8ONGcLmqrAmRLKBP1dfwhYB4N7knNnulqQxA+Uk1ihz0=',
      '257 3 5',
      '',
    ];
    const tokens = [
      '257',
      '256',
      '3',
      '2',
      '5',
      '7',
      '8',
      '13',
      '15',
      '16',
      ' ',
      'IN',
      'DNSKEY',
      '(',
      ')',
      ';',
      'x',
      '==',
    ];
    for (const record of [...seeds, ...mutations(rng, seeds, tokens, 600)]) {
      missing.add((await validateDnskey(record)).diagnostics);
    }
    expect(missing.list).toEqual([]);
  });

  it('security.txt files', async () => {
    const rng = createRng(9116);
    const missing = new Missing();
    const now = new Date('2026-06-01T00:00:00Z');
    const seeds = [
      'Contact: mailto:security@example.com\nExpires: 2026-12-31T23:00:00.000Z\nPreferred-Languages: en, fr\nCanonical: https://example.com/.well-known/security.txt\nPolicy: https://example.com/policy\n',
      'Contact: https://example.com/report\nExpires: 2025-01-01T00:00:00Z\nEncryption: dns:5d2d3ceb7abe552344276d47d36a8175b7aeb250._openpgpkey.example.com?type=OPENPGPKEY\n',
      '# comment only\n',
      '',
    ];
    const tokens = [
      'Contact:',
      'Expires:',
      'Canonical:',
      'Policy:',
      'Hiring:',
      'Acknowledgments:',
      'Encryption:',
      'Preferred-Languages:',
      'CSAF:',
      'Foo:',
      ' ',
      '\n',
      '\r',
      'http://',
      'https://',
      'mailto:',
      'tel:+1',
      '2027',
      '-----BEGIN PGP SIGNED MESSAGE-----\n',
      '#',
      'x',
    ];
    for (const file of [...seeds, ...mutations(rng, seeds, tokens, 1500)]) {
      missing.add((await validateSecurityTxt(file, { now })).diagnostics);
    }
    expect(missing.list).toEqual([]);
  });

  it('HTTP response headers, pasted and graded', () => {
    const rng = createRng(9110);
    const missing = new Missing();
    const seeds = [
      "HTTP/2 200\nstrict-transport-security: max-age=63072000; includeSubDomains; preload\ncontent-security-policy: default-src 'self'; frame-ancestors 'none'\nx-content-type-options: nosniff\nreferrer-policy: no-referrer\nset-cookie: id=1; Secure; HttpOnly; SameSite=Lax\n",
      'HTTP/1.1 301 Moved\nLocation: https://example.com/\n\nHTTP/1.1 200 OK\nX-Frame-Options: DENY\nContent-Type: text/html\n\n<html><script src="https://cdn.example/x.js"></script></html>',
      'GET / HTTP/1.1\nHost: example.com\n',
      '',
    ];
    const tokens = [
      '\n',
      ': ',
      ' ',
      '\t',
      'HTTP/1.1 200 OK\n',
      'x-frame-options',
      'set-cookie',
      'max-age=0',
      "'unsafe-inline'",
      '\u0001',
      'bad name',
      ';',
      ',',
      '=',
    ];
    for (const text of [...seeds, ...mutations(rng, seeds, tokens, 1500)]) {
      missing.add(parseHeaderBlock(text).diagnostics);
      try {
        missing.add(gradeHeaderBlock(text).diagnostics);
      } catch (error) {
        if (!(error instanceof HttpHeadersGradeError)) throw error;
      }
    }
    expect(missing.list).toEqual([]);
  });

  it('ARC header fields', () => {
    const rng = createRng(8617);
    const missing = new Missing();
    const seeds = [
      'ARC-Seal: i=1; a=rsa-sha256; cv=none; d=example.org; s=arc; t=1700000000; b=AAAA\nARC-Message-Signature: i=1; a=rsa-sha256; c=relaxed/relaxed; d=example.org; s=arc; h=from:to:subject; bh=AAAA; b=AAAA\nARC-Authentication-Results: i=1; example.org; spf=pass\nFrom: a@example.com\n\nbody\n',
      'ARC-Seal: i=2; a=rsa-sha256; cv=fail; d=example.org; s=arc; b=AAAA\n',
      '',
    ];
    const tokens = [
      'ARC-Seal: ',
      'ARC-Message-Signature: ',
      'ARC-Authentication-Results: ',
      'i=',
      '0',
      '1',
      '2',
      '51',
      'cv=',
      'pass',
      'h=',
      'a=rsa-sha1',
      ';',
      ' ',
      '\n',
      '\n ',
      'x',
    ];
    for (const text of [...seeds, ...mutations(rng, seeds, tokens, 1500)])
      missing.add(parseArcHeaders(text).diagnostics);
    expect(missing.list).toEqual([]);
  });
});
