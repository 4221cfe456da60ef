import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  analyzeDmarcRecord,
  lintSpf,
  parseSpfRecord,
  validateDkimRecord,
  validateDmarcRecord,
  validateSecurityTxt,
  type Diagnostic,
} from '@rfckit/standards';
import { readSpfSuite, scenarioResolver } from '../spf-suite.ts';

/*
 * Every warning and error has a fix (docs/architecture.md §3), over the conformance vectors: each
 * SPF record served by the RFC 7208 and RFC 4408 suites (parsed, and linted over its scenario's
 * zone), each DMARC record case under both RFCs, each DKIM key record and each security.txt case.
 * packages/standards/src/fix-coverage.test.ts does the same over generated and mutated inputs.
 */

const dir = process.env.CONFORMANCE_DIR!;
const json = <T>(...parts: string[]) => JSON.parse(readFileSync(path.join(dir, ...parts), 'utf8')) as T;

function withoutFix(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics
    .filter((d) => d.severity !== 'info' && (d.fix ?? '').trim() === '')
    .map((d) => `${d.code}: ${d.message}`);
}

describe('every finding over the conformance vectors has a fix', () => {
  it('SPF records of the RFC 7208 and RFC 4408 suites', async () => {
    const missing = new Set<string>();
    let records = 0;
    for (const file of ['rfc7208-tests.yml', 'rfc4408-tests.yml']) {
      for (const scenario of readSpfSuite(readFileSync(path.join(dir, 'spf', file), 'utf8'))) {
        const resolver = scenarioResolver(scenario);
        for (const [domain, fixture] of Object.entries(scenario.zones)) {
          const texts = [fixture.TXT ?? []].flat().map((t) => [t].flat().join(''));
          for (const text of texts.filter((t) => /^v=spf1/i.test(t))) {
            records += 1;
            for (const finding of withoutFix(parseSpfRecord(text).diagnostics)) missing.add(finding);
            const linted = await lintSpf({ domain }, { resolver, timeoutMs: 5000 });
            for (const finding of withoutFix(linted.diagnostics)) missing.add(finding);
          }
        }
      }
    }
    assert.ok(records > 200, `only ${records} SPF records read from the suites`);
    assert.deepEqual([...missing], []);
  });

  it('DMARC record cases under RFC 9989 and RFC 7489', () => {
    const { cases } = json<{ cases: { record: string }[] }>('dmarc', 'record-cases.json');
    const missing = cases.flatMap(({ record }) => [
      ...withoutFix(validateDmarcRecord(record).diagnostics),
      ...withoutFix(analyzeDmarcRecord(record, 'RFC 7489').diagnostics),
    ]);
    assert.deepEqual(missing, []);
  });

  it('DKIM key records', () => {
    const { cases } = json<{ cases: { record: string }[] }>('dkim', 'key-records.json');
    assert.deepEqual(
      cases.flatMap(({ record }) => withoutFix(validateDkimRecord(record).diagnostics)),
      [],
    );
  });

  it('security.txt cases', async () => {
    const { cases } = json<{ cases: { content?: string; contentBase64?: string }[] }>(
      'security-txt',
      'cases.json',
    );
    const missing: string[] = [];
    for (const testCase of cases) {
      const input = testCase.content ?? new Uint8Array(Buffer.from(testCase.contentBase64 ?? '', 'base64'));
      missing.push(...withoutFix((await validateSecurityTxt(input)).diagnostics));
    }
    assert.deepEqual(missing, []);
  });
});
