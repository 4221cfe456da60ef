import { describe, expect, it } from 'vitest';
import type { OpenPgpVerification, OpenPgpVerifier } from './signature.ts';
import { signedFile } from './test-fixtures.ts';
import { validateSecurityTxt, type SecurityTxtValidationResult } from './validate.ts';

const now = new Date('2026-06-15T12:00:00Z');
const soon = '2026-09-01T00:00:00Z';

function file(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

async function validate(text: string | Uint8Array, options = {}) {
  return validateSecurityTxt(text, { now, ...options });
}

function found(result: SecurityTxtValidationResult) {
  return result.diagnostics.map((d) => [d.code, d.severity, d.line ?? null]);
}

function diagnostic(result: SecurityTxtValidationResult, code: string) {
  const match = result.diagnostics.find((d) => d.code === code);
  if (!match) throw new Error(`no ${code} in ${result.diagnostics.map((d) => d.code).join(', ')}`);
  return match;
}

describe('validateSecurityTxt: a good file', () => {
  it('is valid, recommends signing, and reports what it read', async () => {
    const result = await validate(
      file(
        'Contact: mailto:security@example.com',
        'Contact: tel:+1-201-555-0123',
        'Encryption: openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f',
        `Expires: ${soon}`,
        'Preferred-Languages: en, nl',
        'X-Custom: yes',
      ),
    );
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual(['The file is not digitally signed']);
    expect(found(result)).toEqual([
      ['unknown_field', 'info', 6],
      ['not_signed', 'warning', null],
    ]);
    expect(result.parsed).toEqual({
      signed: false,
      fields: [
        { name: 'Contact', value: 'mailto:security@example.com', line: 1, known: true },
        { name: 'Contact', value: 'tel:+1-201-555-0123', line: 2, known: true },
        {
          name: 'Encryption',
          value: 'openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f',
          line: 3,
          known: true,
        },
        { name: 'Expires', value: soon, line: 4, known: true },
        { name: 'Preferred-Languages', value: 'en, nl', line: 5, known: true },
        { name: 'X-Custom', value: 'yes', line: 6, known: false },
      ],
      expires: { value: soon, line: 4, date: '2026-09-01T00:00:00.000Z' },
      preferredLanguages: ['en', 'nl'],
      signature: null,
    });
  });

  it('cites RFC 9116 with a requirement level and a fix', async () => {
    const result = await validate(file('Contact: https://example.com/c', `Expires: ${soon}`));
    expect(diagnostic(result, 'not_signed')).toMatchObject({
      severity: 'warning',
      requirement: 'SHOULD',
      rfc: 'RFC 9116 §2.3',
      fix: expect.stringContaining('gpg --clearsign'),
    });
  });
});

describe('validateSecurityTxt: required fields', () => {
  it('requires Contact and Expires', async () => {
    const result = await validate('# nothing here\n');
    expect(found(result)).toEqual([
      ['no_expire', 'error', null],
      ['no_contact', 'error', null],
      ['not_signed', 'warning', null],
    ]);
    expect(result.errors).toEqual(['The Expires field is missing', 'The Contact field is missing']);
    expect(diagnostic(result, 'no_contact')).toMatchObject({ requirement: 'MUST', rfc: 'RFC 9116 §2.5.3' });
  });

  it('allows Expires once and points at the second one', async () => {
    const result = await validate(
      file('Contact: https://example.com/c', `Expires: ${soon}`, `expires: ${soon}`),
    );
    expect(diagnostic(result, 'multi_expire')).toMatchObject({
      severity: 'error',
      line: 3,
      requirement: 'MUST NOT',
      message: 'Expires appears 2 times (lines 2, 3); it must appear once',
    });
  });

  it('allows Preferred-Languages once', async () => {
    const result = await validate(
      file(
        'Contact: https://example.com/c',
        `Expires: ${soon}`,
        'Preferred-Languages: en',
        'Preferred-Languages: nl',
      ),
    );
    expect(diagnostic(result, 'multi_lang')).toMatchObject({ severity: 'error', line: 4 });
  });
});

describe('validateSecurityTxt: Expires', () => {
  const expires = async (value: string, clock = now) =>
    found(await validate(file('Contact: https://example.com/c', `Expires: ${value}`), { now: clock })).filter(
      ([code]) => code !== 'not_signed',
    );

  it.each([
    '2026-09-01T00:00:00Z',
    '2026-09-01t00:00:00z',
    '2026-09-01T02:00:00+02:00',
    '2026-09-01T00:00:00.123456Z',
    '2026-08-31T19:00:00-05:00',
  ])('accepts %s', async (value) => {
    expect(await expires(value)).toEqual([]);
  });

  it.each([
    'Nonsense',
    '2026-09-01',
    '2026-09-01T00:00:00',
    '2026-09-01T00:00Z',
    'Tue, 01 Sep 2026 00:00:00 +0000',
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-09-01T24:00:00Z',
    '2026-09-01T00:00:00+24:00',
  ])('rejects %s as invalid_expiry on its line, and nothing else', async (value) => {
    expect(await expires(value)).toEqual([['invalid_expiry', 'error', 2]]);
  });

  it('accepts a space between date and time with a warning (RFC 3339 §5.6 note)', async () => {
    expect(await expires('2026-09-01 00:00:00Z')).toEqual([['expires_space_separator', 'warning', 2]]);
  });

  it('reports a past date as expired', async () => {
    expect(await expires('2026-06-15T11:59:59Z')).toEqual([['expired', 'error', 2]]);
    expect(await expires('2026-06-15T12:00:00Z')).toEqual([]);
  });

  it('recommends less than a calendar year ahead', async () => {
    expect(await expires('2027-06-15T12:00:00Z')).toEqual([]);
    expect(await expires('2027-06-15T12:00:01Z')).toEqual([['long_expiry', 'warning', 2]]);
  });

  it('counts a year from 29 February to 28 February, as sectxt does', async () => {
    const leapDay = new Date('2028-02-29T00:00:00Z');
    expect(await expires('2029-02-28T00:00:00Z', leapDay)).toEqual([]);
    expect(await expires('2029-02-28T00:00:01Z', leapDay)).toEqual([['long_expiry', 'warning', 2]]);
  });
});

describe('validateSecurityTxt: URI fields', () => {
  const uri = async (line: string) =>
    found(await validate(file(`Expires: ${soon}`, 'Encryption: https://example.com/k', line))).filter(
      ([code]) => code !== 'not_signed',
    );

  it.each([
    'Contact: mailto:security@example.com',
    'Contact: https://example.com/security?lang=en#form',
    'Contact: tel:+1-201-555-0123',
    'Encryption: dns:5d2d37ab76d47d36._openpgpkey.example.com?type=OPENPGPKEY',
    'Policy: https://[2001:db8::1]:8443/policy',
    'Acknowledgments: https://example.com/hall%20of%20fame',
  ])('accepts %s', async (line) => {
    expect(await uri(line.startsWith('Contact') ? line : `${line}\nContact: https://example.com/c`)).toEqual(
      [],
    );
  });

  it('requires https for web URIs, in every URI field', async () => {
    for (const name of ['Acknowledgments', 'Canonical', 'Contact', 'Encryption', 'Hiring', 'Policy']) {
      const findings = await uri(`${name}: HTTP://example.com/x\nContact: https://example.com/c`);
      expect(findings).toEqual([['no_https', 'error', 3]]);
    }
  });

  it('says that a bare email address needs mailto:', async () => {
    const result = await validate(file(`Expires: ${soon}`, 'Contact: security@example.com'));
    expect(diagnostic(result, 'no_uri')).toMatchObject({
      line: 2,
      message: "Contact value 'security@example.com' is not a URI: an email address needs mailto:",
      fix: "Write 'mailto:security@example.com'.",
    });
  });

  it.each([
    ['a space', 'Contact: https://example.com/a b', /cannot contain a space/],
    ['a non-ASCII character', 'Contact: https://exämple.com/', /cannot contain 'ä'/],
    ['a bad percent escape', 'Contact: https://example.com/%zz', /percent-encoded/],
    ['an https URI without host', 'Contact: https:/security', /needs a host/],
    ['an unclosed IPv6 literal', 'Contact: https://[::1/report', /host or port/],
    ['a port out of range', 'Contact: https://example.com:99999/', /host or port/],
    ['a mailto: without address', 'Contact: mailto:', /email address/],
    ['a tel: without number', 'Contact: tel:call-us', /phone number/],
  ])('reports %s as invalid_uri', async (_name, line, message) => {
    const result = await validate(file(`Expires: ${soon}`, line));
    expect(diagnostic(result, 'invalid_uri')).toMatchObject({
      severity: 'error',
      line: 2,
      message: expect.stringMatching(message),
    });
  });

  it('recommends Encryption when a contact is an email address, and only then', async () => {
    const withMail = await validate(file(`Expires: ${soon}`, 'Contact: MAILTO:security@example.com'));
    expect(diagnostic(withMail, 'no_encryption')).toMatchObject({
      severity: 'warning',
      requirement: 'SHOULD',
    });
    const withoutMail = await validate(file(`Expires: ${soon}`, 'Contact: tel:+31-70-123-4567'));
    expect(withoutMail.diagnostics.some((d) => d.code === 'no_encryption')).toBe(false);
  });

  it('requires CSAF to name provider-metadata.json and advises one CSAF field', async () => {
    const result = await validate(
      file(
        `Expires: ${soon}`,
        'Contact: https://example.com/c',
        'CSAF: https://example.com/.well-known/csaf/provider-metadata.json',
        'CSAF: https://example.com/csaf/other.json',
      ),
    );
    expect(found(result)).toEqual([
      ['no_csaf_file', 'error', 4],
      ['multiple_csaf_fields', 'warning', 4],
      ['not_signed', 'warning', null],
    ]);
  });
});

describe('validateSecurityTxt: Preferred-Languages', () => {
  const languages = async (value: string) =>
    (
      await validate(
        file('Contact: https://example.com/c', `Expires: ${soon}`, `Preferred-Languages: ${value}`),
      )
    ).diagnostics
      .filter((d) => d.code === 'invalid_lang')
      .map((d) => d.message);

  it.each([
    'en',
    'EN, nl',
    'en,nl,fr-CA',
    'zh-Hant-TW',
    'sr-Latn-RS',
    'de-CH-1996',
    'es-419',
    'i-klingon',
    'x-whatever',
    'en-US-x-twain',
  ])('accepts %s', async (value) => {
    expect(await languages(value)).toEqual([]);
  });

  it.each([
    [
      'English',
      "Preferred-Languages: 'English' is not a registered language subtag: use the 2- or 3-letter code, e.g. 'en' for English",
    ],
    ['e', "Preferred-Languages: 'e' is not a well-formed language tag (RFC 5646 §2.1)"],
    ['en_US', "Preferred-Languages: 'en_US' is not a well-formed language tag (RFC 5646 §2.1)"],
    ['abcd', "Preferred-Languages: 'abcd': 4-letter primary language subtags are reserved (RFC 5646 §2.2.1)"],
    ['de-DE-1996-1996', "Preferred-Languages: 'de-DE-1996-1996' repeats a variant subtag (RFC 5646 §2.2.5)"],
    [
      'en-a-bbb-a-ccc',
      "Preferred-Languages: 'en-a-bbb-a-ccc' repeats an extension singleton (RFC 5646 §2.2.6)",
    ],
    ['en,,nl', 'Preferred-Languages: an empty entry between commas'],
  ])('rejects %s', async (value, message) => {
    expect(await languages(value)).toEqual([message]);
  });
});

describe('validateSecurityTxt: unknown fields', () => {
  it('notes them and suggests the registered name they resemble', async () => {
    const result = await validate(
      file(
        'Contact: https://example.com/c',
        `Expires: ${soon}`,
        'Acknowledgements: https://example.com/thanks',
        'Signature: x',
      ),
    );
    expect(found(result)).toEqual([
      ['unknown_field', 'info', 3],
      ['unknown_field', 'info', 4],
      ['not_signed', 'warning', null],
    ]);
    expect(result.diagnostics[0]?.fix).toBe(
      "Did you mean 'Acknowledgments'? As written, the field has no effect.",
    );
    expect(result.diagnostics[1]?.fix).toMatch(/^Keep it only if/);
    expect(result.valid).toBe(true);
  });
});

describe('validateSecurityTxt: signed files', () => {
  const text = signedFile(soon);

  it('reads the signature and says it was not verified without a key', async () => {
    const result = await validate(text);
    expect(found(result)).toEqual([['signature_not_verified', 'info', 8]]);
    expect(result.valid).toBe(true);
    expect(diagnostic(result, 'signature_not_verified').message).toBe(
      "The signature was not verified: supply the signer's public key to check it. It names key ID 3B3880F3281B5D1D as the signer.",
    );
    expect(result.parsed?.signature).toEqual({
      hashes: ['SHA256'],
      signers: [
        {
          keyId: '3B3880F3281B5D1D',
          fingerprint: null,
          hashAlgorithm: 'SHA256',
          created: '2023-07-31T08:32:44.000Z',
        },
      ],
      verification: null,
    });
  });

  it('recommends Canonical in a signed file', async () => {
    const result = await validate(
      text.replace('Canonical: https://example.com/.well-known/security.txt\n', ''),
    );
    expect(found(result)).toContainEqual(['no_canonical', 'warning', null]);
  });

  /** A verifier with a fixed answer, recording what it was asked. */
  function answering(verification: OpenPgpVerification) {
    const calls: [string, string][] = [];
    const verifier: OpenPgpVerifier = {
      async verifyCleartext(message, key) {
        calls.push([message, key]);
        return verification;
      },
    };
    return { verifier, calls };
  }

  it('hands the verifier the signed message and the key, and reports a good signature', async () => {
    const { verifier, calls } = answering({
      status: 'good',
      keyId: '3B3880F3281B5D1D',
      fingerprint: 'ABCD',
      created: '2023-07-31T08:32:44.000Z',
      userIds: ['Security <security@example.com>'],
    });
    const result = await validate(text, { publicKey: 'KEY', verifier });
    expect(calls).toEqual([[text, 'KEY']]);
    expect(diagnostic(result, 'signature_good').message).toBe(
      'Good signature from key ABCD (Security <security@example.com>), made 2023-07-31T08:32:44.000Z',
    );
    expect(result.valid).toBe(true);
    expect(result.parsed?.signature?.verification?.status).toBe('good');
  });

  it.each([
    [{ status: 'bad', keyId: 'K', reason: 'Signed digest did not match' }, 'signature_bad', 'error', false],
    [
      { status: 'wrong-key', signerKeyIds: ['A'], suppliedKeyIds: ['B'] },
      'signature_wrong_key',
      'error',
      false,
    ],
    [{ status: 'key-invalid', reason: 'Misformed armored text' }, 'public_key_invalid', 'warning', true],
    [{ status: 'unreadable', reason: 'broken' }, 'pgp_error', 'error', false],
  ] satisfies [OpenPgpVerification, string, string, boolean][])(
    'maps %o to %s',
    async (verification, code, severity, valid) => {
      const result = await validate(text, { publicKey: 'KEY', verifier: answering(verification).verifier });
      expect(diagnostic(result, code).severity).toBe(severity);
      expect(result.valid).toBe(valid);
    },
  );

  it('does not call the verifier when the signature block is broken', async () => {
    const { verifier, calls } = answering({
      status: 'good',
      keyId: 'x',
      fingerprint: 'x',
      created: null,
      userIds: [],
    });
    const broken = text.replace('-----END PGP SIGNATURE-----\n', '');
    const result = await validate(broken, { publicKey: 'KEY', verifier });
    expect(calls).toEqual([]);
    expect(result.valid).toBe(false);
  });

  it('ignores a blank key', async () => {
    const { verifier, calls } = answering({
      status: 'good',
      keyId: 'x',
      fingerprint: 'x',
      created: null,
      userIds: [],
    });
    const result = await validate(text, { publicKey: '  \n', verifier });
    expect(calls).toEqual([]);
    expect(found(result)).toEqual([['signature_not_verified', 'info', 8]]);
  });
});

describe('validateSecurityTxt: where a fetched file came from (RFC 9116 §3)', () => {
  const text = file(
    'Canonical: https://example.com/.well-known/security.txt',
    'Contact: https://example.com/c',
    `Expires: ${soon}`,
  );
  const sourced = async (source: object) =>
    found(await validate(text, { source })).filter(([code]) => code !== 'not_signed');

  it('accepts the well-known https location served as text/plain; charset=utf-8', async () => {
    expect(
      await sourced({
        urls: ['https://example.com/.well-known/security.txt'],
        contentType: 'text/plain; charset=utf-8',
      }),
    ).toEqual([]);
    expect(
      await sourced({
        urls: ['https://EXAMPLE.com:443/.well-known/security.txt'],
        contentType: 'Text/Plain; Charset="UTF-8"',
      }),
    ).toEqual([]);
    expect(await sourced({ contentType: 'text/plain; charset=csutf8' })).toEqual([]);
  });

  it('reports the legacy location, plain http and a bad certificate', async () => {
    expect(
      await sourced({
        urls: ['http://example.com/security.txt', 'https://example.com/.well-known/security.txt'],
        certificateError: 'certificate has expired',
      }),
    ).toEqual([
      ['location', 'error', null],
      ['invalid_uri_scheme', 'error', null],
      ['invalid_cert', 'error', null],
    ]);
  });

  it('checks the Content-Type header', async () => {
    expect(await sourced({ contentType: null })).toEqual([['no_content_type', 'error', null]]);
    expect(await sourced({ contentType: 'text/html; charset=utf-8' })).toEqual([
      ['invalid_media', 'error', null],
    ]);
    expect(await sourced({ contentType: 'text/plain; charset=iso-8859-1' })).toEqual([
      ['invalid_charset', 'error', null],
    ]);
    expect(await sourced({ contentType: 'text/plain' })).toEqual([['no_charset', 'warning', null]]);
  });

  it('requires Canonical to list the first or the last URL of the redirect chain', async () => {
    expect(
      await sourced({ urls: ['https://example.com/.well-known/security.txt', 'https://example.com/x'] }),
    ).toEqual([]);
    expect(
      await sourced({
        urls: [
          'https://example.com/x',
          'https://example.com/y',
          'https://example.com/.well-known/security.txt',
        ],
      }),
    ).toEqual([]);
    expect(await sourced({ urls: ['https://www.example.com/.well-known/security.txt'] })).toEqual([
      ['no_canonical_match', 'error', 1],
    ]);
  });
  it('flags a redirect to another host, and any hop over plain http', async () => {
    expect(
      await sourced({
        urls: [
          'https://www.example.com/.well-known/security.txt',
          'https://example.com/.well-known/security.txt',
        ],
      }),
    ).toEqual([['redirect_other_host', 'warning', null]]);
    const result = await validate(text, {
      source: {
        urls: [
          'https://example.com/.well-known/security.txt',
          'http://example.com/.well-known/security.txt',
          'https://example.com/.well-known/security.txt',
        ],
      },
    });
    expect(result.diagnostics.find((d) => d.code === 'invalid_uri_scheme')?.message).toBe(
      'The file was retrieved over plain http (http://example.com/.well-known/security.txt)',
    );
    // the port is not part of the host that the file speaks for
    expect(
      await sourced({
        urls: [
          'https://example.com/.well-known/security.txt',
          'https://example.com:8443/.well-known/security.txt',
        ],
      }),
    ).toEqual([]);
  });
});
