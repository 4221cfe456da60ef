import { describe, expect, it } from 'vitest';
import { webCryptoProvider, type CryptoProvider } from '../core/crypto.ts';
import { ianaRootTrustAnchors, parseTrustAnchors } from './anchors.ts';
import { matchDs } from './ds.ts';
import { keyTagOf } from './key-tag.ts';
import { dnskeyRecord } from './test-records.ts';

const crypto = webCryptoProvider() as CryptoProvider;

// The root zone's KSK-2017 as the root DNSKEY set publishes it
const ksk2017 = dnskeyRecord(
  '.',
  '257 3 8 AwEAAaz/tAm8yTn4Mfeh5eyI96WSVexTBAvkMgJzkKTOiW1vkIbzxeF3+/4RgWOq7HrxRixHlFlExOLAJr5emLvN7SWXgnLh4+B5xQlNVz8Og8kvArMtNROxVQuCaSnIDdD5LKyWbRd2n9WGe2R8PzgCmr3EgVLrjyBxWezF0jLHwVN8efS3rCj/EWgvIWgb9tarpVUDK/b58Da+sqqls3eNbuv7pr+eoZG+SrDK6nWeL3c6H5Apxz7LjVc1uTIdsIXxuOLYA4/ilBmSVIzuDWfdRUfhHdY6+cn8HFRm+2hM8AnXGXws9555KrUB5qihylGa8subX2Nn6UwNR1AkUTV74bU=',
);

describe('ianaRootTrustAnchors', () => {
  it('holds KSK-2017 and KSK-2024, RSA/SHA-256 with SHA-256 digests', () => {
    expect(ianaRootTrustAnchors.ds.map((ds) => [ds.keyTag, ds.algorithm, ds.digestType])).toEqual([
      [20326, 8, 2],
      [38696, 8, 2],
    ]);
    expect(ianaRootTrustAnchors.source).toContain('https://data.iana.org/root-anchors/root-anchors.xml');
  });

  it("KSK-2017's DS matches the root's published key", async () => {
    expect(keyTagOf(ksk2017)).toBe(20326);
    const [ds2017] = ianaRootTrustAnchors.ds;
    expect(await matchDs(ds2017!, [ksk2017], '.', crypto)).toEqual({ status: 'match', key: ksk2017 });
  });
});

describe('parseTrustAnchors', () => {
  it('reads DS lines as dnssec-dsfromkey writes them, with comments and blank lines', () => {
    const text = [
      '; root anchors',
      '',
      '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
      '# KSK-2024',
      '.\t86400\tIN\tDS\t38696 8 2 683D2D0ACB8C9B712A1948B27F741219 298D0A450D612C483AF444A4C0FB2B16 ; split digest',
    ].join('\n');
    const parsed = parseTrustAnchors(text, '/etc/anchors');
    expect(parsed).toEqual({
      ok: true,
      result: {
        source: '/etc/anchors',
        ds: ianaRootTrustAnchors.ds.map((ds, i) => ({ ...ds, ttl: i === 0 ? 172800 : 86400 })),
        dnskey: [],
      },
    });
  });

  it('reads DNSKEY lines, class before TTL, and a key spread over parentheses', () => {
    const key = ksk2017.key;
    const text = `. IN 172800 DNSKEY 257 3 8 (\n ${key.slice(0, 100)}\n ${key.slice(100)} )\n`;
    const parsed = parseTrustAnchors(text, 'lab');
    expect(parsed.ok && parsed.result.dnskey).toEqual([{ ...ksk2017, ttl: 172800 }]);
  });

  it.each([
    ['', /no DS or DNSKEY/],
    ['; only a comment\n', /no DS or DNSKEY/],
    ['\n\nexample. IN DS 1 8 2 00', /^line 3: .*owner must be '\.'/],
    ['. IN A 192.0.2.1', /^line 1: expected a DS or DNSKEY/],
    ['. IN DS 70000 8 2 00', /^line 1: a DS record is key tag/],
    ['. IN DS 20326 8 2 E06D', /^line 1: a digest of type 2 has 32 octets/],
    ['. IN DS 20326 8 2 XYZ0', /^line 1: the DS digest must be hexadecimal/],
    ['# c\n. IN DNSKEY 257 2 8 AwEAAQ==', /^line 2: the DNSKEY protocol must be 3/],
    ['. IN DNSKEY 257 3 8 !!!', /^line 1: the DNSKEY public key is not base64/],
    ['. IN DS 20326 8 2 "E06D', /^line 1: /],
  ])('%j is refused: %s', (text, error) => {
    const parsed = parseTrustAnchors(text, 'file');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });
});
