import type { Outcome } from '../core/outcome.ts';
import { addOneYear, formatRfc3339Utc, parseRfc3339 } from '../core/date-time.ts';
import { securityTxtFields } from './fields.ts';
import { checkLanguageTag } from './language-tag.ts';
import { checkUri } from '../core/uri.ts';

/** The generator's form (spec part 2 §3): only domain, contacts and expires are required. */
export interface SecurityTxtGenerateInput {
  domain: string;
  /** mailto:, https: or tel: URIs, the preferred one first; blank entries are ignored. */
  contacts: string[];
  /** RFC 3339 date-time, e.g. from the picker with ':00Z' appended. */
  expires: string;
  acknowledgments?: string | undefined;
  /** BCP 47 tags; blank entries are ignored. */
  preferredLanguages?: string[] | undefined;
  canonical?: string | undefined;
  policy?: string | undefined;
  hiring?: string | undefined;
  /** A URI of the key: https://…, openpgp4fpr:…, dns:… (spec: free text, RFC 9116 §2.5.4: a URI). */
  encryption?: string | undefined;
  csaf?: string | undefined;
}

/** A problem with one input, with the path of the form field it belongs to. */
export interface GeneratorIssue {
  path: (string | number)[];
  message: string;
}

export type SecurityTxtGenerateResult = Outcome<
  { file: string; warnings: string[] },
  { errors: GeneratorIssue[] }
>;

const hostname =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const webFields = [
  ['acknowledgments', 'Acknowledgments'],
  ['canonical', 'Canonical'],
  ['policy', 'Policy'],
  ['hiring', 'Hiring'],
  ['csaf', 'CSAF'],
] as const;

/** Lower-cases and drops a trailing dot; the result is what the file is generated for. */
export function normaliseSecurityTxtDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '');
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function nonBlank(list: readonly string[] | undefined): string[] {
  return (list ?? []).map((item) => item.trim()).filter((item) => item !== '');
}

/**
 * Checks the generator's input: errors block generation, warnings accompany the file. The texts
 * are shown next to the form fields and returned by the API as they are.
 */
export function checkSecurityTxtInput(
  input: SecurityTxtGenerateInput,
  now: Date = new Date(),
): { errors: GeneratorIssue[]; warnings: string[] } {
  const errors: GeneratorIssue[] = [];
  const warnings: string[] = [];

  const domain = normaliseSecurityTxtDomain(input.domain);
  if (domain === '') errors.push({ path: ['domain'], message: 'Domain is required' });
  else if (!hostname.test(domain)) {
    errors.push({
      path: ['domain'],
      message: /[^ -~]/.test(domain)
        ? 'Domain must be written in ASCII: use the xn-- form of an internationalised name'
        : 'Domain must be a host name such as example.com',
    });
  }

  const contacts = input.contacts.map((c) => c.trim());
  if (nonBlank(contacts).length === 0) {
    errors.push({ path: ['contacts'], message: 'At least one contact is required' });
  }
  contacts.forEach((contact, index) => {
    if (contact === '') return;
    const uri = checkUri(contact);
    const label = contacts.length > 1 ? `Contact ${index + 1}` : 'Contact';
    if (uri.kind === 'no-scheme' || !['mailto', 'https', 'tel'].includes(uri.scheme)) {
      const email = /^[^\s@:]+@[^\s@:]+$/.test(contact);
      errors.push({
        path: ['contacts', index],
        message: email
          ? `${label} must start with mailto:, https: or tel: (write mailto:${contact})`
          : `${label} must start with mailto:, https: or tel:`,
      });
    } else if (uri.kind === 'invalid') {
      errors.push({ path: ['contacts', index], message: `${label} is not a valid URI: ${uri.reason}` });
    }
  });

  const expires = input.expires.trim();
  if (expires === '') errors.push({ path: ['expires'], message: 'Expires is required' });
  else {
    const parsed = parseRfc3339(expires);
    if (!parsed) {
      errors.push({
        path: ['expires'],
        message: 'Expires must be a date and time such as 2026-12-31T23:59:00Z',
      });
    } else if (parsed.time <= now.getTime()) {
      errors.push({ path: ['expires'], message: 'Expires must be in the future' });
    } else if (parsed.time > addOneYear(now).getTime()) {
      warnings.push(
        'Expires is more than a year ahead: RFC 9116 §2.5.5 recommends less than a year so that the file does not go stale',
      );
    }
  }

  for (const [key, label] of webFields) {
    const value = input[key]?.trim();
    if (!present(value)) continue;
    const uri = checkUri(value);
    if (uri.kind !== 'ok' || uri.scheme !== 'https') {
      errors.push({
        path: [key],
        message:
          uri.kind === 'invalid' && uri.scheme === 'https'
            ? `${label} is not a valid URL: ${uri.reason}`
            : `${label} must be an https:// URL`,
      });
    } else if (key === 'csaf' && !/provider-metadata\.json$/.test(value.replace(/[?#].*$/, ''))) {
      errors.push({ path: [key], message: 'CSAF must be the https:// URL of your provider-metadata.json' });
    }
  }

  const encryption = input.encryption?.trim();
  if (present(encryption)) {
    const uri = checkUri(encryption);
    if (uri.kind === 'no-scheme') {
      errors.push({
        path: ['encryption'],
        message:
          'Encryption must be a URI where the key can be fetched, such as https://example.com/pgp-key.txt or openpgp4fpr:<fingerprint>',
      });
    } else if (uri.scheme === 'http') {
      errors.push({ path: ['encryption'], message: 'Encryption must use https:// when it is a web URL' });
    } else if (uri.kind === 'invalid') {
      errors.push({ path: ['encryption'], message: `Encryption is not a valid URI: ${uri.reason}` });
    }
  }

  (input.preferredLanguages ?? []).forEach((tag, index) => {
    const trimmed = tag.trim();
    if (trimmed === '') return;
    const check = checkLanguageTag(trimmed);
    if (!check.ok) {
      errors.push({
        path: ['preferredLanguages', index],
        message: `Preferred language ${check.reason}`,
      });
    }
  });

  if (errors.length === 0) {
    const canonical = input.canonical?.trim();
    if (present(canonical) && URL.canParse(canonical)) {
      const host = new URL(canonical).hostname;
      if (host !== domain) warnings.push(`Canonical points to ${host}, not to ${domain}`);
    }
    if (nonBlank(contacts).some((c) => c.toLowerCase().startsWith('mailto:')) && !present(encryption)) {
      warnings.push(
        'A contact is an email address: RFC 9116 §2.5.3 recommends an Encryption field so that reports can be encrypted',
      );
    }
  }
  return { errors, warnings };
}

/**
 * Writes a security.txt file (RFC 9116) from the generator's form: one field per line in the order
 * of RFC 9116 §2.5 (then CSAF), LF line ends, a final newline, Expires in UTC without fractions.
 * The first line is a comment saying where to serve the file.
 */
export function generateSecurityTxt(
  input: SecurityTxtGenerateInput,
  options: { now?: Date } = {},
): SecurityTxtGenerateResult {
  const { errors, warnings } = checkSecurityTxtInput(input, options.now);
  if (errors.length > 0) return { ok: false, error: errors.map((issue) => issue.message).join('; '), errors };

  const domain = normaliseSecurityTxtDomain(input.domain);
  const values: Record<string, string[]> = {
    acknowledgments: nonBlank([input.acknowledgments ?? '']),
    canonical: nonBlank([input.canonical ?? '']),
    contact: nonBlank(input.contacts),
    encryption: nonBlank([input.encryption ?? '']),
    expires: [formatRfc3339Utc(parseRfc3339(input.expires.trim())!.time)],
    hiring: nonBlank([input.hiring ?? '']),
    policy: nonBlank([input.policy ?? '']),
    'preferred-languages': [],
    csaf: nonBlank([input.csaf ?? '']),
  };
  const languages = [...new Set(nonBlank(input.preferredLanguages))];
  if (languages.length > 0) values['preferred-languages'] = [languages.join(', ')];

  const lines = [`# security.txt for ${domain}: serve it at https://${domain}/.well-known/security.txt`];
  for (const definition of securityTxtFields) {
    for (const value of values[definition.key] ?? []) lines.push(`${definition.name}: ${value}`);
  }
  return { ok: true, result: { file: `${lines.join('\n')}\n`, warnings } };
}
