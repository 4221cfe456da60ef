import { generateKeyPairSync } from 'node:crypto';
import type { DkimGenerateResultData, DkimValidationResultData } from '@rfckit/standards';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { spkiBase64 } from './helpers/dkim-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const rsaKey = (bits: number) => spkiBase64(generateKeyPairSync('rsa', { modulusLength: bits }).publicKey);

describeEachDatabase('DKIM API', (database) => {
  const tool = toolTestApp({ database });
  const { post } = tool;
  const rsa2048 = rsaKey(2048);
  const rsa512 = rsaKey(512);
  const ed25519 = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it.each(['/v1/dkim/generate', '/v1/dkim/validate', '/api/v1/dkim/validate'])(
    '%s needs a signed-in caller',
    async (url) => {
      const response = await post(url, { record: 'p=' }, {});
      expect(response.statusCode).toBe(401);
    },
  );

  it('documents both routes in the OpenAPI document', async () => {
    const document = (await tool.inject('/docs/json')).json();
    const generate = document.paths['/v1/dkim/generate'].post;
    expect(generate.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['domain', 'selector', 'publicKey']),
    );
    const validate = document.paths['/v1/dkim/validate'].post;
    expect(
      Object.keys(validate.responses['200'].content['application/json'].schema.properties.data.properties),
    ).toEqual(['valid', 'errors', 'warnings', 'diagnostics', 'parsed', 'tags']);
  });

  describe('POST /v1/dkim/generate', () => {
    it('returns the record, its DNS name, the zone-file line and the signer settings', async () => {
      const data = await tool.data<DkimGenerateResultData>('/v1/dkim/generate', {
        domain: 'example.com',
        selector: 'default',
        publicKey: rsa2048,
      });
      const record = `v=DKIM1; k=rsa; h=sha256; s=email; p=${rsa2048}`;
      expect(data).toMatchObject({
        record,
        dnsName: 'default._domainkey.example.com',
        txtStrings: [record.slice(0, 255), record.slice(255)],
        zoneFileLine: `default._domainkey.example.com. IN TXT "${record.slice(0, 255)}" "${record.slice(255)}"`,
        signer: { a: 'rsa-sha256', c: 'relaxed/relaxed', d: 'example.com', s: 'default' },
        warnings: [],
      });
    });

    it('unwraps an Ed25519 PEM and keeps the chosen options', async () => {
      const data = await tool.data<DkimGenerateResultData>('/v1/dkim/generate', {
        domain: 'example.com',
        selector: 'ed',
        publicKey: ed25519,
        algorithm: 'ed25519-sha256',
        canonicalization: 'relaxed/simple',
        serviceType: '*',
        flags: ['y'],
        notes: 'rotated 2026',
      });
      expect(data.record).toMatch(
        /^v=DKIM1; k=ed25519; h=sha256; t=y; n=rotated 2026; p=[A-Za-z0-9+/]{43}=$/,
      );
      expect(data.signer).toEqual({ a: 'ed25519-sha256', c: 'relaxed/simple', d: 'example.com', s: 'ed' });
    });

    it('warns about rsa-sha1', async () => {
      const data = await tool.data<DkimGenerateResultData>('/v1/dkim/generate', {
        domain: 'example.com',
        selector: 's',
        publicKey: rsa2048,
        algorithm: 'rsa-sha1',
      });
      expect(data.diagnostics[0]).toMatchObject({
        requirement: 'MUST NOT',
        rfc: 'RFC 8301 §3.1',
      });
    });

    it.each([
      [{ domain: 'example.com', selector: 's' }, 'Domain, selector, and public key are required'],
      [{ selector: 's', publicKey: 'AAAA' }, 'Domain, selector, and public key are required'],
      [{ domain: '', selector: 's', publicKey: 'AAAA' }, 'Domain, selector, and public key are required'],
      [
        { domain: 'example.com', selector: 's', publicKey: 'AAAA', algorithm: 'rsa-md5' },
        expect.stringContaining('algorithm'),
      ],
      [{ domain: 'example.com', selector: 's', publicKey: 'AAAA', extra: 1 }, 'Unknown field "extra"'],
      [{ domain: 'example.com', selector: 's', publicKey: rsa512 }, expect.stringContaining('512 bits')],
    ])('400 for %j', async (body, error) => {
      const response = await post('/v1/dkim/generate', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, error, code: 'VALIDATION_ERROR' });
    });
  });

  describe('POST /v1/dkim/validate', () => {
    it('returns valid, errors, warnings, tags and diagnostics', async () => {
      const data = await tool.data<DkimValidationResultData>('/v1/dkim/validate', {
        record: `v=DKIM1; k=rsa; p=${rsa2048}`,
      });
      expect(data).toMatchObject({
        valid: true,
        errors: [],
        warnings: [],
        tags: { v: 'DKIM1', k: 'rsa', p: rsa2048 },
        parsed: { status: 'valid', keySize: 2048 },
      });
      expect(Object.keys(data)).toEqual(['valid', 'errors', 'warnings', 'diagnostics', 'parsed', 'tags']);
    });

    it('fails a 512-bit key with the RFC 8301 reason', async () => {
      const response = await post('/v1/dkim/validate', { record: `v=DKIM1; k=rsa; p=${rsa512}` });
      const { data } = response.json();
      expect(data.valid).toBe(false);
      expect(data.errors).toEqual([expect.stringContaining('512 bits')]);
      expect(data.diagnostics).toContainEqual(
        expect.objectContaining({ rfc: 'RFC 8301 §3.2', requirement: 'MUST NOT' }),
      );
    });

    it.each([{}, { record: '' }, { record: '  ' }])('400 DKIM record is required for %j', async (body) => {
      const response = await post('/v1/dkim/validate', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('DKIM record is required');
    });
  });
});
