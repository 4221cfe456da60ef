import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { validateDkimRecord } from '@rfckit/standards';

const dir = path.join(process.env.CONFORMANCE_DIR!, 'dkim');
const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');

interface KeyRecordCase {
  record: string;
  expect: 'valid' | 'invalid' | 'revoked';
  note: string;
  source: string;
}

const { cases } = JSON.parse(read('key-records.json')) as { cases: KeyRecordCase[] };

describe('DKIM key records (dkim/key-records.json: RFC 6376 §3.6.1, RFC 8463, dkimpy)', () => {
  it('has the 18 published cases', () => {
    assert.equal(cases.length, 18);
  });

  for (const testCase of cases) {
    it(`${testCase.expect}: ${testCase.note} (${testCase.source})`, () => {
      const result = validateDkimRecord(testCase.record);
      assert.equal(result.parsed?.status ?? 'invalid', testCase.expect, result.errors.join('; '));
      assert.equal(result.valid, testCase.expect === 'valid');
      // the README's "warn: < 2048" case: an RSA-1024 key passes with the RFC 8301 §3.2 SHOULD
      if (testCase.note.includes('warn: < 2048')) {
        assert.ok(result.diagnostics.some((d) => d.code === 'DKIM_RSA_SHORT' && d.rfc === 'RFC 8301 §3.2'));
      }
    });
  }
});

describe('RFC 8463 A.2 zone file (dkim/rfc8463-dns.zone)', () => {
  // the zone holds two records, each a TXT line with a ( … ) group
  const zone = read('rfc8463-dns.zone');
  const records = zone.split(/\n\s*\n/).filter((chunk) => chunk.includes('IN TXT'));

  it('has both keys', () => {
    assert.equal(records.length, 2);
  });

  for (const [name, keySize, strings] of [
    ['brisbane._domainkey.football.example.com.', 256, 1],
    ['test._domainkey.football.example.com.', 1024, 4],
  ] as const) {
    it(`${name} is valid, its ${strings} string(s) joined`, () => {
      const text = records.find((chunk) => chunk.includes(name));
      assert.ok(text, `no record for ${name}`);
      const result = validateDkimRecord(text);
      assert.equal(result.valid, true, result.errors.join('; '));
      assert.equal(result.parsed?.ownerName, name);
      assert.equal(result.parsed?.strings, strings);
      assert.equal(result.parsed?.keySize, keySize);
    });
  }
});

describe('Key sizes of the derived keys (dkim/cases.json DNS answers, RFC 8301 §3.2)', () => {
  const manifest = JSON.parse(read('cases.json')) as { cases: { id: string; dns: Record<string, string> }[] };
  const record = (id: string) => {
    const found = manifest.cases.find((entry) => entry.id === id);
    const value = found && Object.values(found.dns)[0];
    assert.ok(value, `no DNS answer for ${id}`);
    return value;
  };

  it('rsa512: not valid, RSA keys under 1024 bits must not be accepted', () => {
    const result = validateDkimRecord(record('derived-rsa512'));
    assert.equal(result.valid, false);
    assert.equal(result.parsed?.keySize, 512);
    assert.ok(
      result.diagnostics.some((d) => d.code === 'DKIM_RSA_TOO_SHORT' && d.requirement === 'MUST NOT'),
    );
  });

  it('rsa1024: valid with a warning', () => {
    const result = validateDkimRecord(record('derived-rsa1024'));
    assert.equal(result.valid, true);
    assert.equal(result.parsed?.keySize, 1024);
    assert.deepEqual(
      result.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code),
      ['DKIM_RSA_SHORT'],
    );
  });

  it('rsa2048: valid without warnings', () => {
    const result = validateDkimRecord(record('derived-rsa2048'));
    assert.equal(result.valid, true);
    assert.equal(result.parsed?.keySize, 2048);
    assert.deepEqual(result.warnings, []);
  });
});
