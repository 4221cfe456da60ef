import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { Diagnostic, ValidationResult } from '../core/diagnostic.ts';
import type { diagnosticSchema } from '../core/schema.ts';
import { dnskeyValidateBody, dnskeyValidationResultSchema } from './schema.ts';
import type { DnskeyParsed } from './types.ts';
import { validateDnskey } from './validate.ts';

// Compile-time: the schemas describe exactly the TypeScript contracts.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const diagnosticMatches: Equal<z.infer<typeof diagnosticSchema>, Diagnostic> = true;
const resultMatches: Equal<
  z.infer<typeof dnskeyValidationResultSchema>,
  ValidationResult<DnskeyParsed>
> = true;

const p256 = 'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==';

describe('dnskeyValidateBody', () => {
  it('trims the record', () => {
    expect(dnskeyValidateBody.parse({ record: `  257 3 13 ${p256}\n` })).toEqual({
      record: `257 3 13 ${p256}`,
    });
  });

  it.each([
    [{ record: '' }, 'DNSKEY record is required'],
    [{ record: ' \n ' }, 'DNSKEY record is required'],
    [{ record: 'x'.repeat(16385) }, 'at most 16384 characters'],
  ])('%#: rejects with %j', (body, message) => {
    const result = dnskeyValidateBody.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it('rejects unknown fields and a missing record', () => {
    expect(dnskeyValidateBody.safeParse({ record: '257 3 13 AA==', domain: 'x' }).success).toBe(false);
    expect(dnskeyValidateBody.safeParse({}).success).toBe(false);
  });
});

describe('dnskeyValidationResultSchema', () => {
  it('accepts what validateDnskey returns', async () => {
    expect(diagnosticMatches && resultMatches).toBe(true);
    const inputs = [
      '',
      `257 3 13 ${p256}`,
      `example.net. 3600 IN DNSKEY 257 3 13 ${p256}`,
      `example.net. 3600 IN DNSKEY 0 2 200 ${p256}`,
      'not a record',
      // A zero modulus: malformed, but the result must still fit the schema.
      'example.net. IN DNSKEY 257 3 8 AQMA',
    ];
    for (const input of inputs) {
      const result = await validateDnskey(input);
      expect(dnskeyValidationResultSchema.parse(result)).toEqual(result);
    }
  });
});
