import { describe, expect, it } from 'vitest';
import { spfCheckBody, spfCheckResultSchema, spfVerifyBody } from './schema.ts';

describe('spfCheckBody', () => {
  it('takes an address, a sender and a HELO name, trimmed', () => {
    expect(
      spfCheckBody.parse({ ip: ' 192.0.2.1 ', sender: 'a@example.com', helo: 'mx.example.com' }),
    ).toEqual({
      ip: '192.0.2.1',
      sender: 'a@example.com',
      helo: 'mx.example.com',
    });
    expect(spfCheckBody.parse({ ip: '2001:db8::1', helo: 'mx.example.com' })).toMatchObject({ sender: '' });
    expect(
      spfCheckBody.parse({ ip: '::ffff:192.0.2.1', sender: '', helo: '', domain: 'example.com' }).domain,
    ).toBe('example.com');
  });

  it.each([
    [{ ip: '192.0.2', sender: 'a@example.com', helo: 'h' }, 'Enter an IPv4 or IPv6 address'],
    [{ ip: '', sender: 'a@example.com', helo: 'h' }, 'IP address is required'],
    [{ ip: '192.0.2.1', sender: '', helo: '' }, 'Enter a sender, a HELO name or a domain'],
    [
      { ip: '192.0.2.1', sender: `${'a'.repeat(320)}@example.com`, helo: 'h' },
      'Sender is too long: at most 320 characters',
    ],
    [{ ip: '192.0.2.1', sender: 'a@example.com', helo: 'h', extra: 1 }, undefined],
  ])('rejects %j', (body, message) => {
    const parsed = spfCheckBody.safeParse(body);
    expect(parsed.success).toBe(false);
    if (message !== undefined) expect(parsed.error?.issues.map((i) => i.message)).toContain(message);
  });
});

describe('spfCheckResultSchema', () => {
  it('accepts a minimal result and refuses an unknown result word', () => {
    const base = {
      result: 'none',
      reason: 'x',
      domain: 'example.com',
      sender: 'a@example.com',
      lookups: 0,
      voidLookups: 0,
      trace: [],
    };
    expect(spfCheckResultSchema.safeParse(base).success).toBe(true);
    expect(spfCheckResultSchema.safeParse({ ...base, result: 'softpass' }).success).toBe(false);
  });
});

describe('spfVerifyBody', () => {
  it('takes a domain, a record, or both', () => {
    expect(spfVerifyBody.parse({ domain: ' example.com ' })).toEqual({ domain: 'example.com' });
    expect(spfVerifyBody.parse({ spfRecord: ' v=spf1 -all ' })).toEqual({ spfRecord: 'v=spf1 -all' });
    expect(spfVerifyBody.parse({ domain: 'example.com', spfRecord: 'v=spf1 -all' })).toMatchObject({
      domain: 'example.com',
    });
  });

  it.each([
    [{}, 'Domain is required'],
    [{ domain: '  ' }, 'Domain is required'],
    [{ spfRecord: '  ' }, 'Domain is required'],
    [{ domain: 'not a domain!' }, "'not a domain!' is not a domain name: it contains a space"],
    [
      { domain: 'user@example.com', spfRecord: 'v=spf1 -all' },
      'Enter a domain such as example.com, not an email address',
    ],
  ])('refuses %j on the domain field', (body, message) => {
    const parsed = spfVerifyBody.safeParse(body);
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toContainEqual([
      'domain',
      message,
    ]);
  });
});
