import { describe, expect, it } from 'vitest';
import {
  describeDnsResult,
  dnsTypeCodes,
  isDnsRecordType,
  isTemporaryDnsFailure,
  type DnsResult,
} from './resolver.ts';

const base = { name: 'example.com', authenticated: false } as const;

const ok: DnsResult<'TXT'> = {
  ...base,
  type: 'TXT',
  status: 'ok',
  rcode: 'NOERROR',
  records: [{ type: 'TXT', name: 'example.com', ttl: 300, text: 'v=spf1 -all', strings: ['v=spf1 -all'] }],
  ttl: 300,
  canonicalName: 'example.com',
  cnames: [],
  signatures: [],
};
const nxdomain: DnsResult<'A'> = {
  ...base,
  type: 'A',
  status: 'nxdomain',
  rcode: 'NXDOMAIN',
  canonicalName: 'example.com',
  cnames: [],
  ttl: 0,
};
const aliasNodata: DnsResult<'MX'> = {
  ...base,
  name: 'www.example.com',
  type: 'MX',
  status: 'nodata',
  rcode: 'NOERROR',
  canonicalName: 'web.example.com',
  cnames: [{ type: 'CNAME', name: 'www.example.com', ttl: 60, target: 'web.example.com' }],
  ttl: 0,
};
const servfail: DnsResult<'A'> = {
  ...base,
  type: 'A',
  status: 'servfail',
  rcode: 'SERVFAIL',
  message: 'x answered SERVFAIL',
};
const timeout: DnsResult<'A'> = {
  ...base,
  type: 'A',
  status: 'timeout',
  reason: 'no-answer',
  message: 'no answer',
};
const refused: DnsResult<'A'> = {
  ...base,
  type: 'A',
  status: 'error',
  error: 'refused',
  rcode: 'REFUSED',
  message: 'x answered REFUSED',
};

describe('dnsTypeCodes', () => {
  it('holds the IANA numbers', () => {
    // https://www.iana.org/assignments/dns-parameters, "Resource Record (RR) TYPEs"
    expect(dnsTypeCodes).toMatchObject({ A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28 });
    expect(dnsTypeCodes).toMatchObject({ SRV: 33, DS: 43, RRSIG: 46, DNSKEY: 48, TLSA: 52, CAA: 257 });
    expect(isDnsRecordType('TLSA')).toBe(true);
    expect(isDnsRecordType('toString')).toBe(false);
    expect(isDnsRecordType('ANY')).toBe(false);
  });
});

describe('isTemporaryDnsFailure', () => {
  it('is true for SERVFAIL, timeouts and errors, false for answers about the name', () => {
    expect([ok, nxdomain, aliasNodata, servfail, timeout, refused].map(isTemporaryDnsFailure)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});

describe('describeDnsResult', () => {
  it('says what was found in one sentence', () => {
    expect(describeDnsResult(ok)).toBe('example.com TXT: 1 record');
    expect(describeDnsResult(nxdomain)).toBe('example.com does not exist (NXDOMAIN)');
    expect(describeDnsResult(aliasNodata)).toBe(
      'www.example.com is an alias of web.example.com, which has no MX record',
    );
    expect(describeDnsResult(timeout)).toBe('example.com A lookup failed: no answer');
  });
});
