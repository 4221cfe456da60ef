import { describe, expect, it } from 'vitest';
import { validateDnskey } from './validate.ts';

// Published vectors, /work/shared/conformance/vectors.md §2-4 (RFC 4034 §2.3 and §5.4,
// RFC 4509 §2.3, RFC 6605 §6.1-6.2, RFC 8080 §6.1-6.2). Expected values are copied, not computed.

const rfc4034Key =
  'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==';

/** RFC 4034 §5.4 exactly as printed: base64 split over lines inside ( ), with a comment. */
const rfc4034Wrapped = `dskey.example.com. 86400 IN DNSKEY 256 3 5 ( AQOeiiR0GOMYkDshWoSKz9Xz
                                             fwJr1AYtsmx3TGkJaNXVbfi/
                                             2pHm822aJ5iI9BMzNXxeYCmZ
                                             DRD99WYwYqUSdjMmmAphXdvx
                                             egXd/M5+X7OrzKBaMbCVdFLU
                                             Uh6DhweJBjEVv5f2wwjM9Xzc
                                             nOf+EPbtG9DMBmADjFDc2w/r
                                             ljwvFw==
                                             ) ;  key id = 60485`;

interface Vector {
  name: string;
  record: string;
  keyTag: number;
  flags: number;
  algorithm: number;
  algorithmName: string;
  keyType: 'KSK' | 'ZSK';
  publicKeyBytes: number;
  /** DS RDATA as `keytag alg type digest`, compared without regard to the digest's case. */
  ds: string[];
  /** Full DS lines where the source prints them. */
  dsLines?: string[];
}

/** Splits a single-line record into the RFCs' wrapped form: key in 24-character lines inside ( ). */
function wrap(record: string): string {
  const fields = record.split(' ');
  const key = fields.pop() ?? '';
  const lines = key.match(/.{1,24}/g) ?? [];
  return `${fields.join(' ')} ( ${lines.join('\n        ')}\n        ) ; wrapped as in the RFCs`;
}

const vectors: Vector[] = [
  {
    name: 'RFC 4034 §5.4 / RFC 4509 §2.3',
    record: `dskey.example.com. 86400 IN DNSKEY 256 3 5 ${rfc4034Key}`,
    keyTag: 60485,
    flags: 256,
    algorithm: 5,
    algorithmName: 'RSASHA1',
    keyType: 'ZSK',
    publicKeyBytes: 130,
    ds: [
      '60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118',
      '60485 5 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
      '60485 5 4 AB64DBEBE13C0B6BAE558B78CCAB93B836F8ADA4CBED2D4484A8715A819DE7B9E846315E70EA5D884B377394BDAF16A3',
    ],
    dsLines: [
      'dskey.example.com. 86400 IN DS 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118',
      'dskey.example.com. 86400 IN DS 60485 5 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
    ],
  },
  {
    name: 'RFC 4034 §2.3',
    record:
      'example.com. 86400 IN DNSKEY 256 3 5 AQPSKmynfzW4kyBv015MUG2DeIQ3Cbl+BBZH4b/0PY1kxkmvHjcZc8nokfzj31GajIQKY+5CptLr3buXA10hWqTkF7H6RfoRqXQeogmMHfpftf6zMv1LyBUgia7za6ZEzOJBOztyvhjL742iU/TpPSEDhm2SNKLijfUppn1UaNvv4w==',
    keyTag: 2642,
    flags: 256,
    algorithm: 5,
    algorithmName: 'RSASHA1',
    keyType: 'ZSK',
    publicKeyBytes: 130,
    ds: [
      '2642 5 1 85B0BEC3D78921A252E5E9B8A2A1F4A6236368AB',
      '2642 5 2 B623A93901B8E11B364DB88499A7DAED6ED4767C585949AD4040EA47E0B6BD00',
    ],
  },
  {
    name: 'RFC 6605 §6.1 (P-256)',
    record:
      'example.net. 3600 IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==',
    keyTag: 55648,
    flags: 257,
    algorithm: 13,
    algorithmName: 'ECDSAP256SHA256',
    keyType: 'KSK',
    publicKeyBytes: 64,
    ds: ['55648 13 2 b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17'],
  },
  {
    name: 'RFC 6605 §6.2 (P-384)',
    record:
      'example.net. 3600 IN DNSKEY 257 3 14 xKYaNhWdGOfJ+nPrL8/arkwf2EY3MDJ+SErKivBVSum1w/egsXvSADtNJhyem5RCOpgQ6K8X1DRSEkrbYQ+OB+v8/uX45NBwY8rp65F6Glur8I/mlVNgF6W/qTI37m40',
    keyTag: 10771,
    flags: 257,
    algorithm: 14,
    algorithmName: 'ECDSAP384SHA384',
    keyType: 'KSK',
    publicKeyBytes: 96,
    ds: [
      '10771 14 4 72d7b62976ce06438e9c0bf319013cf801f09ecc84b8d7e9495f27e305c6a9b0563a9b5f4d288405c3008a946df983d6',
    ],
  },
  {
    name: 'RFC 8080 §6.1 (Ed25519)',
    record: 'example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=',
    keyTag: 3613,
    flags: 257,
    algorithm: 15,
    algorithmName: 'ED25519',
    keyType: 'KSK',
    publicKeyBytes: 32,
    ds: ['3613 15 2 3aa5ab37efce57f737fc1627013fee07bdf241bd10f3b1964ab55c78e79a304b'],
  },
  {
    name: 'RFC 8080 §6.2 (Ed448)',
    record:
      'example.com. 3600 IN DNSKEY 257 3 16 3kgROaDjrh0H2iuixWBrc8g2EpBBLCdGzHmn+G2MpTPhpj/OiBVHHSfPodx1FYYUcJKm1MDpJtIA',
    keyTag: 9713,
    flags: 257,
    algorithm: 16,
    algorithmName: 'ED448',
    keyType: 'KSK',
    publicKeyBytes: 57,
    ds: ['9713 16 2 6ccf18d5bc5d7fc2fceb1d59d17321402f2aa8d368048db93dd811f5cb2b19c7'],
  },
];

const forms = vectors.flatMap((v) => [
  { ...v, form: 'single line', input: v.record },
  { ...v, form: 'wrapped in ( )', input: wrap(v.record) },
]);

describe('DNSKEY published vectors', () => {
  it.each(forms)('$name, $form: key tag $keyTag and fields', async (v) => {
    const result = await validateDnskey(v.input);
    expect(result.parsed).toMatchObject({
      keyTag: v.keyTag,
      flags: v.flags,
      protocol: 3,
      algorithm: v.algorithm,
      algorithmName: v.algorithmName,
      keyType: v.keyType,
      publicKeyBytes: v.publicKeyBytes,
    });
  });

  it.each(forms)('$name, $form: DS digests', async (v) => {
    const result = await validateDnskey(v.input);
    const ds = result.parsed?.ds ?? [];
    const rdata = ds.map((d) => d.record.split(' IN DS ')[1]);
    for (const expected of v.ds) expect(rdata).toContain(expected.toUpperCase());
    for (const line of v.dsLines ?? []) expect(ds.map((d) => d.record)).toContain(line);
  });

  it('reads RFC 4034 §5.4 exactly as printed, with its comment', async () => {
    const result = await validateDnskey(rfc4034Wrapped);
    expect(result.parsed?.keyTag).toBe(60485);
    expect(result.parsed?.ownerName).toBe('dskey.example.com.');
    expect(result.parsed?.ttl).toBe(86400);
    expect(result.parsed?.ds.map((d) => d.record)).toEqual([
      'dskey.example.com. 86400 IN DS 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118',
      'dskey.example.com. 86400 IN DS 60485 5 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
      'dskey.example.com. 86400 IN DS 60485 5 4 AB64DBEBE13C0B6BAE558B78CCAB93B836F8ADA4CBED2D4484A8715A819DE7B9E846315E70EA5D884B377394BDAF16A3',
    ]);
  });

  it('keys from RFC 6605 and RFC 8080 pass every check (RFC 4034 keys are 1024-bit RSA/SHA-1)', async () => {
    for (const v of vectors.filter((x) => x.algorithm >= 13)) {
      expect((await validateDnskey(v.record)).errors).toEqual([]);
    }
  });

  it('reports key sizes', async () => {
    const sizes = await Promise.all(
      vectors.map(async (v) => (await validateDnskey(v.record)).parsed?.keySize),
    );
    expect(sizes).toEqual([1024, 1024, 256, 384, 256, 456]);
  });
});
