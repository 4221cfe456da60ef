import { describe, expect, it } from 'vitest';
import { generateSecurityTxt, type SecurityTxtGenerateInput } from './generate.ts';
import { securityTxtGenerateBody } from './schema.ts';
import { validateSecurityTxt } from './validate.ts';

const now = new Date('2026-06-15T12:00:00Z');

const minimal: SecurityTxtGenerateInput = {
  domain: 'example.com',
  contacts: ['mailto:security@example.com'],
  expires: '2027-06-01T09:30:00Z',
};

const everything: SecurityTxtGenerateInput = {
  domain: 'Example.COM.',
  contacts: ['https://example.com/report', '', 'mailto:security@example.com', 'tel:+1-201-555-0123'],
  expires: '2027-06-01T11:30:00+02:00',
  acknowledgments: 'https://example.com/hall-of-fame.html',
  preferredLanguages: ['en', ' nl ', '', 'en'],
  canonical: 'https://example.com/.well-known/security.txt',
  policy: 'https://example.com/security-policy.html',
  hiring: 'https://example.com/jobs.html',
  encryption: 'https://example.com/pgp-key.txt',
  csaf: 'https://example.com/.well-known/csaf/provider-metadata.json',
};

function generated(input: SecurityTxtGenerateInput) {
  const result = generateSecurityTxt(input, { now });
  if (!result.ok) throw new Error(result.error);
  return result.result;
}

function errors(input: Partial<SecurityTxtGenerateInput>) {
  const result = generateSecurityTxt({ ...minimal, ...input }, { now });
  return result.ok ? [] : result.errors;
}

describe('generateSecurityTxt', () => {
  it('writes every field once, in RFC 9116 order, with LF line ends and a final newline', () => {
    expect(generated(everything).file).toBe(
      [
        '# security.txt for example.com: serve it at https://example.com/.well-known/security.txt',
        'Acknowledgments: https://example.com/hall-of-fame.html',
        'Canonical: https://example.com/.well-known/security.txt',
        'Contact: https://example.com/report',
        'Contact: mailto:security@example.com',
        'Contact: tel:+1-201-555-0123',
        'Encryption: https://example.com/pgp-key.txt',
        'Expires: 2027-06-01T09:30:00Z',
        'Hiring: https://example.com/jobs.html',
        'Policy: https://example.com/security-policy.html',
        'Preferred-Languages: en, nl',
        'CSAF: https://example.com/.well-known/csaf/provider-metadata.json',
        '',
      ].join('\n'),
    );
    expect(generated(everything).warnings).toEqual([]);
  });

  it('leaves out the optional fields that are empty', () => {
    const result = generated({ ...minimal, policy: '  ', preferredLanguages: [''] });
    expect(result.file).toBe(
      '# security.txt for example.com: serve it at https://example.com/.well-known/security.txt\n' +
        'Contact: mailto:security@example.com\n' +
        'Expires: 2027-06-01T09:30:00Z\n',
    );
    expect(result.file).not.toContain('\r');
  });

  it('writes Expires in UTC without fractions', () => {
    expect(generated({ ...minimal, expires: '2026-12-31T23:59:59.999-01:00' }).file).toContain(
      'Expires: 2027-01-01T00:59:59Z\n',
    );
  });

  it('produces a file the validator accepts, with only the signing recommendation', async () => {
    const result = await validateSecurityTxt(generated(everything).file, { now });
    expect(result.valid).toBe(true);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['not_signed']);
  });

  it('warns about Expires more than a year ahead, Canonical elsewhere, and email without Encryption', () => {
    expect(
      generated({
        ...minimal,
        expires: '2027-06-16T00:00:00Z',
        canonical: 'https://www.example.com/.well-known/security.txt',
      }).warnings,
    ).toEqual([
      'Expires is more than a year ahead: RFC 9116 §2.5.5 recommends less than a year so that the file does not go stale',
      'Canonical points to www.example.com, not to example.com',
      'A contact is an email address: RFC 9116 §2.5.3 recommends an Encryption field so that reports can be encrypted',
    ]);
  });

  it.each([
    [{ domain: ' ' }, ['domain'], 'Domain is required'],
    [{ domain: 'https://example.com/' }, ['domain'], 'Domain must be a host name such as example.com'],
    [{ domain: 'exa mple.com' }, ['domain'], 'Domain must be a host name such as example.com'],
    [
      { domain: 'bücher.example' },
      ['domain'],
      'Domain must be written in ASCII: use the xn-- form of an internationalised name',
    ],
    [{ contacts: [] }, ['contacts'], 'At least one contact is required'],
    [{ contacts: ['', ' '] }, ['contacts'], 'At least one contact is required'],
    [
      { contacts: ['security@example.com'] },
      ['contacts', 0],
      'Contact must start with mailto:, https: or tel: (write mailto:security@example.com)',
    ],
    [
      { contacts: ['tel:+1', 'http://example.com/'] },
      ['contacts', 1],
      'Contact 2 must start with mailto:, https: or tel:',
    ],
    [
      { contacts: ['https://example.com/a b'] },
      ['contacts', 0],
      'Contact is not a valid URI: a URI cannot contain a space',
    ],
    [{ expires: '' }, ['expires'], 'Expires is required'],
    [{ expires: '2027-06-01' }, ['expires'], 'Expires must be a date and time such as 2026-12-31T23:59:00Z'],
    [{ expires: '2026-06-15T12:00:00Z' }, ['expires'], 'Expires must be in the future'],
    [{ policy: 'http://example.com/policy' }, ['policy'], 'Policy must be an https:// URL'],
    [
      { acknowledgments: 'example.com/thanks' },
      ['acknowledgments'],
      'Acknowledgments must be an https:// URL',
    ],
    [
      { hiring: 'https:///jobs' },
      ['hiring'],
      'Hiring is not a valid URL: an https URI needs a host: https://example.com/…',
    ],
    [{ canonical: 'ftp://example.com/security.txt' }, ['canonical'], 'Canonical must be an https:// URL'],
    [
      { csaf: 'https://example.com/csaf.json' },
      ['csaf'],
      'CSAF must be the https:// URL of your provider-metadata.json',
    ],
    [
      { encryption: '-----BEGIN PGP PUBLIC KEY BLOCK-----' },
      ['encryption'],
      'Encryption must be a URI where the key can be fetched, such as https://example.com/pgp-key.txt or openpgp4fpr:<fingerprint>',
    ],
    [
      { encryption: 'http://example.com/key.asc' },
      ['encryption'],
      'Encryption must use https:// when it is a web URL',
    ],
    [
      { preferredLanguages: ['en', 'English'] },
      ['preferredLanguages', 1],
      expect.stringMatching(/^Preferred language 'English'/),
    ],
  ])('rejects %o: %s', (input, path, message) => {
    expect(errors(input)).toEqual([{ path, message }]);
  });

  it('never lets a value add a line of its own', () => {
    expect(errors({ contacts: ['mailto:a@example.com\nExpires: 2099-01-01T00:00:00Z'] })).toHaveLength(1);
    expect(errors({ preferredLanguages: ['en\nContact: https://evil.example/'] })).toHaveLength(1);
    expect(errors({ encryption: 'openpgp4fpr:abc\r\nPolicy: x' })).toHaveLength(1);
  });

  it('accepts the other URI forms RFC 9116 §2.5.4 shows for Encryption', () => {
    expect(errors({ encryption: 'openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f' })).toEqual([]);
    expect(errors({ encryption: 'dns:5d2d37ab76d47d36._openpgpkey.example.com?type=OPENPGPKEY' })).toEqual(
      [],
    );
  });
});

describe('securityTxtGenerateBody', () => {
  it('gives the required-field messages for missing fields', () => {
    const messages = (body: unknown) => {
      const result = securityTxtGenerateBody.safeParse(body);
      return result.success ? [] : result.error.issues.map((issue) => issue.message);
    };
    expect(messages({ contacts: ['mailto:a@example.com'], expires: '2099-01-01T00:00:00Z' })).toEqual([
      'Domain is required',
    ]);
    expect(messages({ domain: 'example.com', expires: '2099-01-01T00:00:00Z' })).toEqual([
      'At least one contact is required',
    ]);
    expect(messages({ domain: 'example.com', contacts: ['mailto:a@example.com'] })).toEqual([
      'Expires is required',
    ]);
  });

  it('runs the generator checks, with the path of the field', () => {
    const result = securityTxtGenerateBody.safeParse({
      ...minimal,
      expires: '2000-01-01T00:00:00Z',
      policy: 'http://x.example/',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['expires'], 'Expires must be in the future'],
      [['policy'], 'Policy must be an https:// URL'],
    ]);
  });

  it('rejects unknown fields', () => {
    expect(
      securityTxtGenerateBody.safeParse({ ...minimal, expires: '2099-01-01T00:00:00Z', extra: 1 }).success,
    ).toBe(false);
  });
});
