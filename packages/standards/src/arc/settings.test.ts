import { describe, expect, it } from 'vitest';
import { arcGenerateBody } from './generate-schema.ts';
import { ARC_DEFAULTS, arcSettingsReady, arcSettingsSchema, normaliseArcHeaders } from './settings.ts';

function firstError(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string | undefined {
  return result.error?.issues[0]?.message;
}

describe('arcSettingsSchema', () => {
  it('fills in the spec defaults', () => {
    const parsed = arcSettingsSchema.parse({ domain: 'example.com', selector: 'arc' });
    expect(parsed).toEqual({
      instance: 1,
      algorithm: 'rsa-sha256',
      domain: 'example.com',
      selector: 'arc',
      headers: ['from', 'to', 'subject', 'date'],
      chain: 'none',
      canonicalization: 'relaxed/relaxed',
    });
    expect(ARC_DEFAULTS.headers).toEqual(['from', 'to', 'subject', 'date']);
  });

  it.each([
    [{ instance: 0 }, 'Instance must be at least 1'],
    [{ instance: 1.5 }, 'Instance must be a whole number'],
    [{ instance: 51 }, 'Instance must be at most 50 (RFC 8617 §4.2.1)'],
    [{ bodyLength: -1 }, 'Body length must be 0 or more'],
    [{ headers: ['to', 'subject'] }, 'The signed headers must include from (RFC 6376 §5.4)'],
    [
      { headers: ['from', 'ARC-Seal'] },
      'arc-seal must not be among the signed headers of an ARC-Message-Signature (RFC 8617 §4.1.2)',
    ],
    [{ headers: ['from', 'x:y'] }, 'A header name may only hold printable ASCII other than the colon'],
  ])('refuses %j', (settings, message) => {
    const result = arcSettingsSchema.safeParse({ domain: 'example.com', selector: 'arc', ...settings });
    expect(result.success).toBe(false);
    expect(firstError(result)).toBe(message);
  });

  it('offers the spec algorithms and canonicalizations only', () => {
    for (const algorithm of ['rsa-sha256', 'rsa-sha1', 'ed25519-sha256'])
      expect(arcSettingsSchema.safeParse({ domain: 'a.test', selector: 's', algorithm }).success).toBe(true);
    expect(
      arcSettingsSchema.safeParse({ domain: 'a.test', selector: 's', algorithm: 'rsa-sha512' }).success,
    ).toBe(false);
    for (const canonicalization of ['simple/simple', 'relaxed/relaxed', 'simple/relaxed', 'relaxed/simple'])
      expect(arcSettingsSchema.safeParse({ domain: 'a.test', selector: 's', canonicalization }).success).toBe(
        true,
      );
  });

  it('says when Generate may be enabled', () => {
    expect(arcSettingsReady({ domain: 'example.com', selector: 'arc' })).toBe(true);
    expect(arcSettingsReady({ domain: ' ', selector: 'arc' })).toBe(false);
    expect(arcSettingsReady({ domain: 'example.com', selector: '' })).toBe(false);
  });

  it('normalises header names', () => {
    expect(normaliseArcHeaders([' From ', 'TO', '', 'Subject'])).toEqual(['from', 'to', 'subject']);
  });
});

describe('arcGenerateBody', () => {
  const message = 'From: a@example.com\r\n\r\nHi\r\n';

  it.each([
    [{ selector: 'arc', message }, 'Domain and selector are required'],
    [{ domain: ' ', selector: 'arc', message }, 'Domain and selector are required'],
    [{ domain: 'example.com', selector: '', message }, 'Domain and selector are required'],
    [{ domain: 'example.com', selector: 'arc' }, 'Message is required to seal'],
    [{ domain: 'example.com', selector: 'arc', message: ' \r\n' }, 'Message is required to seal'],
    [
      { domain: 'example.com', selector: 'arc', message: `${message}${'é'.repeat(600 * 1024)}` },
      'Message is larger than 1 MiB',
    ],
  ])('refuses %#', (body, expected) => {
    expect(firstError(arcGenerateBody.safeParse(body))).toBe(expected);
  });

  it('rejects unknown fields', () => {
    const result = arcGenerateBody.safeParse({ domain: 'example.com', selector: 'arc', message, extra: 1 });
    expect(result.success).toBe(false);
  });

  it('accepts the optional key, authserv-id and timestamp', () => {
    const parsed = arcGenerateBody.parse({
      domain: 'example.com',
      selector: 'arc',
      message,
      privateKey: '-----BEGIN PRIVATE KEY-----',
      authservId: 'mx.example.com',
      timestamp: 12345,
      bodyLength: 0,
    });
    expect(parsed).toMatchObject({
      authservId: 'mx.example.com',
      timestamp: 12345,
      bodyLength: 0,
    });
    // no default instance or cv: the server takes them from the message and warns only about a value asked for
    expect(parsed.instance).toBeUndefined();
    expect(parsed.chain).toBeUndefined();
  });
});
