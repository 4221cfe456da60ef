import { describe, expect, it } from 'vitest';
import { webCryptoProvider, type CryptoProvider } from '../core/crypto.ts';
import type { DnsRecord } from '../core/resolver.ts';
import { rfc8080Mx, signatureVectors as vectors } from './signature-vectors.ts';
import { aRecord, dnskeyRecord, mxRecord, rrsigRecord } from './test-records.ts';
import { serialBefore, signatureView, verifyRrset } from './verify.ts';

const crypto = webCryptoProvider() as CryptoProvider;

async function verifyVector(
  vector: (typeof vectors)[number],
  change: Partial<{ rrset: DnsRecord[]; rrsig: string; now: number; key: string; zone: string }> = {},
) {
  const v = { ...vector, ...change };
  const owner = v.rrset[0]?.name ?? '';
  return verifyRrset(v.rrset, [rrsigRecord(owner, v.rrsig)], [dnskeyRecord(vector.zone, v.key)], {
    zone: v.zone,
    now: v.now,
    crypto,
  });
}

describe('verifyRrset: RFC example signatures', () => {
  it.each(vectors)('$name verifies', async (vector) => {
    const result = await verifyVector(vector);
    expect(result.checks.map((c) => [c.outcome, c.message])).toEqual([
      ['valid', expect.stringContaining('verifies')],
    ]);
    expect(result.valid).toBe(true);
    expect(result.wildcard).toBeNull();
    expect(result.checks[0]?.key?.key).toBe(vector.key.split(' ')[3]);
  });

  it.each(vectors)('$name fails on tampered RDATA', async (vector) => {
    const tampered =
      vector.rrset[0]?.type === 'MX'
        ? [mxRecord('example.com.', 3600, 11, 'mail.example.com.')]
        : [aRecord('www.example.net.', 3600, '192.0.2.92')];
    const result = await verifyVector(vector, { rrset: tampered });
    expect(result.valid).toBe(false);
    expect(result.checks[0]?.outcome).toBe('bad-signature');
  });

  it.each(vectors)(
    '$name is expired after its expiration and not yet valid before its inception',
    async (vector) => {
      const signature = rrsigRecord('x.', vector.rrsig);
      const expired = await verifyVector(vector, { now: signature.expiration + 1 });
      expect(expired.checks[0]?.outcome).toBe('expired');
      expect(expired.checks[0]?.message).toMatch(/expired at \d{4}-\d\d-\d\dT/);
      const early = await verifyVector(vector, { now: signature.inception - 1 });
      expect(early.checks[0]?.outcome).toBe('not-yet-valid');
      // the window's ends belong to it (RFC 4034 §3.1.5: "on or after", "on or before")
      expect((await verifyVector(vector, { now: signature.inception })).valid).toBe(true);
      expect((await verifyVector(vector, { now: signature.expiration })).valid).toBe(true);
    },
  );
});

describe('verifyRrset: failures', () => {
  const [p256] = vectors.filter((v) => v.name.includes('P-256'));
  const vector = p256 ?? vectors[0]!;

  it('a key of the same algorithm but another tag is no-key', async () => {
    const other =
      '257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==';
    const result = await verifyVector(vector, { key: other });
    expect(result.checks[0]?.outcome).toBe('no-key');
    expect(result.checks[0]?.message).toContain('key tag 55648');
  });

  it('a signature with the right tag but made by another key is bad-signature', async () => {
    // one bit of r changed: the tag and algorithm still name the RFC 6605 key
    const forged = vector.rrsig.replace('qx6wLYqmh+l9', 'qx6wLYqmh+l8');
    const result = await verifyVector(vector, { rrsig: forged });
    expect(result.checks[0]?.outcome).toBe('bad-signature');
  });

  it('a signer other than the zone is signer-mismatch', async () => {
    const result = await verifyVector(vector, { zone: 'example.org.' });
    expect(result.checks[0]?.outcome).toBe('signer-mismatch');
  });

  it('a Labels field above the owner label count is labels-mismatch', async () => {
    const result = await verifyVector(vector, { rrsig: vector.rrsig.replace('A 13 3 ', 'A 13 4 ') });
    expect(result.checks[0]?.outcome).toBe('labels-mismatch');
  });

  it.each([
    [3, 'DSA'],
    [12, 'ECC-GOST'],
    [200, 'algorithm 200'],
  ])('algorithm %i is unsupported-algorithm', async (algorithm, name) => {
    const rrsig = vector.rrsig.replace('A 13 ', `A ${algorithm} `);
    const result = await verifyVector(vector, { rrsig, key: vector.key.replace(' 13 ', ` ${algorithm} `) });
    expect(result.checks[0]?.outcome).toBe('unsupported-algorithm');
    expect(result.checks[0]?.message).toContain(name);
  });

  it('a provider without verify gives unsupported-algorithm, not bad-signature', async () => {
    const digestOnly: CryptoProvider = { digest: (a, d) => crypto.digest(a, d) };
    const result = await verifyRrset(
      vector.rrset,
      [rrsigRecord('www.example.net.', vector.rrsig)],
      [dnskeyRecord('example.net.', vector.key)],
      {
        zone: 'example.net.',
        now: vector.now,
        crypto: digestOnly,
      },
    );
    expect(result.checks[0]?.outcome).toBe('unsupported-algorithm');
  });

  it('a signature of the wrong length is malformed', async () => {
    const result = await verifyVector(vector, { rrsig: vector.rrsig.replace(/ \S+$/, ' AAAA') });
    expect(result.checks[0]?.outcome).toBe('malformed');
  });

  it('revoked keys and keys without the Zone Key bit are not used', async () => {
    for (const flags of ['385', '1']) {
      const result = await verifyVector(vector, { key: vector.key.replace(/^257/, flags) });
      expect(result.checks[0]?.outcome).toBe('no-key');
    }
  });
});

describe('verifyRrset: canonical form', () => {
  const ed25519 = vectors.find((v) => v.name.includes('Ed25519 example 1'))!;

  it('owner and embedded names are compared in lower case (RFC 4034 §6.2)', async () => {
    const upper = { ...mxRecord('EXAMPLE.com.', 3600, 10, 'MAIL.Example.COM.') };
    const result = await verifyVector(ed25519, { rrset: [upper] });
    expect(result.valid).toBe(true);
  });

  it('duplicate records count once and order does not matter (RFC 4034 §6.3)', async () => {
    const mx = rfc8080Mx[0]!;
    expect((await verifyVector(ed25519, { rrset: [mx, mx] })).valid).toBe(true);
  });

  it('the TTL signed is the original TTL, not the one the record arrived with', async () => {
    const aged = { ...rfc8080Mx[0]!, ttl: 17 };
    expect((await verifyVector(ed25519, { rrset: [aged] })).valid).toBe(true);
  });

  it('a record without its RDATA makes the signature malformed', async () => {
    const { rdata: _dropped, ...bare } = rfc8080Mx[0]!;
    const result = await verifyVector(ed25519, { rrset: [bare] });
    expect(result.checks[0]?.outcome).toBe('malformed');
  });
});

describe('serialBefore (RFC 1982 on 32 bits)', () => {
  it.each([
    [1, 2, true],
    [2, 1, false],
    [5, 5, false],
    [0xffffffff, 1, true],
    [1, 0xffffffff, false],
    [2 ** 32 + 5, 6, true],
  ])('%i before %i: %s', (a, b, expected) => {
    expect(serialBefore(a, b)).toBe(expected);
  });
});

describe('signatureView', () => {
  it('gives names without the trailing dot and ISO times', async () => {
    const result = await verifyVector(vectors[2]!);
    const view = signatureView(result.checks[0]!);
    expect(view).toMatchObject({
      typeCovered: 'A',
      keyTag: 55648,
      algorithm: 13,
      algorithmName: 'ECDSAP256SHA256',
      signer: 'example.net',
      inception: '2010-08-12T10:04:39Z',
      expiration: '2010-09-09T10:04:39Z',
      outcome: 'valid',
    });
  });
});
