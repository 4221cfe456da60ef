import { beforeAll, describe, expect, it } from 'vitest';
import { ed25519Key, rsaSpki } from './test-keys.ts';
import { validateDkimRecord } from './validate.ts';

const keys: Record<string, string> = {};

beforeAll(async () => {
  for (const bits of [512, 1024, 2048, 4096]) keys[`rsa${bits}`] = await rsaSpki(bits);
  const ed = await ed25519Key();
  keys.ed25519 = ed.raw;
  keys.ed25519Spki = ed.spki;
});

/** `{rsa2048}` and friends in a record template become the generated keys. */
function fill(template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => keys[name] ?? '');
}

describe('validateDkimRecord', () => {
  it.each([
    ['v=DKIM1; k=rsa; p={rsa2048}', 'valid', 2048, [], []],
    ['v=DKIM1; p={rsa4096}', 'valid', 4096, [], []],
    ['v=DKIM1; k=rsa; p={rsa1024}', 'valid', 1024, [], ['DKIM_RSA_SHORT']],
    ['v=DKIM1; k=rsa; p={rsa512}', 'invalid', 512, ['DKIM_RSA_TOO_SHORT'], []],
    ['v=DKIM1; k=ed25519; p={ed25519}', 'valid', 256, [], []],
    ['v=DKIM1; k=ed25519; p={ed25519Spki}', 'invalid', null, ['DKIM_ED25519_SPKI'], []],
    ['v=DKIM1; k=ed25519; p={rsa2048}', 'invalid', null, ['DKIM_ED25519_LENGTH'], []],
    ['v=DKIM1; p={ed25519}', 'invalid', null, ['DKIM_KEY_TYPE_MISMATCH'], []],
    ['v=DKIM1; k=RSA; p={rsa2048}', 'invalid', null, ['DKIM_KEY_TYPE_UNKNOWN'], []],
    ['v=DKIM1; k=rsa; p=', 'revoked', null, ['DKIM_KEY_REVOKED'], []],
    ['v=DKIM1; k=rsa; p=  ', 'revoked', null, ['DKIM_KEY_REVOKED'], []],
    ['v=DKIM1; k=rsa', 'invalid', null, ['DKIM_PUBLIC_KEY_MISSING'], []],
    ['v=DKIM2; p={rsa2048}', 'invalid', 2048, ['DKIM_VERSION_INVALID'], []],
    ['p={rsa2048}; v=DKIM1', 'invalid', 2048, ['DKIM_VERSION_NOT_FIRST'], []],
    ['v=DKIM1; p={rsa2048}; p={rsa2048}', 'invalid', null, ['DKIM_DUPLICATE_TAG'], []],
    ['v=DKIM1;; p={rsa2048}', 'invalid', null, ['DKIM_EMPTY_TAG'], []],
    ['v=DKIM1; garbage; p={rsa2048}', 'invalid', null, ['DKIM_TAG_SYNTAX'], []],
    ['v=DKIM1; 1x=y; p={rsa2048}', 'invalid', null, ['DKIM_TAG_NAME'], []],
    ['v=DKIM1; n=caf\u00e9; p={rsa2048}', 'invalid', null, ['DKIM_TAG_VALUE_CHARACTER'], []],
    ['v=DKIM1; p=abc$', 'invalid', null, ['DKIM_PUBLIC_KEY_BASE64'], []],
    ['v=DKIM1; h=sha1; p={rsa2048}', 'valid', 2048, [], ['DKIM_HASH_SHA1_ONLY']],
    ['v=DKIM1; h=sha1:sha256; p={rsa2048}', 'valid', 2048, [], ['DKIM_HASH_SHA1']],
    ['v=DKIM1; h=md5; p={rsa2048}', 'valid', 2048, [], ['DKIM_HASH_NONE_KNOWN']],
    ['v=DKIM1; s=tlsrpt; p={rsa2048}', 'valid', 2048, [], ['DKIM_SERVICE_NOT_EMAIL']],
    ['v=DKIM1; s=email:tlsrpt; p={rsa2048}', 'valid', 2048, [], []],
  ])('%s → %s', (template, status, keySize, errorCodes, warningCodes) => {
    const result = validateDkimRecord(fill(template));
    expect(result.parsed?.status ?? 'invalid').toBe(status);
    expect(result.valid).toBe(status === 'valid');
    if (result.parsed) expect(result.parsed.keySize).toBe(keySize);
    const codes = (severity: string) =>
      result.diagnostics.filter((d) => d.severity === severity).map((d) => d.code);
    expect(codes('error')).toEqual(errorCodes);
    expect(codes('warning')).toEqual(warningCodes);
    expect(result.errors).toHaveLength(errorCodes.length);
  });

  it('cites RFC 8301 for a key under 1024 bits', () => {
    const result = validateDkimRecord(fill('v=DKIM1; k=rsa; p={rsa512}'));
    const finding = result.diagnostics.find((d) => d.code === 'DKIM_RSA_TOO_SHORT');
    expect(finding).toMatchObject({ requirement: 'MUST NOT', rfc: 'RFC 8301 §3.2' });
    expect(finding?.message).toContain('512 bits');
  });

  it('reads the tags, flags, notes and defaults', () => {
    const result = validateDkimRecord(fill('v=DKIM1; k=rsa; t=y:s:x; n=notes here; foo=bar; p={rsa2048}'));
    expect(result.tags).toMatchObject({ v: 'DKIM1', k: 'rsa', t: 'y:s:x', n: 'notes here', foo: 'bar' });
    expect(result.parsed).toMatchObject({
      flags: ['y', 's', 'x'],
      notes: 'notes here',
      serviceTypes: ['*'],
      hashAlgorithms: null,
      keyEncoding: 'spki',
    });
    const infos = result.diagnostics.filter((d) => d.severity === 'info').map((d) => d.code);
    expect(infos).toEqual(
      expect.arrayContaining([
        'DKIM_TESTING',
        'DKIM_STRICT_IDENTITY',
        'DKIM_FLAG_UNKNOWN',
        'DKIM_NOTES',
        'DKIM_TAG_UNKNOWN',
      ]),
    );
  });

  it('joins a key split over quoted strings in a zone-file line', () => {
    const record = fill('v=DKIM1; k=rsa; p={rsa2048}');
    const parts = [record.slice(0, 200), record.slice(200)];
    const zone = `sel._domainkey.example.com. 3600 IN TXT (\n  "${parts[0]}"\n  "${parts[1]}" ) ; comment`;
    const result = validateDkimRecord(zone);
    expect(result.valid).toBe(true);
    expect(result.parsed).toMatchObject({
      record,
      strings: 2,
      ownerName: 'sel._domainkey.example.com.',
      keySize: 2048,
    });
    expect(validateDkimRecord(`"${parts[0]}" "${parts[1]}"`).parsed?.record).toBe(record);
  });

  it('points spans into the pasted text', () => {
    const input = '"v=DKIM1; k=rsa; " "h=sha1; p="';
    const result = validateDkimRecord(input);
    const sha1 = result.diagnostics.find((d) => d.code === 'DKIM_HASH_SHA1_ONLY');
    expect(input.slice(sha1?.span?.start, sha1?.span?.end)).toBe('sha1');
  });

  it('reports an empty record and unreadable zone text', () => {
    expect(validateDkimRecord('   ').errors).toEqual(['DKIM record is required']);
    expect(validateDkimRecord('"v=DKIM1; p=abc').diagnostics[0]?.code).toBe('DKIM_ZONE_SYNTAX');
  });
});
