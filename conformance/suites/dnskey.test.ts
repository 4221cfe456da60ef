import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { type DsRecord, validateDnskey } from '@rfckit/standards';
import { dnskeyVectors } from '../vectors-md.ts';

const markdown = readFileSync(path.join(process.env.CONFORMANCE_DIR!, 'vectors.md'), 'utf8');
const vectors = dnskeyVectors(markdown);

describe('DNSKEY key tags and DS digests (vectors.md: RFC 4034, 4509, 6605, 8080)', () => {
  it('finds the published vectors', () => {
    // sections 2 (two forms), 3 and the four rows of section 4
    assert.ok(vectors.length >= 7, `expected at least 7 DNSKEY vectors, found ${vectors.length}`);
  });

  for (const vector of vectors) {
    it(`${vector.source}: key tag ${vector.keyTag}`, async () => {
      const result = await validateDnskey(vector.record);
      const parsed = result.parsed;
      assert.ok(parsed, `not parsed: ${result.errors.join('; ')}`);
      assert.equal(parsed.keyTag, vector.keyTag);
      const expectedDs = vector.ds.filter((d) => d.keyTag === vector.keyTag);
      assert.ok(expectedDs.length > 0, 'the vector publishes no DS for this key');
      for (const expected of expectedDs) {
        const ds: DsRecord | undefined = parsed.ds.find((d) => d.digestType === expected.digestType);
        assert.ok(ds, `no DS with digest type ${expected.digestType}`);
        assert.equal(ds.digest, expected.digest, `DS digest type ${expected.digestType}`);
      }
    });
  }
});
