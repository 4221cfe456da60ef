import { createCleartextMessage, generateKey, readPrivateKey, sign } from 'openpgp';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { daysAhead } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

describeEachDatabase('security.txt API', (database) => {
  const tool = toolTestApp({ database });
  const { post } = tool;

  it.each(['/v1/security-txt/generate', '/v1/security-txt/validate', '/api/v1/security-txt/validate'])(
    '%s needs a signed-in caller',
    async (url) => {
      const response = await post(url, { content: 'x' }, {});
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false });
    },
  );

  it('documents both routes in the OpenAPI document', async () => {
    const document = (await tool.inject('/docs/json')).json();
    const generate = document.paths['/v1/security-txt/generate'].post;
    expect(generate.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['domain', 'contacts', 'expires'],
      additionalProperties: false,
    });
    const validate = document.paths['/v1/security-txt/validate'].post;
    expect(validate.requestBody.content['application/json'].schema.required).toEqual(['content']);
    expect(
      Object.keys(validate.responses['200'].content['application/json'].schema.properties.data.properties),
    ).toEqual(['valid', 'errors', 'warnings', 'diagnostics', 'parsed']);
  });

  describe('POST /v1/security-txt/generate', () => {
    it('returns the file in data.file', async () => {
      const expires = daysAhead(100);
      const response = await post('/v1/security-txt/generate', {
        domain: 'example.com',
        contacts: ['mailto:security@example.com', 'https://example.com/report'],
        expires,
        acknowledgments: '',
        preferredLanguages: ['en', 'nl'],
        canonical: 'https://example.com/.well-known/security.txt',
        policy: 'https://example.com/policy',
        hiring: '',
        encryption: 'https://example.com/pgp-key.txt',
        csaf: '',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          file: [
            '# security.txt for example.com: serve it at https://example.com/.well-known/security.txt',
            'Canonical: https://example.com/.well-known/security.txt',
            'Contact: mailto:security@example.com',
            'Contact: https://example.com/report',
            'Encryption: https://example.com/pgp-key.txt',
            `Expires: ${expires}`,
            'Policy: https://example.com/policy',
            'Preferred-Languages: en, nl',
            '',
          ].join('\n'),
          warnings: [],
        },
      });
    });

    it('returns advice alongside the file', async () => {
      const response = await post('/v1/security-txt/generate', {
        domain: 'example.com',
        contacts: ['mailto:security@example.com'],
        expires: daysAhead(400),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.warnings).toHaveLength(2);
    });

    it.each([
      [{ contacts: ['mailto:a@example.com'], expires: daysAhead(10) }, 'Domain is required'],
      [{ domain: 'example.com', contacts: [], expires: daysAhead(10) }, 'At least one contact is required'],
      [{ domain: 'example.com', contacts: ['mailto:a@example.com'] }, 'Expires is required'],
      [
        { domain: 'example.com', contacts: ['mailto:a@example.com'], expires: '2020-01-01T00:00:00Z' },
        'Expires must be in the future',
      ],
      [
        { domain: 'example.com', contacts: ['ftp://example.com/'], expires: daysAhead(10) },
        'Contact must start with mailto:, https: or tel:',
      ],
      [
        {
          domain: 'example.com',
          contacts: ['tel:+1-201-555-0123'],
          expires: daysAhead(10),
          policy: 'http://x.example/',
        },
        'Policy must be an https:// URL',
      ],
      [
        { domain: 'example.com', contacts: ['tel:+1-201-555-0123'], expires: daysAhead(10), pgp: 'x' },
        'Unknown field "pgp"',
      ],
    ])('400 for %o: %s', async (body, error) => {
      const response = await post('/v1/security-txt/generate', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, error, code: 'VALIDATION_ERROR' });
    });
  });

  describe('POST /v1/security-txt/validate', () => {
    it.each([{}, { content: '' }, { content: '  \n' }])('400 for %o: the spec message', async (body) => {
      const response = await post('/v1/security-txt/validate', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: 'security.txt content is required',
        code: 'VALIDATION_ERROR',
      });
    });

    it('returns valid, errors, warnings and line-numbered diagnostics', async () => {
      const content = `Contact: security@example.com\nExpires: ${daysAhead(30)}\nPolicy: http://example.com/policy\n`;
      const response = await post('/v1/security-txt/validate', { content });
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.valid).toBe(false);
      expect(data.errors).toEqual([
        "Contact value 'security@example.com' is not a URI: an email address needs mailto:",
        'Policy is a web URI over plain http: it must begin with https://',
      ]);
      expect(data.warnings).toEqual(['The file is not digitally signed']);
      expect(data.diagnostics[0]).toEqual({
        severity: 'error',
        code: 'no_uri',
        message: "Contact value 'security@example.com' is not a URI: an email address needs mailto:",
        requirement: 'MUST',
        rfc: 'RFC 9116 §2.5.3 (URI, RFC 3986 §3)',
        fix: "Write 'mailto:security@example.com'.",
        line: 1,
        span: { start: 9, end: 29 },
      });
      expect(data.diagnostics[1]).toMatchObject({ code: 'no_https', line: 3 });
      expect(data.parsed.fields).toHaveLength(3);
    });

    it('validates a generated file as valid', async () => {
      const generated = await post('/v1/security-txt/generate', {
        domain: 'example.org',
        contacts: ['https://example.org/security'],
        expires: daysAhead(200),
      });
      const response = await post('/v1/security-txt/validate', { content: generated.json().data.file });
      expect(response.json().data).toMatchObject({ valid: true, errors: [] });
    });

    describe('with the signer’s public key', () => {
      let file: string;
      let publicKey: string;
      let otherKey: string;

      beforeAll(async () => {
        const [signer, other] = await Promise.all([
          generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ email: 'security@example.com' }] }),
          generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ email: 'other@example.net' }] }),
        ]);
        publicKey = signer.publicKey;
        otherKey = other.publicKey;
        const text = [
          'Canonical: https://example.com/.well-known/security.txt',
          'Contact: https://example.com/security',
          `Expires: ${daysAhead(60)}`,
          '',
        ].join('\n');
        file = await sign({
          message: await createCleartextMessage({ text }),
          signingKeys: await readPrivateKey({ armoredKey: signer.privateKey }),
        });
      });

      async function verdict(content: string, key: string) {
        const response = await post('/v1/security-txt/validate', { content, publicKey: key });
        expect(response.statusCode, response.body).toBe(200);
        const { data } = response.json();
        return { valid: data.valid, codes: data.diagnostics.map((d: { code: string }) => d.code) };
      }

      it('verifies a good signature', async () => {
        expect(await verdict(file, publicKey)).toEqual({ valid: true, codes: ['signature_good'] });
      });

      it('reports a bad signature when the file was changed after signing', async () => {
        const changed = file.replace('https://example.com/security', 'https://attacker.example/security');
        expect(await verdict(changed, publicKey)).toEqual({ valid: false, codes: ['signature_bad'] });
      });

      it('reports a signature made by another key', async () => {
        expect(await verdict(file, otherKey)).toEqual({ valid: false, codes: ['signature_wrong_key'] });
      });

      it('says when the key supplied is not a key', async () => {
        expect(await verdict(file, 'hello')).toEqual({ valid: true, codes: ['public_key_invalid'] });
      });
    });
  });
});
