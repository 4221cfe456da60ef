import { describe, expect, it } from 'vitest';
import {
  securityTxtFetchBody,
  securityTxtMaxLength,
  securityTxtValidateBody,
  securityTxtValidationResultSchema,
} from './schema.ts';
import { signedFile } from './test-fixtures.ts';
import { validateSecurityTxt } from './validate.ts';

function firstMessage(body: unknown): string | undefined {
  const result = securityTxtValidateBody.safeParse(body);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('securityTxtFetchBody', () => {
  const message = (body: unknown) => {
    const result = securityTxtFetchBody.safeParse(body);
    return result.success ? undefined : result.error.issues[0]?.message;
  };

  it('takes a domain or URL as typed, and an optional key', () => {
    expect(securityTxtFetchBody.parse({ domain: ' https://Example.com/ ', publicKey: 'k' })).toEqual({
      domain: ' https://Example.com/ ',
      publicKey: 'k',
    });
  });

  it('gives the messages of securityTxtFetchHost, and refuses other fields', () => {
    expect(message({})).toBe('Domain is required');
    expect(message({ domain: ' ' })).toBe('Domain is required');
    expect(message({ domain: 'not a domain' })).toBe(
      'Enter a domain such as example.com, or a URL such as https://example.com/',
    );
    expect(message({ domain: 'x'.repeat(2049) })).toBe('Domain is too long: at most 2048 characters');
    expect(securityTxtFetchBody.safeParse({ domain: 'example.com', content: 'x' }).success).toBe(false);
  });
});

describe('securityTxtValidateBody', () => {
  it.each([[{}], [{ content: '' }], [{ content: ' \n\r\n\t' }]])('%o: the spec message', (body) => {
    expect(firstMessage(body)).toBe('security.txt content is required');
  });

  it('keeps the content exactly as sent: line ends and surrounding blank lines matter', () => {
    const content = '\nContact: https://example.com/c\r\n';
    expect(securityTxtValidateBody.parse({ content })).toEqual({ content });
  });

  it('takes an optional public key, and nothing else', () => {
    expect(securityTxtValidateBody.parse({ content: 'x', publicKey: 'k' })).toEqual({
      content: 'x',
      publicKey: 'k',
    });
    expect(securityTxtValidateBody.safeParse({ content: 'x', url: 'https://example.com' }).success).toBe(
      false,
    );
  });

  it('limits the length', () => {
    expect(firstMessage({ content: 'a'.repeat(securityTxtMaxLength + 1) })).toBe(
      `security.txt content is too long: at most ${securityTxtMaxLength} characters`,
    );
  });
});

describe('securityTxtValidationResultSchema', () => {
  it('describes what the validator returns, signed files included', async () => {
    const result = await validateSecurityTxt(signedFile('2020-01-01T00:00:00Z', ['Foo: bar']));
    expect(securityTxtValidationResultSchema.parse(result)).toEqual(result);
  });
});
