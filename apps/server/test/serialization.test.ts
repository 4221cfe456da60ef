import { generateKeyPairSync } from 'node:crypto';
import { dnskeyValidationResultSchema, validateDnskey } from '@rfckit/standards';
import {
  ResponseSerializationError,
  serializerCompiler as zodEncodeSerializerCompiler,
} from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nodeCrypto } from '../src/crypto/node-crypto.ts';
import { errorEnvelopeSchema, successEnvelope } from '../src/plugins/errors.ts';
import { isDirectionless, serializerCompiler } from '../src/plugins/serialization.ts';

type Serialize = (data: unknown) => string;

/** Our serializer and the library's (safeEncode + JSON.stringify) for one schema. */
function both(schema: z.ZodType): { ours: Serialize; library: Serialize } {
  const route = { schema, method: 'POST', url: '/v1/test', httpStatus: '200' };
  return {
    ours: serializerCompiler(route) as Serialize,
    library: zodEncodeSerializerCompiler(route) as Serialize,
  };
}

function outcome(serialize: Serialize, data: unknown): string {
  try {
    return serialize(data);
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseSerializationError);
    const cause = (error as ResponseSerializationError).cause as z.ZodError;
    return `throws ${JSON.stringify(cause.issues)}`;
  }
}

function base64Key(kind: 'rsa' | 'ec' | 'ed'): { algorithm: number; key: string } {
  if (kind === 'rsa') {
    const jwk = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    const e = Buffer.from(jwk.e!, 'base64url');
    const key = Buffer.concat([Buffer.from([e.length]), e, Buffer.from(jwk.n!, 'base64url')]);
    return { algorithm: 8, key: key.toString('base64') };
  }
  if (kind === 'ec') {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const key = Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    return { algorithm: 13, key: key.toString('base64') };
  }
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  return { algorithm: 15, key: Buffer.from(jwk.x!, 'base64url').toString('base64') };
}

/** Results of every shape the route returns: with and without DS, warnings, errors, unparsed. */
async function dnskeyResults(): Promise<unknown[]> {
  const records: string[] = [];
  for (const kind of ['rsa', 'ec', 'ed'] as const) {
    const { algorithm, key } = base64Key(kind);
    records.push(
      `example.com. 3600 IN DNSKEY 257 3 ${algorithm} ${key}`,
      `Example.COM. IN 86400 DNSKEY 256 3 ${algorithm} ( ${key.slice(0, 20)}\n ${key.slice(20)} ) ; comment`,
      `256 3 ${algorithm} ${key}`,
      `@ 3600 IN DNSKEY 385 3 ${algorithm} ${key}`,
      `example.com. DNSKEY 1 2 ${algorithm} ${key}`,
    );
  }
  records.push(
    'example.com. 3600 IN DNSKEY 257 3 5 AwEAAa==',
    'example.com. 3600 IN DNSKEY 257 3 13 AAAA',
    'example.com. 3600 IN DS 12345 13 2 ABCDEF',
    '257 3 99 AwEAAQ==',
    'not a record at all',
    '257 3 13 not*base64',
  );
  return Promise.all(
    records.map(async (record) => ({
      success: true,
      data: await validateDnskey(record, { crypto: nodeCrypto }),
    })),
  );
}

describe('response serializer', () => {
  it('writes exactly what the zod encode path writes for DNSKEY results', async () => {
    const { ours, library } = both(successEnvelope(dnskeyValidationResultSchema));
    const results = await dnskeyResults();
    for (const result of results) expect(ours(result)).toBe(library(result));
    // the DS and warning paths were exercised
    expect(results.some((r) => JSON.stringify(r).includes('"digestType":4'))).toBe(true);
    expect(results.some((r) => JSON.stringify(r).includes('"severity":"warning"'))).toBe(true);
  });

  it('drops unknown keys at every level, as the zod path does', async () => {
    const { ours, library } = both(successEnvelope(dnskeyValidationResultSchema));
    const [result] = (await dnskeyResults()) as {
      data: { parsed: { ds: object[]; flagBits: object }; diagnostics: object[] };
    }[];
    const { data } = result!;
    const polluted = {
      ...result,
      internal: 'secret',
      data: {
        ...data,
        cache: { hit: true },
        diagnostics: data.diagnostics.map((d) => ({ ...d, stack: 'at x.ts:1:1' })),
        parsed: {
          ...data.parsed,
          privateKey: 'AAAA',
          flagBits: { ...data.parsed.flagBits, extra: true },
          ds: data.parsed.ds.map((ds) => ({ ...ds, debug: 1 })),
        },
      },
    };
    const written = ours(polluted);
    expect(written).toBe(library(polluted));
    expect(written).toBe(library(result));
    expect(written).not.toMatch(/internal|secret|cache|stack|privateKey|extra|debug/);
  });

  it('refuses payloads that do not match the schema, with the same issues', async () => {
    const { ours, library } = both(successEnvelope(dnskeyValidationResultSchema));
    const [result] = (await dnskeyResults()) as { data: { parsed: Record<string, unknown> } }[];
    const { data } = result!;
    const bad: unknown[] = [
      undefined,
      null,
      'text',
      { success: false, data },
      { success: true },
      { success: true, data: { ...data, valid: 'yes' } },
      { success: true, data: { ...data, parsed: { ...data.parsed, keyType: 'XSK' } } },
      { success: true, data: { ...data, parsed: { ...data.parsed, ttl: -1 } } },
      { success: true, data: { ...data, parsed: { ...data.parsed, flags: 1.5 } } },
      { success: true, data: { ...data, parsed: { ...data.parsed, ds: [{ digestType: 3 }] } } },
      { success: true, data: { ...data, diagnostics: [{ severity: 'fatal', code: 'X', message: 'm' }] } },
    ];
    for (const payload of bad) {
      const expected = outcome(library, payload);
      expect(expected).toMatch(/^throws /);
      expect(outcome(ours, payload)).toBe(expected);
    }
  });

  it('matches the zod path for the error envelope', () => {
    const { ours, library } = both(errorEnvelopeSchema);
    for (const payload of [
      { success: false, error: 'Route GET /x not found', code: 'NOT_FOUND' },
      { success: false, error: 'quote " backslash \\ newline \n § …', code: 'X', extra: 1 },
      { success: true, error: 'x', code: 'X' },
    ]) {
      expect(outcome(ours, payload)).toBe(outcome(library, payload));
    }
  });

  it('keeps the library path where parse and encode could differ', () => {
    const converting = [
      z.object({ a: z.string().trim() }),
      z.object({ a: z.string().transform((s) => s.length) }),
      z.object({ a: z.number().default(1) }),
      z.object({ a: z.unknown() }),
      z.object({ a: z.string() }).passthrough(),
      z.object({ when: z.iso.datetime().pipe(z.coerce.date()) }),
    ];
    for (const schema of converting) expect(isDirectionless(schema)).toBe(false);
    expect(isDirectionless(successEnvelope(dnskeyValidationResultSchema))).toBe(true);
    expect(isDirectionless(errorEnvelopeSchema)).toBe(true);

    const { ours, library } = both(z.object({ a: z.string().trim() }));
    expect(ours({ a: '  x  ' })).toBe(library({ a: '  x  ' }));
  });
});
