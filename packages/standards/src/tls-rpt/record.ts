import { toValidationResult, type Diagnostic, type Span, type ValidationResult } from '../core/diagnostic.ts';
import { checkUri } from '../core/uri.ts';
import { startsWithByteOrderMark } from '../core/txt-strings.ts';

/** The only version RFC 8460 §3 defines; `v=` must come first and is case-sensitive (%s"v=TLSRPTv1"). */
export const tlsRptVersion = 'TLSRPTv1';
/** Where a domain publishes its TLS-RPT policy (RFC 8460 §3). */
export const tlsRptLabel = '_smtp._tls';

export function tlsRptRecordName(domain: string): string {
  return `${tlsRptLabel}.${domain.trim().replace(/\.$/, '').toLowerCase()}`;
}

export type TlsRptVerdict = 'valid' | 'valid-warn' | 'invalid' | 'not-tls-rpt';

export interface TlsRptField {
  name: string;
  value: string;
  span: Span;
}

export interface TlsRptUri {
  uri: string;
  /** Lower-case scheme, or null when there is none. */
  scheme: string | null;
  /** Why a reporter cannot deliver to it; null when it is a usable mailto: or https: URI. */
  problem: string | null;
  span: Span;
}

export interface TlsRptParsed {
  version: string | null;
  fields: TlsRptField[];
  rua: TlsRptUri[];
  /** Fields other than v and rua, which RFC 8460 §3 says to ignore. */
  extensions: TlsRptField[];
}

export type TlsRptRecordResult = ValidationResult<TlsRptParsed> & { verdict: TlsRptVerdict };

const RFC_RECORD = 'RFC 8460 §3';
// tlsrpt-ext-name: (ALPHA / DIGIT) *31(ALPHA / DIGIT / "_" / "-" / ".")
const EXTENSION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
// tlsrpt-ext-value: 1*(%x21-3A / %x3C / %x3E-7E), no '=', ';', space or control characters
const EXTENSION_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;
const WSP = /[ \t]/;

/** Splits the record at ';' (field-delim = *WSP ";" *WSP), with each field's span. */
function splitFields(text: string): { raw: string; span: Span }[] {
  const parts: { raw: string; span: Span }[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && text.charAt(i) !== ';') continue;
    let a = start;
    let b = i;
    while (a < b && WSP.test(text.charAt(a))) a++;
    while (b > a && WSP.test(text.charAt(b - 1))) b--;
    parts.push({ raw: text.slice(a, b), span: { start: a, end: b } });
    start = i + 1;
  }
  return parts;
}

/** Reads the comma-separated URIs of rua= (RFC 8460 §3 `tlsrpt-rua`). */
function parseRua(value: string, offset: number): TlsRptUri[] {
  const uris: TlsRptUri[] = [];
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    if (i < value.length && value.charAt(i) !== ',') continue;
    let a = start;
    let b = i;
    while (a < b && WSP.test(value.charAt(a))) a++;
    while (b > a && WSP.test(value.charAt(b - 1))) b--;
    const uri = value.slice(a, b);
    uris.push({ ...describeTlsRptUri(uri), span: { start: offset + a, end: offset + b } });
    start = i + 1;
  }
  return uris;
}

/**
 * Whether a reporting URI is one a sender can deliver to: `mailto:` with an address (RFC 6068) or
 * `https:` with a host (RFC 8460 §3 allows no other scheme; reports are POSTed to https, §5.4).
 */
export function describeTlsRptUri(uri: string): {
  uri: string;
  scheme: string | null;
  problem: string | null;
} {
  if (uri === '') return { uri, scheme: null, problem: 'an empty entry between commas' };
  const check = checkUri(uri);
  if (check.kind === 'no-scheme') {
    return {
      uri,
      scheme: null,
      problem: uri.includes('@')
        ? `'${uri}' has no scheme: write it as mailto:${uri}`
        : `'${uri}' is not a URI: use mailto:address or https://host/path`,
    };
  }
  if (check.kind === 'invalid') return { uri, scheme: check.scheme, problem: `'${uri}': ${check.reason}` };
  if (check.scheme !== 'mailto' && check.scheme !== 'https') {
    return {
      uri,
      scheme: check.scheme,
      problem:
        check.scheme === 'http'
          ? `'${uri}' uses http:, which TLS-RPT does not allow: reports are posted over https: only`
          : `'${uri}' uses ${check.scheme}:, but TLS-RPT reports go only to mailto: or https: URIs`,
    };
  }
  if (check.scheme === 'mailto') {
    const address = uri.slice('mailto:'.length).split('?')[0] ?? '';
    const at = address.lastIndexOf('@');
    const host = at > 0 ? address.slice(at + 1) : '';
    if (at <= 0 || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/.test(host)) {
      return {
        uri,
        scheme: 'mailto',
        problem: `'${uri}' does not hold an email address such as tlsrpt@example.com`,
      };
    }
  }
  return { uri, scheme: check.scheme, problem: null };
}

/** Whether a TXT string is taken for a TLS-RPT record when several are published (RFC 8460 §3). */
export function beginsWithTlsRptVersion(text: string): boolean {
  return /^v=TLSRPTv1[ \t]*(;|$)/.test(text);
}

/** Parses and checks one `_smtp._tls` TXT record (strings already joined without spaces, RFC 8460 §3). */
export function validateTlsRptRecord(input: string): TlsRptRecordResult {
  const text = input.trim();
  const diagnostics: Diagnostic[] = [];
  if (startsWithByteOrderMark(input))
    diagnostics.push({
      severity: 'error',
      code: 'TLSRPT_BYTE_ORDER_MARK',
      message:
        'The record begins with an invisible byte-order mark (U+FEFF): published so, it does not begin with v=TLSRPTv1 and senders discard it',
      requirement: 'MUST',
      rfc: RFC_RECORD,
      fix: 'Retype the record, or save it as UTF-8 without a byte-order mark, so that it begins with v=TLSRPTv1.',
    });
  const fields: TlsRptField[] = [];
  const parts = splitFields(text);
  for (const [index, part] of parts.entries()) {
    if (part.raw === '') {
      // a trailing ';' is allowed ([field-delim]); an empty field elsewhere is not
      if (index === parts.length - 1 && index > 0) continue;
      diagnostics.push({
        severity: 'error',
        code: 'TLSRPT_EMPTY_FIELD',
        message: "Empty field between two ';'",
        requirement: 'MUST',
        rfc: RFC_RECORD,
        fix: "Remove the extra ';'.",
        span: part.span,
      });
      continue;
    }
    const equals = part.raw.indexOf('=');
    if (equals <= 0) {
      diagnostics.push({
        severity: 'error',
        code: 'TLSRPT_FIELD_SYNTAX',
        message: `'${part.raw.slice(0, 40)}' is not a name=value field`,
        requirement: 'MUST',
        rfc: RFC_RECORD,
        fix: "Write each field as name=value and separate fields with ';'.",
        span: part.span,
      });
      continue;
    }
    fields.push({
      name: part.raw.slice(0, equals),
      value: part.raw.slice(equals + 1),
      span: part.span,
    });
  }

  const versionField = fields.find((field) => field.name === 'v' || field.name === 'V');
  const looksLikeTlsRpt =
    /^tlsrpt/i.test(versionField?.value ?? '') || fields.some((field) => field.name.toLowerCase() === 'rua');
  if (!looksLikeTlsRpt) {
    const parsed: TlsRptParsed = { version: versionField?.value ?? null, fields, rua: [], extensions: [] };
    return {
      ...toValidationResult(
        [
          {
            severity: 'error',
            code: 'TLSRPT_NOT_TLSRPT',
            message:
              text === ''
                ? 'TLS-RPT record is required'
                : `This is not a TLS-RPT record: it does not start with v=${tlsRptVersion}`,
            requirement: 'MUST',
            rfc: RFC_RECORD,
            fix: `Publish a TXT record at ${tlsRptLabel}.<domain> that starts with v=${tlsRptVersion}; rua=mailto:…`,
          },
        ],
        parsed,
      ),
      verdict: 'not-tls-rpt',
    };
  }

  const first = fields[0];
  if (first === undefined || first !== versionField) {
    diagnostics.push({
      severity: 'error',
      code: 'TLSRPT_VERSION_NOT_FIRST',
      message: `v=${tlsRptVersion} must be the first field of the record`,
      requirement: 'MUST',
      rfc: RFC_RECORD,
      fix: `Move v=${tlsRptVersion} to the start: v=${tlsRptVersion}; rua=…`,
      ...(versionField ? { span: versionField.span } : {}),
    });
  } else if (first.name !== 'v' || first.value !== tlsRptVersion) {
    const caseOnly = `${first.name}=${first.value}`.toLowerCase() === `v=${tlsRptVersion}`.toLowerCase();
    diagnostics.push({
      severity: 'error',
      code: caseOnly ? 'TLSRPT_VERSION_CASE' : 'TLSRPT_VERSION_UNKNOWN',
      message: caseOnly
        ? `'${first.name}=${first.value}' must be written exactly v=${tlsRptVersion}: the version is case-sensitive`
        : `Unknown version '${first.value}': the only TLS-RPT version is ${tlsRptVersion}`,
      requirement: 'MUST',
      rfc: RFC_RECORD,
      fix: `Start the record with v=${tlsRptVersion}.`,
      span: first.span,
    });
  }

  const ruaFields = fields.filter((field) => field.name === 'rua');
  const rua: TlsRptUri[] = [];
  for (const field of ruaFields.slice(0, 1)) {
    const valueStart = field.span.start + field.name.length + 1;
    rua.push(...parseRua(field.value, valueStart));
  }
  for (const duplicate of ruaFields.slice(1)) {
    diagnostics.push({
      severity: 'error',
      code: 'TLSRPT_DUPLICATE_RUA',
      message: 'rua appears more than once; reporters may read only one of them',
      rfc: RFC_RECORD,
      fix: 'Keep one rua= field and list every address in it, separated by commas: rua=mailto:a@example.com,mailto:b@example.com',
      span: duplicate.span,
    });
  }
  if (ruaFields.length === 0) {
    const capitalised = fields.find((field) => field.name !== 'rua' && field.name.toLowerCase() === 'rua');
    diagnostics.push({
      severity: 'error',
      code: 'TLSRPT_RUA_MISSING',
      message: capitalised
        ? `The record has ${capitalised.name}= but no rua=: field names are case-sensitive`
        : 'The record has no rua= field, so reporters have nowhere to send reports',
      requirement: 'MUST',
      rfc: RFC_RECORD,
      fix: 'Add rua= with a mailto: or https: address: v=TLSRPTv1; rua=mailto:tlsrpt@example.com',
      ...(capitalised ? { span: capitalised.span } : {}),
    });
  }
  for (const uri of rua) {
    if (uri.problem === null) continue;
    diagnostics.push({
      severity: 'error',
      code: uri.scheme === null ? 'TLSRPT_URI_NO_SCHEME' : 'TLSRPT_URI_INVALID',
      message: `Reporting URI ${uri.problem}`,
      requirement: 'MUST',
      rfc: RFC_RECORD,
      fix: 'Write each reporting address as mailto:user@example.com or https://host/path, separated by commas, with commas and ! inside a URI percent-encoded.',
      span: uri.span,
    });
  }

  const extensions = fields.filter((field) => field !== versionField && field.name !== 'rua');
  for (const extension of extensions) {
    if (extension.name.toLowerCase() === 'rua') continue; // reported with the missing rua above
    const wellFormed = EXTENSION_NAME.test(extension.name) && EXTENSION_VALUE.test(extension.value);
    diagnostics.push({
      severity: wellFormed ? 'warning' : 'error',
      code: wellFormed ? 'TLSRPT_UNKNOWN_FIELD' : 'TLSRPT_EXTENSION_SYNTAX',
      message: wellFormed
        ? `Unknown field ${extension.name}= is ignored by reporters`
        : `'${extension.name}=${extension.value}' is not a well-formed extension field`,
      requirement: wellFormed ? 'MAY' : 'MUST',
      rfc: RFC_RECORD,
      fix: wellFormed
        ? `Remove ${extension.name}= unless a reporter you know of uses it; RFC 8460 defines only v and rua.`
        : 'Extension names are letters, digits, _, - and . (at most 32); values have no spaces, = or ;.',
      span: extension.span,
    });
  }

  const parsed: TlsRptParsed = {
    version: versionField?.value ?? null,
    fields,
    rua,
    extensions,
  };
  const result = toValidationResult(diagnostics, parsed);
  return {
    ...result,
    verdict: !result.valid ? 'invalid' : result.warnings.length > 0 ? 'valid-warn' : 'valid',
  };
}

export type TlsRptRecordSetVerdict = TlsRptVerdict | 'none' | 'no-reporting';

export interface TlsRptRecordSetResult extends ValidationResult<TlsRptParsed> {
  verdict: TlsRptRecordSetVerdict;
  /** The records that begin with v=TLSRPTv1 (RFC 8460 §3). */
  candidates: string[];
}

/**
 * What a sender makes of the TXT records at `_smtp._tls.<domain>` (RFC 8460 §3): records not
 * beginning with `v=TLSRPTv1;` are discarded; unless exactly one is left, the domain has no TLS-RPT.
 */
export function checkTlsRptRecordSet(records: readonly string[]): TlsRptRecordSetResult {
  const candidates = records.filter(beginsWithTlsRptVersion);
  if (candidates.length === 1) {
    const only = validateTlsRptRecord(candidates[0] ?? '');
    return { ...only, candidates };
  }
  if (candidates.length > 1) {
    return {
      ...toValidationResult([
        {
          severity: 'error',
          code: 'TLSRPT_MULTIPLE_RECORDS',
          message: `${candidates.length} TLS-RPT records are published; senders then assume the domain does not use TLS-RPT and send no reports`,
          requirement: 'MUST',
          rfc: RFC_RECORD,
          fix: 'Publish one v=TLSRPTv1 record and list every reporting address in its rua=, separated by commas.',
        },
      ]),
      verdict: 'no-reporting',
      candidates,
    };
  }
  // a single record that is only near the right form is still worth judging
  const near = records.filter((record) => /^\s*v\s*=\s*tlsrpt/i.test(record));
  if (near.length === 1) return { ...validateTlsRptRecord(near[0] ?? ''), candidates };
  return {
    ...toValidationResult([
      {
        // RFC 8460 makes publishing a record optional: without one, mail flows as before, unreported
        severity: 'info',
        code: 'TLSRPT_NO_RECORD',
        message:
          records.length === 0
            ? 'No TLS-RPT record is published, so no sender reports TLS failures to this domain'
            : 'None of the TXT records begins with v=TLSRPTv1, so no sender reports TLS failures to this domain',
        rfc: RFC_RECORD,
        fix: `Publish one to receive reports: a TXT record at ${tlsRptLabel}.<domain>: v=${tlsRptVersion}; rua=mailto:tlsrpt@<domain>`,
      },
    ]),
    verdict: 'none',
    candidates,
  };
}
