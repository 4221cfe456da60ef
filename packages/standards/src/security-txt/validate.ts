import { toValidationResult, type Diagnostic, type ValidationResult } from '../core/diagnostic.ts';
import { sourceDiagnostics, type SecurityTxtSource } from './context.ts';
import { addOneYear, parseRfc3339 } from '../core/date-time.ts';
import { findSecurityTxtField, suggestSecurityTxtField } from './fields.ts';
import { checkLanguageTag } from './language-tag.ts';
import { parseSecurityTxt, type SecurityTxtDocument, type SecurityTxtField } from './parse.ts';
import { checkUri } from '../core/uri.ts';
import { signatureDiagnostics, type OpenPgpVerification, type OpenPgpVerifier } from './signature.ts';

/** What {@link validateSecurityTxt} read from the file. */
export interface SecurityTxtParsed {
  /** The file uses the OpenPGP cleartext signature framework. */
  signed: boolean;
  /** Every field in file order. */
  fields: { name: string; value: string; line: number; known: boolean }[];
  /** The Expires field (the first, when repeated) and its instant in UTC, null when unreadable. */
  expires: { value: string; line: number; date: string | null } | null;
  /** Tags of the (first) Preferred-Languages field. */
  preferredLanguages: string[] | null;
  /** The signature as read from the file, and the verification when a key was supplied. */
  signature: {
    hashes: string[];
    signers: {
      keyId: string | null;
      fingerprint: string | null;
      hashAlgorithm: string;
      created: string | null;
    }[];
    verification: OpenPgpVerification | null;
  } | null;
}

export interface SecurityTxtValidateOptions {
  /** The clock for Expires; the current time when not given. */
  now?: Date;
  /** Armoured OpenPGP public key(s) of the expected signer. */
  publicKey?: string;
  /** Checks the signature with `publicKey`; without one, signatures are read but not verified. */
  verifier?: OpenPgpVerifier;
  /** Where the file was fetched from, for the HTTP checks (RFC 9116 §3); none for pasted text. */
  source?: SecurityTxtSource;
}

export type SecurityTxtValidationResult = ValidationResult<SecurityTxtParsed>;

const URI_FIELD_FIX =
  'Write the value as a URI: mailto:security@example.com, tel:+1-201-555-0123 or https://example.com/security.';

/**
 * Validates a security.txt file against RFC 9116 with the checks of sectxt 0.9.8 (the validator
 * behind internet.nl), using its codes: `error` diagnostics make the file invalid, `warning` ones
 * are its recommendations and `info` ones its notifications. Every diagnostic that concerns a line
 * carries the 1-based `line`.
 *
 * Beyond sectxt: stricter URI syntax, field-name syntax, lone CRs, the inner structure of the
 * OpenPGP signature, and real signature verification when `publicKey` and `verifier` are given.
 * `source` adds the HTTP checks of RFC 9116 §3 for a fetched file.
 */
export async function validateSecurityTxt(
  input: string | Uint8Array,
  options: SecurityTxtValidateOptions = {},
): Promise<SecurityTxtValidationResult> {
  const now = options.now ?? new Date();
  const document = parseSecurityTxt(input);
  const diagnostics = [...document.diagnostics];
  for (const field of document.fields) diagnostics.push(...fieldDiagnostics(field, now));
  diagnostics.push(...fileDiagnostics(document));
  if (options.source) diagnostics.push(...sourceDiagnostics(options.source, document.fields));

  let verification: OpenPgpVerification | null = null;
  if (document.signature) {
    const checked = await signatureDiagnostics(document.signature, options.publicKey, options.verifier);
    diagnostics.push(...checked.diagnostics);
    verification = checked.verification;
  }
  return toValidationResult(diagnostics, parsedSummary(document, verification));
}

function fieldAt(field: SecurityTxtField, span = field.valueSpan): Pick<Diagnostic, 'line' | 'span'> {
  return { line: field.line, span };
}

function fieldDiagnostics(field: SecurityTxtField, now: Date): Diagnostic[] {
  const definition = findSecurityTxtField(field.key);
  if (!definition) {
    const suggestion = suggestSecurityTxtField(field.key);
    return [
      {
        severity: 'info',
        code: 'unknown_field',
        message: `'${field.name}' is not a registered field: validators ignore it`,
        rfc: 'RFC 9116 §2.4',
        fix: suggestion
          ? `Did you mean '${suggestion.name}'? As written, the field has no effect.`
          : 'Keep it only if a tool you use reads it; otherwise make it a comment.',
        ...fieldAt(field, field.span),
      },
    ];
  }
  if (definition.uri) return uriDiagnostics(field, definition.name, definition.rfc);
  if (definition.key === 'expires') return expiresDiagnostics(field, now);
  if (definition.key === 'preferred-languages') return languageDiagnostics(field);
  return [];
}

function uriDiagnostics(field: SecurityTxtField, name: string, rfc: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const value = field.value;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    const email = /^[^\s@:]+@[^\s@:]+\.[^\s@:]+$/.test(value);
    out.push({
      severity: 'error',
      code: 'no_uri',
      message: `${name} value '${value}' is not a URI${email ? ': an email address needs mailto:' : ''}`,
      requirement: 'MUST',
      rfc: `${rfc} (URI, RFC 3986 §3)`,
      fix: email ? `Write 'mailto:${value}'.` : URI_FIELD_FIX,
      ...fieldAt(field),
    });
    return out;
  }
  if (scheme === 'http') {
    out.push({
      severity: 'error',
      code: 'no_https',
      message: `${name} is a web URI over plain http: it must begin with https://`,
      requirement: 'MUST',
      rfc,
      fix: `Write '${value.replace(/^http:/i, 'https:')}' and serve that page over https.`,
      ...fieldAt(field),
    });
  }
  const uri = checkUriSyntax(value);
  if (uri) {
    out.push({
      severity: 'error',
      code: 'invalid_uri',
      message: `${name} value is not a valid URI: ${uri}`,
      requirement: 'MUST',
      rfc: `${rfc} (URI, RFC 3986 §3)`,
      fix: 'Percent-encode spaces and other characters a URI may not contain, and put one value per line.',
      ...fieldAt(field),
    });
  }
  if (field.key === 'csaf' && !/provider-metadata\.json$/.test(value.replace(/[?#].*$/, ''))) {
    out.push({
      severity: 'error',
      code: 'no_csaf_file',
      message: 'CSAF must point to a file named provider-metadata.json',
      requirement: 'MUST',
      rfc: 'CSAF 2.0 §7.1.7, §7.1.8',
      fix: 'Point CSAF at https://<your domain>/.well-known/csaf/provider-metadata.json.',
      ...fieldAt(field),
    });
  }
  return out;
}

function expiresDiagnostics(field: SecurityTxtField, now: Date): Diagnostic[] {
  const parsed = parseRfc3339(field.value);
  if (!parsed) {
    return [
      {
        severity: 'error',
        code: 'invalid_expiry',
        message: `Expires '${field.value}' is not an RFC 3339 date and time such as 2026-12-31T23:59:59Z`,
        requirement: 'MUST',
        rfc: 'RFC 9116 §2.5.5 (RFC 3339 §5.6)',
        fix: 'Write the date, a T, the time with seconds and the time zone: 2026-12-31T23:59:59Z (or +01:00).',
        ...fieldAt(field),
      },
    ];
  }
  const out: Diagnostic[] = [];
  if (parsed.spaceSeparator) {
    out.push({
      severity: 'warning',
      code: 'expires_space_separator',
      message: 'Expires separates date and time with a space: the RFC 3339 date-time of RFC 9116 uses T',
      rfc: 'RFC 9116 §2.5.5 (RFC 3339 §5.6)',
      fix: `Write '${field.value.replace(' ', 'T')}'.`,
      ...fieldAt(field),
    });
  }
  if (parsed.time > addOneYear(now).getTime()) {
    out.push({
      severity: 'warning',
      code: 'long_expiry',
      message: `Expires is more than a year ahead (${new Date(parsed.time).toISOString()}): the file risks going stale`,
      requirement: 'SHOULD',
      rfc: 'RFC 9116 §2.5.5',
      fix: 'Set Expires less than a year ahead and renew the file before then.',
      ...fieldAt(field),
    });
  } else if (parsed.time < now.getTime()) {
    out.push({
      severity: 'error',
      code: 'expired',
      message: `The file expired on ${new Date(parsed.time).toISOString()}: researchers should treat it as stale`,
      rfc: 'RFC 9116 §2.5.5, §5.3',
      fix: 'Review the contents and set Expires to a date less than a year ahead.',
      ...fieldAt(field),
    });
  }
  return out;
}

function languageDiagnostics(field: SecurityTxtField): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tag of field.value.split(',').map((t) => t.trim())) {
    const check =
      tag === '' ? { ok: false as const, reason: 'an empty entry between commas' } : checkLanguageTag(tag);
    if (!check.ok) {
      out.push({
        severity: 'error',
        code: 'invalid_lang',
        message: `Preferred-Languages: ${check.reason}`,
        requirement: 'MUST',
        rfc: 'RFC 9116 §2.5.8 (RFC 5646)',
        fix: "List language tags separated by commas, e.g. 'en, nl, fr-CA'.",
        ...fieldAt(field),
      });
    }
  }
  return out;
}

/** RFC 3986 syntax beyond the scheme, or null when the value is a well-formed URI. */
function checkUriSyntax(value: string): string | null {
  const result = checkUri(value);
  return result.kind === 'invalid' ? result.reason : null;
}

function fileDiagnostics(document: SecurityTxtDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byKey = (key: string) => document.fields.filter((f) => f.key === key);
  const expires = byKey('expires');
  const contacts = byKey('contact');
  const languages = byKey('preferred-languages');
  const csaf = byKey('csaf');

  if (expires.length === 0) {
    out.push({
      severity: 'error',
      code: 'no_expire',
      message: 'The Expires field is missing',
      requirement: 'MUST',
      rfc: 'RFC 9116 §2.5.5',
      fix: 'Add an Expires line less than a year ahead, e.g. Expires: 2026-12-31T23:59:59Z.',
    });
  } else if (expires.length > 1) {
    out.push({
      severity: 'error',
      code: 'multi_expire',
      message: `Expires appears ${expires.length} times (lines ${expires.map((f) => f.line).join(', ')}); it must appear once`,
      requirement: 'MUST NOT',
      rfc: 'RFC 9116 §2.5.5',
      fix: 'Keep one Expires line.',
      line: expires[1]!.line,
    });
  }
  if (contacts.length === 0) {
    out.push({
      severity: 'error',
      code: 'no_contact',
      message: 'The Contact field is missing',
      requirement: 'MUST',
      rfc: 'RFC 9116 §2.5.3',
      fix: 'Add at least one Contact line, e.g. Contact: mailto:security@example.com.',
    });
  } else if (
    contacts.some((f) => f.value.toLowerCase().startsWith('mailto:')) &&
    byKey('encryption').length === 0
  ) {
    out.push({
      severity: 'warning',
      code: 'no_encryption',
      message: 'A Contact is an email address, but there is no Encryption field for encrypted reports',
      requirement: 'SHOULD',
      rfc: 'RFC 9116 §2.5.3, §2.5.4',
      fix: 'Add Encryption: with the https:// URL (or openpgp4fpr: fingerprint URI) of your OpenPGP key.',
    });
  }
  if (languages.length > 1) {
    out.push({
      severity: 'error',
      code: 'multi_lang',
      message: `Preferred-Languages appears ${languages.length} times (lines ${languages.map((f) => f.line).join(', ')}); it must appear at most once`,
      requirement: 'MUST NOT',
      rfc: 'RFC 9116 §2.5.8',
      fix: 'Merge the languages into one line: Preferred-Languages: en, nl.',
      line: languages[1]!.line,
    });
  }
  if (csaf.length > 1) {
    out.push({
      severity: 'warning',
      code: 'multiple_csaf_fields',
      message: `CSAF appears ${csaf.length} times: advertise one provider-metadata.json`,
      requirement: 'SHOULD NOT',
      rfc: 'CSAF 2.0 §7.1.8',
      fix: 'Keep one CSAF line, unless you are in the middle of moving your CSAF provider.',
      line: csaf[1]!.line,
    });
  }
  if (!document.signature) {
    out.push({
      severity: 'warning',
      code: 'not_signed',
      message: 'The file is not digitally signed',
      requirement: 'SHOULD',
      rfc: 'RFC 9116 §2.3',
      fix: 'Sign it with an OpenPGP cleartext signature: gpg --clearsign security.txt, and add a Canonical field.',
    });
  } else if (byKey('canonical').length === 0) {
    out.push({
      severity: 'warning',
      code: 'no_canonical',
      message:
        'The file is signed but has no Canonical field, so the signature does not vouch for its location',
      requirement: 'SHOULD',
      rfc: 'RFC 9116 §2.3, §2.5.2',
      fix: 'Add Canonical: https://<your domain>/.well-known/security.txt and sign again.',
    });
  }
  return out;
}

function parsedSummary(
  document: SecurityTxtDocument,
  verification: OpenPgpVerification | null,
): SecurityTxtParsed {
  const expires = document.fields.find((f) => f.key === 'expires');
  const expiresTime = expires ? parseRfc3339(expires.value) : null;
  const languages = document.fields.find((f) => f.key === 'preferred-languages');
  const { signature } = document;
  return {
    signed: signature !== null,
    fields: document.fields.map((f) => ({
      name: f.name,
      value: f.value,
      line: f.line,
      known: findSecurityTxtField(f.key) !== undefined,
    })),
    expires: expires
      ? {
          value: expires.value,
          line: expires.line,
          date: expiresTime ? new Date(expiresTime.time).toISOString() : null,
        }
      : null,
    preferredLanguages: languages ? languages.value.split(',').map((t) => t.trim()) : null,
    signature: signature
      ? {
          hashes: signature.hashes,
          signers: signature.signatures.map(({ keyId, fingerprint, hashAlgorithm, created }) => ({
            keyId,
            fingerprint,
            hashAlgorithm,
            created,
          })),
          verification,
        }
      : null,
  };
}
