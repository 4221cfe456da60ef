/**
 * The TLSA field values (RFC 6698 §2.1, IANA registries) with the acronyms of RFC 7218 §2 and what
 * RFC 7671 says of each, for the validator, the generator and the Information tab alike.
 */

export interface TlsaFieldValue {
  value: number;
  /** RFC 7218 acronym, e.g. `DANE-EE`. */
  acronym: string;
  meaning: string;
  rfc: string;
}

export const tlsaUsages: readonly TlsaFieldValue[] = [
  {
    value: 0,
    acronym: 'PKIX-TA',
    meaning: 'CA constraint: a CA certificate of the chain, and the chain must also pass PKIX validation',
    rfc: 'RFC 7671 §5.4',
  },
  {
    value: 1,
    acronym: 'PKIX-EE',
    meaning: 'Service certificate constraint: the server certificate, which must also pass PKIX validation',
    rfc: 'RFC 7671 §5.3',
  },
  {
    value: 2,
    acronym: 'DANE-TA',
    meaning:
      'Trust anchor assertion: a CA of your choice (often your own) that issued the server certificate',
    rfc: 'RFC 7671 §5.2',
  },
  {
    value: 3,
    acronym: 'DANE-EE',
    meaning:
      'Domain-issued certificate: the server certificate or key itself; names and dates are not checked',
    rfc: 'RFC 7671 §5.1',
  },
];

export const tlsaSelectors: readonly TlsaFieldValue[] = [
  { value: 0, acronym: 'Cert', meaning: 'The full certificate (DER)', rfc: 'RFC 6698 §2.1.2' },
  {
    value: 1,
    acronym: 'SPKI',
    meaning: 'The SubjectPublicKeyInfo (DER): the public key, which survives a renewal with the same key',
    rfc: 'RFC 6698 §2.1.2',
  },
];

export const tlsaMatchingTypes: readonly TlsaFieldValue[] = [
  {
    value: 0,
    acronym: 'Full',
    meaning: 'The selected content itself, byte for byte',
    rfc: 'RFC 6698 §2.1.3',
  },
  {
    value: 1,
    acronym: 'SHA2-256',
    meaning: 'SHA-256 of the selected content (32 octets)',
    rfc: 'RFC 6698 §2.1.3',
  },
  {
    value: 2,
    acronym: 'SHA2-512',
    meaning: 'SHA-512 of the selected content (64 octets)',
    rfc: 'RFC 6698 §2.1.3',
  },
];

/** The value 255 of each field is for private use (RFC 6698 §7.2-7.4). */
export const TLSA_PRIVATE_USE = 255;

/** Octets of the association data for the digest matching types. */
export const tlsaDigestOctets: Readonly<Record<number, number>> = { 1: 32, 2: 64 };

/** The spec's defaults: DANE-EE, SPKI, SHA2-256 on port 25 (spec part 2; RFC 7671 §5.1 recommends 3 1 1). */
export const tlsaDefaults = { port: 25, usage: 3, selector: 1, matchingType: 1 } as const;

/** Transport labels an owner name may carry (RFC 6698 §3). */
export const tlsaProtocols = ['tcp', 'udp', 'sctp'] as const;
export type TlsaProtocol = (typeof tlsaProtocols)[number];

/**
 * SMTP between MTAs, the scope of RFC 7672 (§1.3): port 25 over TCP. Submission (587) and
 * submissions (465) are client-to-server services where RFC 7671 applies unchanged.
 */
export const SMTP_RELAY_PORT = 25;

/** Whether `_port._protocol` names SMTP between MTAs, where usages 0 and 1 are unusable (RFC 7672 §3.1.3). */
export function isSmtpRelay(port: number | null, protocol: TlsaProtocol | null): boolean {
  return port === SMTP_RELAY_PORT && protocol !== 'udp' && protocol !== 'sctp';
}

/** Usages 0 (PKIX-TA) and 1 (PKIX-EE) rest on public CAs, which SMTP between MTAs has none of (RFC 7672 §3.1.3). */
export function isPkixUsage(usage: number): boolean {
  return usage === 0 || usage === 1;
}

/** `DANE-EE`, or `unassigned` / `private use`. */
export function fieldAcronym(values: readonly TlsaFieldValue[], value: number): string {
  if (value === TLSA_PRIVATE_USE) return 'private use';
  return values.find((entry) => entry.value === value)?.acronym ?? 'unassigned';
}

function parameterFields(usage: number, selector: number, matchingType: number) {
  return [
    { name: 'usage', values: tlsaUsages, value: usage },
    { name: 'selector', values: tlsaSelectors, value: selector },
    { name: 'matching type', values: tlsaMatchingTypes, value: matchingType },
  ].map((field) => ({
    ...field,
    acronym: fieldAcronym(field.values, field.value),
    known: field.values.some((entry) => entry.value === field.value),
  }));
}

/**
 * `3 1 1` as `DANE-EE SPKI SHA2-256`; with a value outside the registries each field is named, since
 * a bare 'unassigned' does not say which one: `usage 4 (unassigned), selector 1 (SPKI), matching type 1 (SHA2-256)`.
 */
export function tlsaParametersText(usage: number, selector: number, matchingType: number): string {
  const fields = parameterFields(usage, selector, matchingType);
  return fields.every((field) => field.known)
    ? fields.map((field) => field.acronym).join(' ')
    : fields.map((field) => `${field.name} ${field.value} (${field.acronym})`).join(', ');
}

/** The parameters with their numbers: `3 1 1 (DANE-EE SPKI SHA2-256)`, or each field named when one is not assigned. */
export function tlsaParametersLine(usage: number, selector: number, matchingType: number): string {
  const text = tlsaParametersText(usage, selector, matchingType);
  return parameterFields(usage, selector, matchingType).every((field) => field.known)
    ? `${usage} ${selector} ${matchingType} (${text})`
    : text;
}

/** The owner name of a service's TLSA records: `_25._tcp.mx.example.com.` (RFC 6698 §3). */
export function tlsaOwnerName(host: string, port: number, protocol: TlsaProtocol): string {
  const bare = host.trim().toLowerCase().replace(/\.$/, '');
  return `_${port}._${protocol}.${bare}.`;
}
