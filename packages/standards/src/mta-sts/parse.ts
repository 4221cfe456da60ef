/**
 * Parsers of the two parts of MTA-STS (RFC 8461): the `_mta-sts` TXT record (§3.1) and the policy
 * file served at `https://mta-sts.<domain>/.well-known/mta-sts.txt` (§3.2). Both keep positions:
 * record fields carry a span, policy fields their 1-based line.
 */
import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { startsWithByteOrderMark, withoutByteOrderMark } from '../core/txt-strings.ts';

export const mtaStsModes = ['enforce', 'testing', 'none'] as const;
export type MtaStsMode = (typeof mtaStsModes)[number];

/** RFC 8461 §3.2: max_age is at most 31557600 seconds (about one year). */
export const mtaStsMaxAgeLimit = 31557600;

const RECORD_SECTION = 'RFC 8461 §3.1';
const POLICY_SECTION = 'RFC 8461 §3.2';

/** `v=STSv1` opening a TXT string, followed by the field delimiter or the end (RFC 8461 §3.1). */
const RECORD_VERSION = /^v=STSv1(?=[ \t]*(?:;|$))/;
const RECORD_ID = /^[A-Za-z0-9]{1,32}$/;
const EXTENSION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
/** sts-ext-value: %x21-3A / %x3C / %x3E-7E (no '=', ';', space or control characters). */
const RECORD_EXTENSION_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;

export interface MtaStsRecordField {
  name: string;
  value: string;
  span: Span;
}

export interface MtaStsRecordParse {
  /** What the text is: an MTA-STS record, a record that tries to be one, or another TXT record. */
  kind: 'mta-sts' | 'not-mta-sts';
  fields: MtaStsRecordField[];
  /** The first `id` value when it is 1-32 letters or digits. */
  id: string | null;
  /** Syntax findings with their spans; an error means senders treat the domain as having no MTA-STS. */
  diagnostics: Diagnostic[];
}

/** True when a TXT string is an MTA-STS record in the sense of RFC 8461 §3.1 (others are discarded). */
export function isMtaStsRecord(text: string): boolean {
  return RECORD_VERSION.test(text);
}

/**
 * Reads pasted record text: surrounding white space goes, and one pair of zone-file quotes around
 * the whole value is taken off. `offset` is where the value starts in the input.
 */
function unquoteRecord(input: string): { text: string; offset: number } {
  const start = input.length - input.trimStart().length;
  const trimmed = input.trim();
  if (
    trimmed.length >= 2 &&
    trimmed.startsWith('"') &&
    trimmed.endsWith('"') &&
    !trimmed.slice(1, -1).includes('"')
  )
    return { text: trimmed.slice(1, -1), offset: start + 1 };
  return { text: trimmed, offset: start };
}

const isWsp = (c: string) => c === ' ' || c === '\t';

/**
 * Parses an `_mta-sts` TXT record (RFC 8461 §3.1): `v=STSv1` first (case-sensitive), then fields
 * separated by `;` with optional space or tab around it, an optional trailing `;`. `id` is required,
 * once, 1-32 letters or digits; extension fields are allowed and ignored.
 */
export function parseMtaStsRecord(input: string): MtaStsRecordParse {
  const { text, offset } = unquoteRecord(input);
  const diagnostics: Diagnostic[] = [];
  if (startsWithByteOrderMark(input))
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_RECORD_BYTE_ORDER_MARK',
      message:
        'The record begins with an invisible byte-order mark (U+FEFF): published so, it does not begin with v=STSv1 and senders discard it',
      requirement: 'MUST',
      rfc: RECORD_SECTION,
      fix: 'Retype the record, or save it as UTF-8 without a byte-order mark, so that it begins with v=STSv1.',
      span: { start: 0, end: input.indexOf('\uFEFF') + 1 },
    });
  const fields: MtaStsRecordField[] = [];
  const whole = { start: offset, end: offset + text.length };
  if (!RECORD_VERSION.test(text)) {
    const looksLikeVersion = /^v\s*=\s*sts/i.test(text);
    diagnostics.push(
      looksLikeVersion
        ? {
            severity: 'error',
            code: 'MTASTS_RECORD_VERSION',
            message: 'The record must start with v=STSv1, written exactly so',
            requirement: 'MUST',
            rfc: RECORD_SECTION,
            fix: 'Begin the record with v=STSv1 (lower-case v, upper-case STS) followed by "; id=…".',
            span: { start: offset, end: offset + (text.indexOf(';') < 0 ? text.length : text.indexOf(';')) },
          }
        : {
            severity: 'error',
            code: 'MTASTS_RECORD_NOT_STS',
            message: 'This is not an MTA-STS record: it does not start with v=STSv1',
            rfc: RECORD_SECTION,
            fix: 'Publish "v=STSv1; id=<1-32 letters or digits>" at _mta-sts.<domain>; senders discard TXT records there that start otherwise.',
            span: whole,
          },
    );
    return { kind: looksLikeVersion ? 'mta-sts' : 'not-mta-sts', fields, id: null, diagnostics };
  }

  // cut at ';', remembering each field's place in the input
  const pieces: Array<{ raw: string; start: number }> = [];
  let pieceStart = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text.charAt(i) === ';') {
      pieces.push({ raw: text.slice(pieceStart, i), start: pieceStart });
      pieceStart = i + 1;
    }
  }
  let id: string | null = null;
  let idSeen = false;
  const extensionNames = new Set<string>();
  pieces.forEach((piece, index) => {
    let from = 0;
    let to = piece.raw.length;
    while (from < to && isWsp(piece.raw.charAt(from))) from++;
    while (to > from && isWsp(piece.raw.charAt(to - 1))) to--;
    const body = piece.raw.slice(from, to);
    const span = { start: offset + piece.start + from, end: offset + piece.start + to };
    if (body === '') {
      // only the last may be empty: the optional trailing ';'
      if (index === pieces.length - 1 && index > 0) return;
      diagnostics.push({
        severity: 'error',
        code: 'MTASTS_RECORD_EMPTY_FIELD',
        message: index === 0 ? 'The record is empty' : 'Empty field between two semicolons',
        requirement: 'MUST',
        rfc: RECORD_SECTION,
        fix: 'Separate fields with a single ";", as in "v=STSv1; id=20240101000000".',
        span: { start: offset + piece.start, end: offset + piece.start + piece.raw.length + 1 },
      });
      return;
    }
    const equals = body.indexOf('=');
    const name = equals < 0 ? body : body.slice(0, equals);
    const value = equals < 0 ? '' : body.slice(equals + 1);
    fields.push({ name, value, span });
    if (index === 0) return; // v=STSv1, checked above
    if (equals < 0) {
      diagnostics.push({
        severity: 'error',
        code: 'MTASTS_RECORD_FIELD_SYNTAX',
        message: `'${body}' is not a name=value field`,
        requirement: 'MUST',
        rfc: RECORD_SECTION,
        fix: 'Write each field as name=value without spaces, separated by ";".',
        span,
      });
      return;
    }
    if (name === 'v') {
      diagnostics.push({
        severity: 'error',
        code: 'MTASTS_RECORD_DUPLICATE_VERSION',
        message: 'v= appears more than once',
        requirement: 'MUST',
        rfc: RECORD_SECTION,
        fix: 'Keep the single v=STSv1 at the start of the record.',
        span,
      });
      return;
    }
    if (name === 'id') {
      if (idSeen) {
        diagnostics.push({
          severity: 'error',
          code: 'MTASTS_RECORD_DUPLICATE_ID',
          message: 'id appears more than once',
          requirement: 'MUST',
          rfc: RECORD_SECTION,
          fix: 'Keep one id field; change its value whenever the policy changes.',
          span,
        });
        id = null;
        return;
      }
      idSeen = true;
      if (RECORD_ID.test(value)) {
        id = value;
      } else {
        diagnostics.push({
          severity: 'error',
          code: 'MTASTS_RECORD_ID_SYNTAX',
          message:
            value === ''
              ? 'id is empty: it must have 1 to 32 letters or digits'
              : value.length > 32
                ? `id has ${value.length} characters: at most 32 letters or digits are allowed`
                : `id '${value}' may only contain letters and digits`,
          requirement: 'MUST',
          rfc: RECORD_SECTION,
          fix: 'Use 1-32 letters or digits, such as the date and time of the policy change: id=20240101120000.',
          span,
        });
      }
      return;
    }
    if (!EXTENSION_NAME.test(name) || !RECORD_EXTENSION_VALUE.test(value)) {
      diagnostics.push({
        severity: 'error',
        code: 'MTASTS_RECORD_EXTENSION_SYNTAX',
        message: `'${body}' is not a valid extension field`,
        requirement: 'MUST',
        rfc: RECORD_SECTION,
        fix: 'Remove the field, or write it as a name of letters, digits, "_", "-" or "." and a value without "=", ";" or spaces.',
        span,
      });
      return;
    }
    diagnostics.push({
      severity: 'info',
      code: extensionNames.has(name) ? 'MTASTS_RECORD_DUPLICATE_EXTENSION' : 'MTASTS_RECORD_UNKNOWN_FIELD',
      message: `Field '${name}' is not defined by RFC 8461: senders ignore it`,
      rfc: RECORD_SECTION,
      fix: 'Nothing is required; remove the field if it was meant to be something else.',
      span,
    });
    extensionNames.add(name);
  });
  if (!idSeen) {
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_RECORD_ID_MISSING',
      message: 'id field is required',
      requirement: 'MUST',
      rfc: RECORD_SECTION,
      fix: 'Add "; id=" and 1-32 letters or digits, for example id=20240101120000; change it with every policy change.',
      span: whole,
    });
  }
  return { kind: 'mta-sts', fields, id, diagnostics };
}

/** What a sender makes of the TXT records at `_mta-sts.<domain>` (RFC 8461 §3.1). */
export interface MtaStsRecordSelection {
  outcome: 'record' | 'none' | 'multiple';
  /** The one record starting with v=STSv1, when there is exactly one. */
  record: string | null;
  /** The TXT records that do not start with v=STSv1 and are discarded. */
  discarded: string[];
}

/**
 * Keeps the records that start with v=STSv1 and discards the rest; more than one left means the
 * domain has no MTA-STS policy (RFC 8461 §3.1).
 */
export function selectMtaStsRecord(records: readonly string[]): MtaStsRecordSelection {
  const sts = records.filter(isMtaStsRecord);
  const discarded = records.filter((record) => !isMtaStsRecord(record));
  if (sts.length === 1) return { outcome: 'record', record: sts[0] ?? null, discarded };
  return { outcome: sts.length === 0 ? 'none' : 'multiple', record: null, discarded };
}

export interface MtaStsPolicyField {
  key: string;
  value: string;
  /** 1-based line of the policy text. */
  line: number;
}

export interface MtaStsPolicyParse {
  fields: MtaStsPolicyField[];
  /** The first `version` value, as written. */
  version: string | null;
  /** The first `mode` value, as written (it may be none of the three modes). */
  mode: string | null;
  /** The first `max_age` value, as written. */
  maxAge: string | null;
  /** Every `mx` value, in order. */
  mx: Array<{ pattern: string; line: number }>;
  diagnostics: Diagnostic[];
}

const POLICY_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;

/**
 * Parses a policy file (RFC 8461 §3.2): one `key: value` field per line, lines ended by CRLF or LF
 * (the ABNF allows both). For a key other than `mx` that appears more than once only the first
 * counts; unknown keys are ignored by senders. Lines starting with '#' are ignored as comments (the
 * product's spec asks for it; RFC 8461 has no comments, so they are flagged) and so are blank lines.
 */
export function parseMtaStsPolicy(input: string): MtaStsPolicyParse {
  const diagnostics: Diagnostic[] = [];
  if (startsWithByteOrderMark(input))
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_POLICY_BYTE_ORDER_MARK',
      message:
        'The policy begins with an invisible byte-order mark (U+FEFF), so its first line is not the version field to a sender',
      requirement: 'MUST',
      rfc: POLICY_SECTION,
      fix: 'Save the policy file as UTF-8 without a byte-order mark (plain ASCII text is enough).',
      line: 1,
    });
  const text = withoutByteOrderMark(input);
  const fields: MtaStsPolicyField[] = [];
  const mx: MtaStsPolicyParse['mx'] = [];
  const firsts = new Map<string, MtaStsPolicyField>();
  const lines = text.split('\n');
  // a final line ending leaves one empty piece: it is not a line
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  let bareCr = false;
  lines.forEach((rawLine, index) => {
    const lineNumber = index + 1;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.includes('\r')) bareCr = true;
    if (line.trim() === '') {
      if (text.trim() !== '')
        diagnostics.push({
          severity: 'warning',
          code: 'MTASTS_POLICY_BLANK_LINE',
          message: `Line ${lineNumber} is blank`,
          rfc: POLICY_SECTION,
          fix: 'Remove blank lines: RFC 8461 has no empty lines between fields, and strict senders reject the policy.',
          line: lineNumber,
        });
      return;
    }
    if (line.trimStart().startsWith('#')) {
      diagnostics.push({
        severity: 'warning',
        code: 'MTASTS_POLICY_COMMENT',
        message: `Line ${lineNumber} is a comment, which RFC 8461 does not define`,
        rfc: POLICY_SECTION,
        fix: 'Remove comment lines: we ignore them, but a sender that follows the RFC grammar strictly may reject the whole policy.',
        line: lineNumber,
      });
      return;
    }
    const colon = line.indexOf(':');
    const key = colon < 0 ? '' : line.slice(0, colon);
    if (colon < 0 || !POLICY_KEY.test(key)) {
      diagnostics.push({
        severity: 'error',
        code: 'MTASTS_POLICY_LINE_SYNTAX',
        message:
          colon < 0
            ? `Line ${lineNumber} is not a "key: value" field`
            : `Line ${lineNumber}: '${key}' is not a field name (no space is allowed before the colon)`,
        requirement: 'MUST',
        rfc: POLICY_SECTION,
        fix: 'Write every line as a field name, a colon and the value, such as "mode: enforce".',
        line: lineNumber,
      });
      return;
    }
    const value = line.slice(colon + 1).trim();
    const field = { key, value, line: lineNumber };
    fields.push(field);
    if (key === 'mx') {
      mx.push({ pattern: value, line: lineNumber });
      return;
    }
    const first = firsts.get(key);
    if (first !== undefined) {
      diagnostics.push({
        severity: 'warning',
        code: 'MTASTS_POLICY_DUPLICATE_FIELD',
        message: `${key} appears again on line ${lineNumber}: senders use only the first (line ${first.line}: '${first.value}')`,
        rfc: POLICY_SECTION,
        fix: `Keep one ${key} line with the value you mean.`,
        line: lineNumber,
      });
      return;
    }
    firsts.set(key, field);
    if (!['version', 'mode', 'max_age'].includes(key)) {
      diagnostics.push({
        severity: 'warning',
        code: 'MTASTS_POLICY_UNKNOWN_FIELD',
        message: `Field '${key}' is not defined by RFC 8461: senders ignore it`,
        rfc: POLICY_SECTION,
        fix: 'Remove the line, or correct its name if it was meant to be version, mode, max_age or mx.',
        line: lineNumber,
      });
    }
  });
  if (bareCr) {
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_POLICY_LINE_ENDINGS',
      message: 'The policy has a carriage return without a line feed',
      requirement: 'MUST',
      rfc: POLICY_SECTION,
      fix: 'End every line with CRLF (or LF); save the file with Windows or Unix line endings, not old Mac ones.',
    });
  }
  return {
    fields,
    version: firsts.get('version')?.value ?? null,
    mode: firsts.get('mode')?.value ?? null,
    maxAge: firsts.get('max_age')?.value ?? null,
    mx,
    diagnostics,
  };
}
