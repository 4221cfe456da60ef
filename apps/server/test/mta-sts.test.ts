// POST /v1/mta-sts/generate and /v1/mta-sts/validate: the record and policy generator, the
// validator of a pasted policy or TXT record with the spec's messages, the refusals, and a short
// fuzz of request bodies that must never produce a 5xx.
import type { MtaStsGenerateResultData, MtaStsValidationResultData } from '@rfckit/standards';
import { createRng } from '@rfckit/standards/testing';
import { describe, expect, it } from 'vitest';
import { toolTestApp } from './helpers/tool-test-app.ts';

describe('MTA-STS routes', () => {
  const tool = toolTestApp();
  const { post } = tool;
  const validate = (body: unknown) => tool.data<MtaStsValidationResultData>('/v1/mta-sts/validate', body);

  it('needs a signed-in caller, and is documented', async () => {
    expect((await post('/v1/mta-sts/validate', { text: 'version: STSv1' }, {})).statusCode).toBe(401);
    expect((await post('/v1/mta-sts/generate', { domain: 'example.com' }, {})).statusCode).toBe(401);
    const document = (await tool.inject('/docs/json')).json();
    expect(document.paths['/v1/mta-sts/generate'].post.summary).toBe('Generate an MTA-STS record and policy');
    expect(document.paths['/v1/mta-sts/validate'].post.summary).toBe(
      'Validate an MTA-STS policy file or TXT record',
    );
  });

  describe('generate', () => {
    it("applies the spec's defaults: mode enforce, max_age 604800, an id from the date and time", async () => {
      const response = await post('/v1/mta-sts/generate', { domain: 'example.com', mx: ['mx1.example.com'] });
      expect(response.statusCode, response.body).toBe(200);
      const { data } = response.json() as { data: MtaStsGenerateResultData };
      expect(data.record.name).toBe('_mta-sts.example.com');
      expect(data.record.value).toMatch(/^v=STSv1; id=\d{14}$/);
      expect(data.policy).toMatchObject({
        url: 'https://mta-sts.example.com/.well-known/mta-sts.txt',
        contentType: 'text/plain',
        text: 'version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmax_age: 604800\r\n',
      });
    });

    it('takes the mode, patterns, max_age and a counter id', async () => {
      const data = await tool.data<MtaStsGenerateResultData>('/v1/mta-sts/generate', {
        domain: 'example.com',
        mode: 'testing',
        mx: ['*.example.net', ''],
        maxAge: 86400,
        id: '7',
      });
      expect(data.record.value).toBe('v=STSv1; id=7');
      expect(data.policy.text).toBe(
        'version: STSv1\r\nmode: testing\r\nmx: *.example.net\r\nmax_age: 86400\r\n',
      );
      expect(data.diagnostics.map((d) => d.code)).toEqual([
        'MTASTS_POLICY_MODE_TESTING',
        'MTASTS_POLICY_MAX_AGE_SHORT',
      ]);
    });

    it.each([
      [{}, 'Domain is required'],
      [{ domain: '' }, 'Domain is required'],
      [{ domain: 'example.com', maxAge: 31557601 }, 'max_age is at most 31557600 seconds (RFC 8461 §3.2)'],
      [{ domain: 'example.com', maxAge: -1 }, 'max_age must be a non-negative integer'],
      [{ domain: 'example.com', mode: 'strict' }, undefined],
      [{ domain: 'example.com', id: 'a-b' }, 'The id may only contain letters and digits'],
      [{ domain: 'example.com', extra: 1 }, undefined],
      [{ domain: 'example.com' }, 'At least one mx field is required'],
      [{ domain: 'example.com', mx: ['mx.*.example.com'] }, undefined],
    ])('refuses %j with a 400', async (body, message) => {
      const response = await post('/v1/mta-sts/generate', body);
      expect(response.statusCode, response.body).toBe(400);
      const answer = response.json() as { success: boolean; error: string };
      expect(answer.success).toBe(false);
      if (message !== undefined) expect(answer.error).toContain(message);
    });
  });

  describe('validate', () => {
    it('checks a pasted policy by default, with lines, sections and fixes', async () => {
      const data = await validate({ text: 'version: STSv1\nmode: Enforce\nmx: mail.example.com\n' });
      expect(data.kind).toBe('policy');
      expect(data.valid).toBe(false);
      expect(data.errors).toEqual(['Mode must be enforce, testing, or none', 'max_age field is required']);
      expect(data.diagnostics[0]).toMatchObject({
        code: 'MTASTS_POLICY_MODE',
        line: 2,
        rfc: 'RFC 8461 §3.2',
      });
    });

    it('reads a good policy', async () => {
      const data = await validate({
        kind: 'policy',
        text: 'version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmax_age: 604800\r\n',
      });
      expect(data).toMatchObject({
        valid: true,
        parsed: { kind: 'policy', mode: 'enforce', maxAge: 604800 },
      });
    });

    it('checks a TXT record', async () => {
      expect(await validate({ kind: 'record', text: 'v=STSv1; id=20240101' })).toMatchObject({
        valid: true,
        kind: 'record',
        parsed: { id: '20240101' },
      });
      const bad = await validate({ kind: 'record', text: 'v=STSv1; id=abc_1' });
      expect(bad.diagnostics.map((d) => d.code)).toEqual(['MTASTS_RECORD_ID_SYNTAX']);
    });

    it.each([
      [{ text: '' }, 'MTA-STS policy is required'],
      [{ kind: 'record', text: '  ' }, 'MTA-STS record is required'],
      [{ text: 'x'.repeat(65537) }, 'at most 65536 characters'],
      [{ kind: 'dns', text: 'x' }, undefined],
      [{}, undefined],
    ])('refuses body %# with a 400', async (body, message) => {
      const response = await post('/v1/mta-sts/validate', body);
      expect(response.statusCode).toBe(400);
      if (message !== undefined) expect((response.json() as { error: string }).error).toContain(message);
    });
  });

  it('answers a few hundred fuzzed bodies without a server error', async () => {
    const next = createRng(0x5757);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const texts = [
      'version: STSv1\r\nmode: enforce\r\nmx: a.example.com\r\nmax_age: 1\r\n',
      'v=STSv1; id=1',
      'v=STSv1;;;id=',
      'mx: *\nmx: *.\nmx: .\nmax_age: 99999999999999999999\n',
      '\u0000\ud800😀\r\r\n#',
      ':::\n: \n',
      'x'.repeat(3000),
      '',
    ];
    const values = [
      null,
      true,
      0,
      -1,
      1.5,
      1e308,
      'enforce',
      'none',
      'record',
      'policy',
      ['mx.example.com'],
      [1],
      {},
      'example.com',
      '*.example.com',
    ];
    const keys = ['domain', 'mode', 'mx', 'maxAge', 'id', 'kind', 'text', 'other'];
    for (let i = 0; i < 200; i++) {
      const body: Record<string, unknown> = {};
      for (let k = 0; k < 3; k++) body[pick(keys)] = next() < 0.5 ? pick(texts) : pick(values);
      const path = next() < 0.5 ? '/v1/mta-sts/generate' : '/v1/mta-sts/validate';
      const response = await post(path, body);
      expect(
        response.statusCode,
        `${path} ${JSON.stringify(body).slice(0, 200)}: ${response.body}`,
      ).toBeLessThan(500);
    }
  });
});
