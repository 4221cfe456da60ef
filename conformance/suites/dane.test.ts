import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { generateTlsa, validateTlsa, webCryptoProvider } from '@rfckit/standards';
import { derivedTlsaVectors, tlsaExampleVectors } from '../vectors-md.ts';

const directory = process.env.CONFORMANCE_DIR!;
const markdown = readFileSync(path.join(directory, 'vectors.md'), 'utf8');
const crypto = webCryptoProvider()!;

describe('TLSA examples (vectors.md section 5: RFC 6698 §2.3)', () => {
  const examples = tlsaExampleVectors(markdown);
  it('finds the three published examples', () => {
    assert.equal(examples.length, 3);
  });

  for (const example of examples) {
    it(`${example.source}: ${example.usage} ${example.selector} ${example.matchingType}`, () => {
      const result = validateTlsa(example.record);
      if (example.data === null) {
        // the RFC elides the certificate ("..."): the record is refused for its data, and only for it
        assert.equal(result.valid, false, 'a truncated certificate must not validate');
        assert.ok(result.diagnostics.length > 0);
        for (const diagnostic of result.diagnostics.filter((d) => d.severity === 'error'))
          assert.match(diagnostic.code, /^TLSA_DATA/, `${diagnostic.code}: ${diagnostic.message}`);
        return;
      }
      const parsed = result.parsed;
      assert.ok(parsed, `not parsed: ${result.errors.join('; ')}`);
      assert.equal(result.valid, true, result.errors.join('; '));
      assert.equal(parsed.owner?.port, 443);
      assert.equal(parsed.owner?.protocol, 'tcp');
      assert.equal(parsed.owner?.host, 'www.example.com.');
      assert.deepEqual(
        [parsed.usage, parsed.selector, parsed.matchingType],
        [example.usage, example.selector, example.matchingType],
      );
      assert.equal(parsed.data, example.data);
    });
  }
});

describe('Derived TLSA vector (vectors.md section 6, dnssec-dane/derived-tlsa-cert.pem)', () => {
  const vectors = derivedTlsaVectors(markdown);
  const pem = readFileSync(path.join(directory, 'dnssec-dane', 'derived-tlsa-cert.pem'), 'utf8');

  it('finds the five published rows', () => {
    assert.equal(vectors.length, 5);
  });

  for (const vector of vectors) {
    it(`${vector.usage} ${vector.selector} ${vector.matchingType}`, async () => {
      const generation = await generateTlsa({ chain: pem, host: 'www.example.com', port: 25 }, crypto);
      assert.ok(generation.ok, generation.ok ? '' : generation.error);
      const record = generation.result.records.find(
        (r) =>
          r.usage === vector.usage &&
          r.selector === vector.selector &&
          r.matchingType === vector.matchingType,
      );
      assert.ok(record, 'no such record generated');
      assert.equal(record.data, vector.data);
    });
  }

  it('gives the expected DANE-EE record for an SMTP server', async () => {
    const generation = await generateTlsa({ chain: pem, host: 'www.example.com', port: 25 }, crypto);
    assert.ok(generation.ok);
    assert.equal(
      generation.result.selected.record.replace(/\s+/g, ' '),
      '_25._tcp.www.example.com. IN TLSA 3 1 1 75b946f1b6efb49f10f03f1617302e482a105c2e6d5baae2c2fc4a9676fcafab',
    );
  });
});
