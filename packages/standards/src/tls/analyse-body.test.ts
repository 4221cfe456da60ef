import { describe, expect, it } from 'vitest';
import { tlsAnalyseBody } from './schema.ts';

const messages = (body: unknown) =>
  tlsAnalyseBody.safeParse(body).error?.issues.map((issue) => issue.message) ?? [];

describe('the TLS tester body', () => {
  it('defaults the port to 443 (spec part 2 §9) and takes names and addresses', () => {
    expect(tlsAnalyseBody.parse({ host: ' example.com ' })).toEqual({ host: 'example.com', port: 443 });
    expect(tlsAnalyseBody.parse({ host: '192.0.2.1', port: 8443 })).toEqual({
      host: '192.0.2.1',
      port: 8443,
    });
    // an IPv6 address is connected to without the brackets of a URL
    expect(tlsAnalyseBody.parse({ host: '[2001:db8::1]', starttls: 'smtp', port: 25 })).toEqual({
      host: '2001:db8::1',
      port: 25,
      starttls: 'smtp',
    });
  });

  it('says what is wrong in the spec’s and the domain field’s words', () => {
    expect(messages({ host: '  ' })).toEqual(['Hostname is required']);
    expect(messages({ host: 'mail@example.com' })).toEqual([
      'Enter a domain such as example.com, not an email address',
    ]);
    expect(messages({ host: 'localhost' })).toEqual([
      "'localhost' is not a domain name: it needs a dot, as in example.com",
    ]);
    expect(messages({ host: 'example.com', port: 0 })).toEqual([
      'Port must be a whole number from 1 to 65535',
    ]);
    expect(messages({ host: 'example.com', port: '443' })).toEqual([
      'Port must be a whole number from 1 to 65535',
    ]);
  });

  it('names a missing host, a port in the host field, a long label and an unknown STARTTLS in plain words', () => {
    expect(messages({ port: 443 })).toEqual(['Hostname is required']);
    expect(messages({ host: 'example.com:443' })).toEqual([
      'Put the port in the Port field: enter example.com as the host and 443 as the port',
    ]);
    expect(messages({ host: '[2001:db8::1]:8443' })).toEqual([
      'Put the port in the Port field: enter [2001:db8::1] as the host and 8443 as the port',
    ]);
    expect(messages({ host: `${'a'.repeat(64)}.example` })[0]).toContain(
      'has 64 characters, over the 63 a DNS label may have (RFC 1035 §2.3.4)',
    );
    expect(messages({ host: 'example.com', starttls: 'foo' })).toEqual([
      'STARTTLS must be one of SMTP, IMAP, POP3, ManageSieve (sieve), FTP, XMPP, LDAP or PostgreSQL (postgres), in lower case, or left out for TLS from the first byte',
    ]);
  });
});
