import { describe, expect, it } from 'vitest';
import { domainField, domainNameProblem } from './domain-field.ts';

describe('domainNameProblem', () => {
  it.each(['example.com', 'Example.COM.', '_spf.example.com', 'xn--bcher-kva.example', 'a-b.c_d.test'])(
    'accepts %s',
    (name) => expect(domainNameProblem(name)).toBeUndefined(),
  );

  it.each([
    ['', 'Domain is required'],
    ['   ', 'Domain is required'],
    ['not a domain!', "'not a domain!' is not a domain name: it contains a space"],
    [
      'bad!name.com',
      "'bad!name.com' is not a domain name: use letters, digits and hyphens between dots, as in example.com",
    ],
    [
      '-lead.example.com',
      "'-lead.example.com' is not a domain name: use letters, digits and hyphens between dots, as in example.com",
    ],
    [
      'a..example.com',
      "'a..example.com' is not a domain name: use letters, digits and hyphens between dots, as in example.com",
    ],
    ['localhost', "'localhost' is not a domain name: it needs a dot, as in example.com"],
    ['user@example.com', 'Enter a domain such as example.com, not an email address'],
    ['https://example.com/', 'Enter a domain such as example.com, not a URL'],
    [
      'bücher.example',
      "'bücher.example' is not a domain name: write an internationalised name as its A-labels (xn--…)",
    ],
    [`${'a'.repeat(63)}.`.repeat(4) + 'com', 'Domain is too long: at most 253 characters'],
    [
      `${'a'.repeat(64)}.com`,
      `'${'a'.repeat(60)}…' is not a domain name: the label '${'a'.repeat(20)}…' has 64 characters, over the 63 a DNS label may have (RFC 1035 §2.3.4)`,
    ],
    ['example.com:443', "'example.com:443' is not a domain name: leave out the port (:443)"],
    ['127.0.0.1', "'127.0.0.1' is an IP address: enter a domain name such as example.com"],
    ['::1', "'::1' is an IP address: enter a domain name such as example.com"],
    ['[2001:db8::1]', "'[2001:db8::1]' is an IP address: enter a domain name such as example.com"],
    ['.', "'.' is the DNS root: enter a domain such as example.com"],
    [
      '*.example.com',
      "'*.example.com' is not a domain name: use letters, digits and hyphens between dots, as in example.com",
    ],
  ])('refuses %j', (name, message) => expect(domainNameProblem(name)).toEqual(message));

  it.each(['.', 'com', 'test.', '*.wild.example.com', 'example.com'])(
    'accepts %j as any DNS name (root, TLD, a wildcard owner)',
    (name) => expect(domainNameProblem(name, { anyDnsName: true })).toBeUndefined(),
  );

  it.each(['a.*.example.com', '**.example.com', '127.0.0.1', '..'])(
    'still refuses %j as a DNS name',
    (name) => expect(domainNameProblem(name, { anyDnsName: true })).toBeDefined(),
  );
});

describe('domainField', () => {
  it('trims and gives the problem as the issue message', () => {
    expect(domainField().parse(' example.com ')).toBe('example.com');
    const parsed = domainField().safeParse('not a domain!');
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      "'not a domain!' is not a domain name: it contains a space",
    ]);
  });
});
