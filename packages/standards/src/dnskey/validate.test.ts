import { describe, expect, it } from 'vitest';
import type { ValidationResult } from '../core/diagnostic.ts';
import type { DnskeyParsed } from './types.ts';
import { validateDnskey } from './validate.ts';

// Keys from the published vectors (RFC 6605 §6.1, RFC 4034 §5.4, RFC 8080 §6.1).
const p256 = 'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==';
const rsa1024Rfc =
  'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==';
const ed25519 = 'l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=';

// RSA keys made with `openssl genrsa` and written in RFC 3110 form (exponent 65537); key tags
// and digests below were computed with a separate Python script (hashlib), not with this code.
const rsa2048 =
  'AwEAAc/q74Cl933sIv2gJAxikGPqjhltfwvmhQ1uIl5FxTmlAj6ZrY6zOwr8uVpTutQIv1uXx+y1oiAyYyV5MIjJeRVa2ZOH5crjHsu0kVU2X7Q8Am4t3/wlEYagUPxs7JWKLckuRmSOqLPjNexukLjkockB80/q3lyyuqNjdn2GcLiF6XoXSrxxkwyavA25Gxk9ZS5SzRGDvs5GdXEEqo1k0EcM35vSyFjUMhpVjdiGQHP99mdrF7MOVTBljsadh/uEviToKhRkA4qxFNr/EPbYSFEPj0oXOtXFxTY52hupNkcfOVl1kXcrs0AzvByPZS4zVq58jw6V29f9GzYN48GBgGM=';
const rsa1024 =
  'AwEAAdkl6EHlXaeLa55+XP0WoUbip3iTukyK/czBCf2sld/khUVLdW4MVQ+53sDhwbnuss4huoWooik8QEk6JwdIKwN4rI67R2wNct5nUdIphZvd+gDachMZhNCWTuj1n4KTnVXOFgG2xsyq7kLHmOfW3q35dLkcFLBOqaRrNA6LroEN';
const rsa768 =
  'AwEAAa4XKveAEt5nF19wj4N63VZJB4d7hQk2nHZ+O79kHdeGJ2WOYh4M5MPtwqN65locnfVoBOMHOUJxspYbS0pk9FeOf1GePYv9Axbe1tBlM9tOgtrWwH3lxTIUYhnKAG5Jhw==';

function codes(result: ValidationResult<DnskeyParsed>): string[] {
  return result.diagnostics.map((d) => d.code);
}

function diagnostic(result: ValidationResult<DnskeyParsed>, code: string) {
  const found = result.diagnostics.find((d) => d.code === code);
  if (!found) throw new Error(`no ${code} in ${codes(result).join(', ')}`);
  return found;
}

function b64(bytes: number[]): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromB64(text: string): number[] {
  return [...atob(text)].map((c) => c.charCodeAt(0));
}

describe('validateDnskey: required input', () => {
  it.each(['', '   ', '\n\t\n', '; only a comment\n'])('%j gives exactly the spec message', async (input) => {
    const result = await validateDnskey(input);
    expect(result).toEqual({
      valid: false,
      errors: ['DNSKEY record is required'],
      warnings: [],
      diagnostics: [
        expect.objectContaining({
          severity: 'error',
          code: 'DNSKEY_REQUIRED',
          message: 'DNSKEY record is required',
          fix: expect.stringContaining('Paste a DNSKEY record'),
        }),
      ],
    });
  });
});

describe('validateDnskey: record layout', () => {
  it.each([
    ['bare RDATA', `257 3 13 ${p256}`, null, null],
    ['owner TTL class type', `example.net. 3600 IN DNSKEY 257 3 13 ${p256}`, 'example.net.', 3600],
    ['owner class TTL type', `example.net. IN 3600 DNSKEY 257 3 13 ${p256}`, 'example.net.', 3600],
    ['owner type', `example.net. DNSKEY 257 3 13 ${p256}`, 'example.net.', null],
    ['owner class type', `example.net. IN DNSKEY 257 3 13 ${p256}`, 'example.net.', null],
    ['class type, no owner', `IN DNSKEY 257 3 13 ${p256}`, null, null],
    ['TTL class type, no owner', `3600 IN DNSKEY 257 3 13 ${p256}`, null, 3600],
    ['type only', `DNSKEY 257 3 13 ${p256}`, null, null],
    ['lower-case type and class', `example.net. 3600 in dnskey 257 3 13 ${p256}`, 'example.net.', 3600],
    ['RFC 3597 type name', `example.net. 3600 IN TYPE48 257 3 13 ${p256}`, 'example.net.', 3600],
    ['TTL with units', `example.net. 1h IN DNSKEY 257 3 13 ${p256}`, 'example.net.', 3600],
    ['TTL with several units', `example.net. 1d2h IN DNSKEY 257 3 13 ${p256}`, 'example.net.', 93600],
    ['tabs as dig prints them', `example.net.\t\t3600\tIN\tDNSKEY\t257 3 13 ${p256}`, 'example.net.', 3600],
    ['owner without trailing dot', `example.net 3600 IN DNSKEY 257 3 13 ${p256}`, 'example.net.', 3600],
    [
      'key split by spaces',
      `example.net. 3600 IN DNSKEY 257 3 13 ${p256.slice(0, 40)} ${p256.slice(40)}`,
      'example.net.',
      3600,
    ],
    [
      'whole record in ( )',
      `example.net. 3600 IN DNSKEY (\n 257 ; KSK\n 3\n 13\n ${p256} )`,
      'example.net.',
      3600,
    ],
    ['leading and trailing blank lines', `\n\n  257 3 13 ${p256}  \n\n`, null, null],
  ])('%s', async (_name, input, ownerName, ttl) => {
    const result = await validateDnskey(input);
    expect(result.errors).toEqual([]);
    expect(result.parsed).toMatchObject({
      ownerName,
      ttl,
      flags: 257,
      protocol: 3,
      algorithm: 13,
      keyTag: 55648,
    });
  });

  it.each([
    ['257 3 13', 'DNSKEY_FIELD_COUNT'],
    [`example.com. IN DNSKEY 257 3`, 'DNSKEY_FIELD_COUNT'],
    [`example.com. 3600 IN DNSKEY`, 'DNSKEY_FIELD_COUNT'],
    ['example.com. 3600 IN DS 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118', 'DNSKEY_WRONG_TYPE'],
    ['hello world', 'DNSKEY_FORMAT'],
    [`example.com. 3600 3600 DNSKEY 257 3 13 ${p256}`, 'DNSKEY_FORMAT'],
    [`257 3 13 ${p256}\n256 3 13 ${p256}`, 'DNSKEY_MULTIPLE_RECORDS'],
    [`example.net. 3600 IN DNSKEY ( 257 3 13 ${p256}`, 'DNSKEY_SYNTAX'],
    [`example.net. 3600 IN DNSKEY 257 3 13 ${p256} )`, 'DNSKEY_SYNTAX'],
    ['example.net. 3600 IN DNSKEY \\# 4 01010301', 'DNSKEY_GENERIC_RDATA'],
  ])('%j is rejected with %s and no parsed fields', async (input, code) => {
    const result = await validateDnskey(input);
    expect(result.valid).toBe(false);
    expect(codes(result)).toContain(code);
    expect(result.parsed).toBeUndefined();
  });

  it('names the expected format when fields are missing', async () => {
    const result = await validateDnskey('257 3 13');
    expect(result.errors[0]).toContain("'flags protocol algorithm public-key'");
    expect(diagnostic(result, 'DNSKEY_FIELD_COUNT').rfc).toBe('RFC 4034 §2.2');
  });

  it('warns about a class other than IN', async () => {
    const result = await validateDnskey(`example.net. 3600 CH DNSKEY 257 3 13 ${p256}`);
    expect(diagnostic(result, 'DNSKEY_CLASS_NOT_IN').severity).toBe('warning');
    expect(result.parsed?.keyTag).toBe(55648);
  });

  it('rejects a TTL above 2^31 - 1 (RFC 2181 §8) but still reads the key', async () => {
    const result = await validateDnskey(`example.net. 2147483648 IN DNSKEY 257 3 13 ${p256}`);
    expect(diagnostic(result, 'DNSKEY_TTL_INVALID').rfc).toBe('RFC 2181 §8');
    expect(result.parsed?.ttl).toBeNull();
  });
});

describe('validateDnskey: flags (RFC 4034 §2.1.1, RFC 5011 §7)', () => {
  it.each([
    [257, 'KSK', { zoneKey: true, secureEntryPoint: true, revoked: false }],
    [256, 'ZSK', { zoneKey: true, secureEntryPoint: false, revoked: false }],
    [0, 'Non-zone key', { zoneKey: false, secureEntryPoint: false, revoked: false }],
    [255, 'Non-zone key', { zoneKey: false, secureEntryPoint: true, revoked: true }],
    [385, 'KSK', { zoneKey: true, secureEntryPoint: true, revoked: true }],
  ])('flags %i: %s', async (flags, keyType, flagBits) => {
    const result = await validateDnskey(`example.net. 3600 IN DNSKEY ${flags} 3 13 ${p256}`);
    expect(result.parsed).toMatchObject({ flags, keyType, flagBits });
  });

  it('flags 0: no Zone Key bit is an error, and no DS is offered', async () => {
    const result = await validateDnskey(`example.net. 3600 IN DNSKEY 0 3 13 ${p256}`);
    const d = diagnostic(result, 'DNSKEY_FLAGS_NO_ZONE_KEY');
    expect(d).toMatchObject({ severity: 'error', requirement: 'MUST NOT', rfc: 'RFC 4034 §2.1.1' });
    expect(d.message).toContain('MUST NOT be used to verify RRSIGs');
    expect(result.valid).toBe(false);
    expect(result.parsed?.ds).toEqual([]);
  });

  it('flags 255: no Zone Key bit, reserved bits 9-14 set, REVOKE set', async () => {
    const result = await validateDnskey(`255 3 13 ${p256}`);
    expect(codes(result)).toEqual(
      expect.arrayContaining([
        'DNSKEY_FLAGS_NO_ZONE_KEY',
        'DNSKEY_FLAGS_RESERVED_BITS',
        'DNSKEY_FLAGS_REVOKED',
      ]),
    );
    expect(diagnostic(result, 'DNSKEY_FLAGS_RESERVED_BITS').message).toContain('9, 10, 11, 12, 13, 14');
  });

  it('flags 385: a revoked KSK is a warning and changes the key tag (55776 by hand)', async () => {
    const result = await validateDnskey(`example.net. 3600 IN DNSKEY 385 3 13 ${p256}`);
    expect(result.valid).toBe(true);
    expect(diagnostic(result, 'DNSKEY_FLAGS_REVOKED')).toMatchObject({
      severity: 'warning',
      rfc: 'RFC 5011 §2.1',
    });
    expect(result.parsed?.keyTag).toBe(55776);
  });

  it.each(['65536', '0x101', '-1', 'KSK'])('flags %j is not a 16-bit decimal', async (flags) => {
    const result = await validateDnskey(`example.net. IN DNSKEY ${flags} 3 13 ${p256}`);
    expect(codes(result)).toContain('DNSKEY_FLAGS_INVALID');
    expect(result.parsed).toBeUndefined();
  });

  it('a ZSK gets a note that the DS usually points at the KSK', async () => {
    const result = await validateDnskey(`example.net. 3600 IN DNSKEY 256 3 13 ${p256}`);
    expect(diagnostic(result, 'DNSKEY_DS_FOR_KSK').severity).toBe('info');
    expect(result.parsed?.keyTag).toBe(55647);
  });
});

describe('validateDnskey: protocol (RFC 4034 §2.1.2)', () => {
  it('protocol 2 is an error but the fields are still shown', async () => {
    const input = `257 2 13 ${p256}`;
    const result = await validateDnskey(input);
    expect(result.valid).toBe(false);
    const d = diagnostic(result, 'DNSKEY_PROTOCOL_NOT_3');
    expect(d).toMatchObject({ severity: 'error', requirement: 'MUST', rfc: 'RFC 4034 §2.1.2' });
    expect(d.message).toContain('Protocol must be 3');
    expect(d.span).toEqual({ start: 4, end: 5 });
    expect(result.parsed).toMatchObject({ protocol: 2, flags: 257, algorithm: 13 });
  });

  it('a non-numeric protocol cannot be read', async () => {
    const result = await validateDnskey(`257 three 13 ${p256}`);
    expect(result.errors[0]).toContain('Protocol must be 3');
    expect(result.parsed).toBeUndefined();
  });
});

describe('validateDnskey: algorithm (RFC 8624 §3.1, RFC 9905 §2)', () => {
  it.each([
    ['ECDSAP256SHA256', 13],
    ['ecdsap256sha256', 13],
  ])('mnemonic %s is algorithm %i', async (mnemonic, number) => {
    const result = await validateDnskey(`example.net. 3600 IN DNSKEY 257 3 ${mnemonic} ${p256}`);
    expect(result.errors).toEqual([]);
    expect(result.parsed).toMatchObject({
      algorithm: number,
      algorithmName: 'ECDSAP256SHA256',
      keyTag: 55648,
    });
    expect(result.parsed?.ds[1]?.record).toBe(
      'example.net. 3600 IN DS 55648 13 2 B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17',
    );
  });

  it('an unknown mnemonic cannot be read', async () => {
    const result = await validateDnskey(`257 3 ECDSA ${p256}`);
    expect(codes(result)).toContain('DNSKEY_ALGORITHM_INVALID');
    expect(result.parsed).toBeUndefined();
  });

  it.each([
    [200, 'Reserved'],
    [100, 'Unassigned'],
    [18, 'Unassigned'],
    [4, 'Reserved'],
    [255, 'Reserved'],
  ])('algorithm %i is %s: an error', async (algorithm, name) => {
    const result = await validateDnskey(`257 3 ${algorithm} ${p256}`);
    expect(diagnostic(result, 'DNSKEY_ALGORITHM_UNASSIGNED').severity).toBe('error');
    expect(result.parsed).toMatchObject({
      algorithm,
      algorithmName: name,
      algorithmStatus: { signing: null, validation: null },
    });
  });

  it.each([
    [1, 'RSAMD5', rsa1024Rfc, 'MUST NOT', 'RFC 8624 §3.1'],
    [5, 'RSASHA1', rsa1024Rfc, 'MUST NOT', 'RFC 9905 §2; RFC 8624 §3.1'],
    [7, 'RSASHA1-NSEC3-SHA1', rsa1024Rfc, 'MUST NOT', 'RFC 9905 §2; RFC 8624 §3.1'],
    [12, 'ECC-GOST', p256, 'MUST NOT', 'RFC 8624 §3.1'],
  ])('algorithm %i (%s) MUST NOT sign zones', async (algorithm, name, key, signing, rfc) => {
    const result = await validateDnskey(`257 3 ${algorithm} ${key}`);
    expect(diagnostic(result, 'DNSKEY_ALGORITHM_MUST_NOT')).toMatchObject({
      severity: 'error',
      requirement: 'MUST NOT',
      rfc,
    });
    expect(result.parsed).toMatchObject({ algorithmName: name, algorithmStatus: { signing, rfc } });
  });

  it('algorithm 3 (DSA) MUST NOT sign zones; its key is T, Q, P, G, Y (RFC 2536 §2)', async () => {
    const dsaKey = b64([0, ...new Array<number>(20 + 3 * 64).fill(7)]);
    const result = await validateDnskey(`257 3 3 ${dsaKey}`);
    expect(diagnostic(result, 'DNSKEY_ALGORITHM_MUST_NOT').requirement).toBe('MUST NOT');
    expect(codes(result)).not.toContain('DNSKEY_KEY_LENGTH');
    expect(result.parsed).toMatchObject({ algorithmName: 'DSA', keySize: 512, publicKeyBytes: 213 });
    const short = await validateDnskey(`257 3 3 ${b64([0, 1, 2, 3])}`);
    expect(codes(short)).toContain('DNSKEY_KEY_LENGTH');
  });

  it('algorithm 1 uses the Appendix B.1 key tag (15407 by hand from the modulus)', async () => {
    const result = await validateDnskey(`256 3 1 ${rsa1024Rfc}`);
    expect(result.parsed?.keyTag).toBe(15407);
  });

  it('algorithm 10 (RSASHA512) is NOT RECOMMENDED: a warning', async () => {
    const result = await validateDnskey(`257 3 10 ${rsa2048}`);
    expect(result.valid).toBe(true);
    expect(diagnostic(result, 'DNSKEY_ALGORITHM_NOT_RECOMMENDED')).toMatchObject({
      severity: 'warning',
      requirement: 'SHOULD NOT',
    });
    expect(result.parsed?.algorithmStatus).toEqual({
      signing: 'NOT RECOMMENDED',
      validation: 'MUST',
      rfc: 'RFC 8624 §3.1',
    });
  });

  it.each([
    [8, 'RSASHA256', rsa2048, { signing: 'MUST', validation: 'MUST' }],
    [13, 'ECDSAP256SHA256', p256, { signing: 'MUST', validation: 'MUST' }],
    [15, 'ED25519', ed25519, { signing: 'RECOMMENDED', validation: 'RECOMMENDED' }],
  ])('algorithm %i (%s) is fine and its level is shown', async (algorithm, name, key, status) => {
    const result = await validateDnskey(`257 3 ${algorithm} ${key}`);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(diagnostic(result, 'DNSKEY_ALGORITHM_STATUS').severity).toBe('info');
    expect(result.parsed).toMatchObject({
      algorithmName: name,
      algorithmStatus: { ...status, rfc: 'RFC 8624 §3.1' },
    });
  });

  it('algorithm 0 is not a signing algorithm (the CDNSKEY delete form)', async () => {
    const result = await validateDnskey('0 3 0 AA==');
    expect(diagnostic(result, 'DNSKEY_ALGORITHM_NOT_FOR_ZONES').message).toContain('RFC 8078');
    expect(result.parsed?.algorithmName).toBe('DELETE');
  });

  it.each([
    [253, 'DNSKEY_ALGORITHM_PRIVATE', 'PRIVATEDNS'],
    [17, 'DNSKEY_ALGORITHM_NO_RECOMMENDATION', 'SM2SM3'],
    [23, 'DNSKEY_ALGORITHM_NO_RECOMMENDATION', 'ECC-GOST12'],
  ])('algorithm %i warns with %s', async (algorithm, code, name) => {
    const result = await validateDnskey(`257 3 ${algorithm} ${p256}`);
    expect(diagnostic(result, code).severity).toBe('warning');
    expect(result.parsed?.algorithmName).toBe(name);
  });
});

describe('validateDnskey: public key', () => {
  it.each(['AQO*&', 'AQO', 'AQOe iiR0-', 'AQ=O'])('%j is not base64', async (key) => {
    const result = await validateDnskey(`257 3 8 ${key}`);
    expect(diagnostic(result, 'DNSKEY_KEY_BASE64').severity).toBe('error');
    expect(result.parsed).toBeUndefined();
  });

  it('P-256 key of 63 octets', async () => {
    const key = b64(fromB64(p256).slice(0, 63));
    const result = await validateDnskey(`257 3 13 ${key}`);
    expect(diagnostic(result, 'DNSKEY_KEY_LENGTH')).toMatchObject({ rfc: 'RFC 6605 §4', severity: 'error' });
    expect(result.errors[0]).toContain('64 octets');
    expect(result.parsed).toMatchObject({ publicKeyBytes: 63, keySize: null });
  });

  it('P-256 key with the 0x04 point prefix gets a precise fix', async () => {
    const key = b64([4, ...fromB64(p256)]);
    const result = await validateDnskey(`257 3 13 ${key}`);
    expect(diagnostic(result, 'DNSKEY_KEY_LENGTH').fix).toContain('0x04');
  });

  it('P-256 key that is not a curve point', async () => {
    const bytes = fromB64(p256);
    bytes[63] = (bytes[63] ?? 0) ^ 1;
    const result = await validateDnskey(`257 3 13 ${b64(bytes)}`);
    expect(diagnostic(result, 'DNSKEY_ECDSA_POINT_INVALID').severity).toBe('error');
  });

  it('P-384 needs 96 octets', async () => {
    const result = await validateDnskey(`257 3 14 ${p256}`);
    expect(result.errors[0]).toContain('96 octets');
  });

  it.each([
    [15, 'Ed25519', 31, 32],
    [16, 'Ed448', 32, 57],
  ])('algorithm %i (%s): %i octets instead of %i', async (algorithm, _name, length, expected) => {
    const key = b64(new Array<number>(length).fill(9));
    const result = await validateDnskey(`257 3 ${algorithm} ${key}`);
    expect(diagnostic(result, 'DNSKEY_KEY_LENGTH').rfc).toBe('RFC 8080 §3');
    expect(result.errors[0]).toContain(`${expected} octets`);
  });

  it.each([
    ['exponent longer than the key', 'AwEA', 'DNSKEY_RSA_TRUNCATED'],
    ['long length form cut short', 'AAE=', 'DNSKEY_RSA_TRUNCATED'],
    ['exponent but no modulus', 'AQM=', 'DNSKEY_RSA_MODULUS_MISSING'],
  ])('RSA: %s', async (_name, key, code) => {
    const result = await validateDnskey(`257 3 8 ${key}`);
    expect(diagnostic(result, code)).toMatchObject({ severity: 'error', rfc: 'RFC 3110 §2' });
    expect(result.parsed?.keySize).toBeNull();
  });

  it('RSA: even exponent, even modulus and leading zero are errors', async () => {
    const bytes = fromB64(rsa2048);
    const even = [...bytes];
    even[3] = 0; // exponent 0x010000
    even[even.length - 1] = (even[even.length - 1] ?? 0) & 0xfe;
    const result = await validateDnskey(`257 3 8 ${b64(even)}`);
    expect(codes(result)).toEqual(
      expect.arrayContaining(['DNSKEY_RSA_EXPONENT_INVALID', 'DNSKEY_RSA_MODULUS_EVEN']),
    );
    const zero = [bytes[0] ?? 0, ...bytes.slice(1, 4), 0, ...bytes.slice(4)];
    const padded = await validateDnskey(`257 3 8 ${b64(zero)}`);
    expect(diagnostic(padded, 'DNSKEY_RSA_LEADING_ZERO').requirement).toBe('MUST NOT');
  });

  it('RSA 2048 bits with RSASHA256 passes', async () => {
    const result = await validateDnskey(`example.org. 3600 IN DNSKEY 257 3 8 ${rsa2048}`);
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(result.parsed).toMatchObject({ keySize: 2048, keyTag: 23891 });
    expect(result.parsed?.ds[1]?.digest).toBe(
      'CE264024AECDEB66B6E0745B989672CE9428C585B3CC345D57C678E37C1E89AF',
    );
  });

  it('RSA 1024 bits is a warning (NIST SP 800-131A)', async () => {
    const result = await validateDnskey(`rsa.example. 3600 IN DNSKEY 257 3 8 ${rsa1024}`);
    expect(result.valid).toBe(true);
    expect(diagnostic(result, 'DNSKEY_RSA_KEY_WEAK')).toMatchObject({
      severity: 'warning',
      rfc: 'NIST SP 800-131A Rev. 2 §3',
    });
    expect(result.parsed).toMatchObject({ keySize: 1024, keyTag: 32545 });
    expect(result.parsed?.ds.map((d) => d.digest)).toEqual([
      '45BA8AA6BDD121653333B05D8001CBF3900C8922',
      '02DB1AD13F14C4F7D3059B0BBFEABCCEF1B9554AC553D794C5E731793305A722',
      '56D601F7F26DC89FFD9746CB84DE7100BCF666F66AAA7522DAE0A86F99FBBA601E4AA07AA5DFDF073E96FAAE12A79C23',
    ]);
  });

  it('RSA 768 bits is an error; with RSASHA512 it breaks RFC 5702 §2.2', async () => {
    const sha256 = await validateDnskey(`257 3 8 ${rsa768}`);
    expect(diagnostic(sha256, 'DNSKEY_RSA_KEY_TOO_SMALL').severity).toBe('error');
    expect(sha256.parsed).toMatchObject({ keySize: 768, keyTag: 40051 });
    const sha512 = await validateDnskey(`257 3 10 ${rsa768}`);
    expect(diagnostic(sha512, 'DNSKEY_RSA_KEY_TOO_SMALL')).toMatchObject({
      requirement: 'MUST NOT',
      rfc: 'RFC 5702 §2.2',
    });
  });

  it('RSA over 4096 bits is an error', async () => {
    const key = b64([3, 1, 0, 1, 0xc1, ...new Array<number>(512).fill(0x55)]);
    const result = await validateDnskey(`257 3 8 ${key}`);
    expect(diagnostic(result, 'DNSKEY_RSA_KEY_TOO_LARGE').requirement).toBe('MUST NOT');
    expect(result.parsed?.keySize).toBe(4104);
  });
});

describe('validateDnskey: DS records (RFC 4034 §5.1.4, RFC 8624 §3.3)', () => {
  it('without an owner name there is no DS, and an info diagnostic shows the full-line form', async () => {
    const result = await validateDnskey(`257 3 13 ${p256}`);
    expect(result.valid).toBe(true);
    expect(result.parsed?.ds).toEqual([]);
    const d = diagnostic(result, 'DNSKEY_DS_NEEDS_OWNER');
    expect(d.severity).toBe('info');
    expect(d.fix).toContain('IN DNSKEY 257 3 13');
  });

  it("'@' cannot name the owner", async () => {
    const result = await validateDnskey(`@ 3600 IN DNSKEY 257 3 13 ${p256}`);
    expect(codes(result)).toEqual(expect.arrayContaining(['DNSKEY_OWNER_ORIGIN', 'DNSKEY_DS_NEEDS_OWNER']));
    expect(result.parsed?.ownerName).toBeNull();
  });

  it('an invalid owner name is an error, yet the key is still shown', async () => {
    const result = await validateDnskey(`${'a'.repeat(64)}.example. 3600 IN DNSKEY 257 3 13 ${p256}`);
    expect(diagnostic(result, 'DNSKEY_OWNER_INVALID').message).toContain('63');
    expect(result.parsed).toMatchObject({ ownerName: null, keyTag: 55648, ds: [] });
  });

  it('upper- and lower-case owners give identical DS (canonical form, RFC 4034 §6.2)', async () => {
    const lower = await validateDnskey(`example.net. 3600 IN DNSKEY 257 3 13 ${p256}`);
    const upper = await validateDnskey(`EXAMPLE.Net. 3600 IN DNSKEY 257 3 13 ${p256}`);
    expect(upper.parsed?.ownerName).toBe('example.net.');
    expect(upper.parsed?.ds).toEqual(lower.parsed?.ds);
    expect(upper.parsed?.ds[1]?.digest).toBe(
      'B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17',
    );
  });

  it('an escaped dot stays inside the label (C5F7… by hand over 03 a.b 07 example 00)', async () => {
    const result = await validateDnskey(`a\\.b.example. IN DNSKEY 257 3 13 ${p256}`);
    expect(result.parsed?.ownerName).toBe('a\\.b.example.');
    expect(result.parsed?.ds[1]?.record).toBe(
      'a\\.b.example. IN DS 55648 13 2 C5F7E455B9387501D25C1EF51B88307067E59D6BA02E6A64C6B1BDF32130FD5C',
    );
  });

  it('without a TTL the DS line has none', async () => {
    const result = await validateDnskey(`example.net. IN DNSKEY 257 3 13 ${p256}`);
    expect(result.parsed?.ds[1]?.record).toBe(
      'example.net. IN DS 55648 13 2 B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17',
    );
  });

  it('marks each digest type with its delegation requirement', async () => {
    const result = await validateDnskey(`example.net. 3600 IN DNSKEY 257 3 13 ${p256}`);
    expect(result.parsed?.ds.map((d) => [d.digestType, d.digestName, d.requirement])).toEqual([
      [1, 'SHA-1', 'MUST NOT'],
      [2, 'SHA-256', 'MUST'],
      [4, 'SHA-384', 'MAY'],
    ]);
    expect(diagnostic(result, 'DNSKEY_DS_SHA1')).toMatchObject({ severity: 'info', rfc: 'RFC 8624 §3.3' });
    expect(result.warnings).toEqual([]);
  });
});

describe('validateDnskey: result shape', () => {
  it('errors and warnings are the messages of the diagnostics', async () => {
    const result = await validateDnskey(`example.net. 3600 IN DNSKEY 385 2 10 ${rsa1024}`);
    expect(result.errors).toEqual(
      result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    );
    expect(result.warnings).toEqual(
      result.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message),
    );
    expect(result.valid).toBe(false);
  });

  it('every diagnostic has a stable DNSKEY_ code, and every error or warning says how to fix it', async () => {
    const inputs = [
      `0 2 200 ${p256}`,
      `255 3 5 AwEA`,
      `257 3 13 ${b64([1, 2])}`,
      `example.net. 9 CH DNSKEY 385 3 10 ${rsa768}`,
    ];
    for (const input of inputs) {
      for (const d of (await validateDnskey(input)).diagnostics) {
        expect(d.code).toMatch(/^DNSKEY_[A-Z0-9_]+$/);
        if (d.severity !== 'info') expect(d.fix, d.code).toBeTruthy();
        if (d.severity !== 'info') expect(d.rfc, d.code).toBeTruthy();
      }
    }
  });
});
