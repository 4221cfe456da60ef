import { describe, expect, it } from 'vitest';
import { dnskeyVectors } from './vectors-md.ts';

// A small document in the shape of shared/conformance/vectors.md; the values are the RFC's.
const sample = [
  '## 2. RFC 4034 section 5.4',
  '```',
  'dskey.example.com. 86400 IN DNSKEY 256 3 5 AQOeiiR0GOMY',
  '```',
  '| key tag | `60485` |',
  '| DS, digest type 1 | `dskey.example.com. 86400 IN DS 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118` |',
  '## 4. ECDSA',
  '| Source | Input DNSKEY | Key tag | Expected DS |',
  '| RFC 8080 6.1 (Ed25519) | `example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=` | 3613 | `3613 15 2 3aa5ab37efce57f737fc1627013fee07bdf241bd10f3b1964ab55c78e79a304b` |',
].join('\n');

describe('vectors.md reader', () => {
  it('reads section-level and table-row vectors with their DS digests', () => {
    const vectors = dnskeyVectors(sample);
    expect(vectors.map((v) => v.keyTag)).toEqual([60485, 3613]);
    expect(vectors[0]!.ds).toEqual([
      { keyTag: 60485, algorithm: 5, digestType: 1, digest: '2BB183AF5F22588179A53B0A98631FAD1A292118' },
    ]);
    expect(vectors[1]!.record).toBe(
      'example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=',
    );
    expect(vectors[1]!.ds[0]!.digest).toBe(
      '3AA5AB37EFCE57F737FC1627013FEE07BDF241BD10F3B1964AB55C78E79A304B',
    );
  });
});
