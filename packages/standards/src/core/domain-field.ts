import { z } from 'zod';

/** The message of a blank domain field, as the spec words it (spec part 1 §5, part 2 §5). */
export const domainRequiredMessage = 'Domain is required';

/** RFC 1035 §2.3.4: a name is at most 253 characters in text (255 octets on the wire). */
export const domainMaxLength = 253;

// RFC 1123 §2.1 host labels; '_' too, for service names such as _spf.example.com (RFC 8552)
const LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
// two colons at least, hex digits and dots only (an embedded IPv4 tail), brackets allowed
const IPV6 = /^\[?[0-9a-f:.]*:[0-9a-f:.]*:[0-9a-f:.]*\]?$/i;

export interface DomainNameRules {
  /**
   * Any name DNS can be asked about, not only a host's: the root `.`, a top-level domain, and a
   * leading `*` label (a wildcard's own owner name, RFC 4592), as DNSSEC tools check them.
   */
  anyDnsName?: boolean;
}

/**
 * Why `input` is not a domain name a tool can look up, or undefined when it is one: ASCII labels
 * of 1-63 letters, digits, hyphens or underscores, at least two of them, at most 253 characters,
 * an optional trailing dot. The message names the mistake (an address, a URL, a space).
 */
export function domainNameProblem(input: string, rules: DomainNameRules = {}): string | undefined {
  const name = input.trim();
  if (name === '') return domainRequiredMessage;
  if (name === '.')
    return rules.anyDnsName ? undefined : `'.' is the DNS root: enter a domain such as example.com`;
  const shown = name.length > 60 ? `${name.slice(0, 60)}…` : name;
  if (name.includes('@')) return `Enter a domain such as example.com, not an email address`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name) || name.includes('/'))
    return `Enter a domain such as example.com, not a URL`;
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.length > domainMaxLength) return `Domain is too long: at most ${domainMaxLength} characters`;
  if (/[^\x21-\x7e]/.test(bare)) {
    return /\s/.test(bare)
      ? `'${shown}' is not a domain name: it contains a space`
      : `'${shown}' is not a domain name: write an internationalised name as its A-labels (xn--…)`;
  }
  if (IPV4.test(bare) || IPV6.test(bare))
    return `'${shown}' is an IP address: enter a domain name such as example.com`;
  const port = /^(.+):(\d{1,5})$/.exec(bare);
  if (port) return `'${shown}' is not a domain name: leave out the port (:${port[2]})`;
  const labels = bare.split('.');
  // RFC 1035 §2.3.4: labels are 63 octets or less
  const longLabel = labels.find((label) => label.length > 63);
  if (longLabel !== undefined)
    return `'${shown}' is not a domain name: the label '${longLabel.slice(0, 20)}…' has ${longLabel.length} characters, over the 63 a DNS label may have (RFC 1035 §2.3.4)`;
  if (labels.length < 2 && !rules.anyDnsName)
    return `'${shown}' is not a domain name: it needs a dot, as in example.com`;
  const checked = rules.anyDnsName && labels[0] === '*' ? labels.slice(1) : labels;
  if (!checked.every((label) => LABEL.test(label))) {
    return `'${shown}' is not a domain name: use letters, digits and hyphens between dots, as in example.com`;
  }
  return undefined;
}

/**
 * A domain field of a request body: trimmed, checked with `domainNameProblem`, so the server's
 * 400 and the web form's field error say the same.
 */
export function domainField(rules: DomainNameRules = {}) {
  return z
    .string()
    .trim()
    .superRefine((value, context) => {
      const problem = domainNameProblem(value, rules);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    });
}

/** A blank host field, as the spec words it (part 2 §6). */
export const hostnameRequiredMessage = 'Hostname is required';

const ipAddressSchema = z.union([z.ipv4(), z.ipv6()]);

/** Why `input` is not a host a tool can connect to (a domain name or an IP address), or undefined. */
export function tlsHostProblem(input: string): string | undefined {
  const host = input.trim();
  if (host === '') return hostnameRequiredMessage;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipAddressSchema.safeParse(bare).success) return undefined;
  // example.com:443 or [2001:db8::1]:443: the port has a field of its own
  const withPort = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(host);
  if (withPort)
    return `Put the port in the Port field: enter ${withPort[1] ?? ''} as the host and ${withPort[2] ?? ''} as the port`;
  return domainNameProblem(host);
}

/**
 * A host field of a request body (a name or an address, `[v6]` allowed): trimmed, checked with
 * `tlsHostProblem`, an IPv6 address without its brackets.
 */
export function hostField() {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? hostnameRequiredMessage : 'Hostname must be text'),
    })
    .trim()
    .superRefine((value, context) => {
      const problem = tlsHostProblem(value);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => (value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value));
}
