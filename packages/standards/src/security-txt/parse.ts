import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { readSignatureArmor, type ArmorLine, type OpenPgpSignatureInfo } from './openpgp-armor.ts';

/** What a line of the file is. */
export type SecurityTxtLineKind =
  | 'blank'
  | 'comment'
  | 'field'
  /** Not a comment, field or blank line; a diagnostic says why. */
  | 'invalid'
  /** `-----BEGIN PGP SIGNED MESSAGE-----`, its Hash headers and the empty line after them. */
  | 'signed-header'
  /** `-----BEGIN PGP SIGNATURE-----` through `-----END PGP SIGNATURE-----`. */
  | 'signature'
  /** Anything after the signature block. */
  | 'after-signature';

export interface SecurityTxtLine {
  /** 1-based. */
  number: number;
  /** Offset of the line's first character in `text`. */
  start: number;
  /** Offset just past its last character, before any CR LF. */
  end: number;
  /** The line as written, without the line separator. */
  text: string;
  kind: SecurityTxtLineKind;
}

export interface SecurityTxtField {
  /** The name as written, e.g. `CONTACT`. */
  name: string;
  /** Lower-case name: field names are case-insensitive (RFC 9116 §2.5). */
  key: string;
  value: string;
  line: number;
  /** The whole line. */
  span: Span;
  valueSpan: Span;
  /** Inside the OpenPGP-signed text of a signed file. */
  signed: boolean;
}

/** The OpenPGP cleartext signature framework around the fields (RFC 9580 §7, RFC 4880 §7). */
export interface CleartextSignature {
  /** Line of `-----BEGIN PGP SIGNED MESSAGE-----`. */
  headerLine: number;
  /** Values of the Hash armour headers, upper-case, e.g. `SHA256`. */
  hashes: string[];
  /** Line of `-----BEGIN PGP SIGNATURE-----`, or null when it is missing. */
  signatureLine: number | null;
  /** Line of `-----END PGP SIGNATURE-----`, or null when it is missing. */
  endLine: number | null;
  /**
   * The cleartext-signed message exactly as in the file, from the header line to the end line;
   * null when the framework is incomplete. This is what a verifier checks.
   */
  message: string | null;
  /** The signature packets, read but not verified. */
  signatures: OpenPgpSignatureInfo[];
}

export interface SecurityTxtDocument {
  /** The decoded text, with a byte order mark if there was one. */
  text: string;
  lines: SecurityTxtLine[];
  fields: SecurityTxtField[];
  /** Null for an unsigned file. */
  signature: CleartextSignature | null;
  /** Syntax findings: lines, separators, encoding and the signature framework. */
  diagnostics: Diagnostic[];
}

const SIGNED_HEADER = '-----BEGIN PGP SIGNED MESSAGE-----';
const SIGNATURE_BEGIN = '-----BEGIN PGP SIGNATURE-----';
const SIGNATURE_END = '-----END PGP SIGNATURE-----';
const BOM = '\uFEFF';

const FORMAT_RFC = 'RFC 9116 §4';
const SIGNED_RFC = 'RFC 9116 §2.3, RFC 9580 §7';
const resignFix =
  'Sign the finished file with gpg --clearsign and publish the output unchanged, nothing before or after it.';

/** RFC 5322 §3.6.8 field-name: printable US-ASCII other than the colon. */
const fieldNamePattern = /^[\x21-\x39\x3b-\x7e]+$/;

function at(line: SecurityTxtLine, start = line.start, end = line.end): Pick<Diagnostic, 'line' | 'span'> {
  return { line: line.number, span: { start, end } };
}

/** Decodes bytes as UTF-8; invalid sequences become U+FFFD and an error, as sectxt does. */
function decode(input: string | Uint8Array, diagnostics: Diagnostic[]): string {
  if (typeof input === 'string') {
    if (!input.isWellFormed()) {
      diagnostics.push(utf8Error());
      return input.toWellFormed();
    }
    return input;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input);
  } catch {
    diagnostics.push(utf8Error());
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(input);
  }
}

function utf8Error(): Diagnostic {
  return {
    severity: 'error',
    code: 'utf8',
    message: 'The file is not valid UTF-8',
    requirement: 'MUST',
    rfc: FORMAT_RFC,
    fix: 'Save the file as UTF-8 (without a byte order mark).',
  };
}

/**
 * Reads a security.txt file line by line (RFC 9116 §2–§4), as sectxt does: lines split on LF with
 * trailing whitespace (and so a CR) dropped, `#` comments, `Name: value` fields with
 * case-insensitive names, and the OpenPGP cleartext signature framework around them (header line,
 * Hash headers, dash-escaped text, armoured signature). Bytes are decoded as UTF-8.
 *
 * Every syntax problem becomes a diagnostic with its line; field values are checked by
 * `validateSecurityTxt`.
 */
export function parseSecurityTxt(input: string | Uint8Array): SecurityTxtDocument {
  const diagnostics: Diagnostic[] = [];
  const bomBytes =
    typeof input !== 'string' &&
    input.length >= 3 &&
    input[0] === 0xef &&
    input[1] === 0xbb &&
    input[2] === 0xbf;
  const text = decode(input, diagnostics);
  if (bomBytes || text.startsWith(BOM)) {
    diagnostics.push({
      severity: 'error',
      code: 'bom_in_file',
      message:
        'The file starts with a byte order mark (U+FEFF), which breaks the first line for many parsers',
      requirement: 'MUST NOT',
      rfc: `${FORMAT_RFC} (Net-Unicode, RFC 5198 §2)`,
      fix: 'Save the file as UTF-8 without a BOM.',
    });
  }

  const lines = splitLines(text);
  const fields: SecurityTxtField[] = [];
  let signature: CleartextSignature | null = null;
  let state: 'text' | 'signed-headers' | 'signature' | 'after' = 'text';
  let signatureLines: SecurityTxtLine[] = [];
  let headerStart = 0;

  for (const line of lines) {
    const trimmed = line.text.trimEnd();
    const crAt = line.text.indexOf('\r');
    if (crAt !== -1 && crAt < trimmed.length) {
      diagnostics.push({
        severity: 'error',
        code: 'cr_without_lf',
        message: 'A carriage return (CR) inside the line: lines end with CRLF or LF only',
        requirement: 'MUST',
        rfc: 'RFC 9116 §2.2',
        fix: 'Convert the line endings to LF (or CRLF); a lone CR as used by classic Mac OS is not a line break here.',
        ...at(line, line.start + crAt, line.start + crAt + 1),
      });
    }

    if (state === 'signature') {
      line.kind = 'signature';
      signatureLines.push(line);
      if (trimmed === SIGNATURE_END) {
        state = 'after';
        finishSignature(signature!, signatureLines, text.slice(headerStart, line.end), diagnostics);
      }
      continue;
    }
    if (state === 'after') {
      if (trimmed === '') {
        line.kind = 'blank';
        continue;
      }
      line.kind = 'after-signature';
      diagnostics.push({
        severity: 'error',
        code: 'data_after_sig',
        message: 'Text after the end of the signature is not covered by it',
        requirement: 'MUST',
        rfc: FORMAT_RFC,
        fix: 'Move the line into the signed part and sign again, or delete it.',
        ...at(line),
      });
      continue;
    }
    if (state === 'signed-headers') {
      if (trimmed === '') {
        line.kind = 'signed-header';
        state = 'text';
        continue;
      }
      const header = /^([^\s:]+): ?(.*)$/.exec(trimmed);
      if (header && header[1]!.toLowerCase() === 'hash') {
        line.kind = 'signed-header';
        signature!.hashes.push(
          ...header[2]!
            .split(',')
            .map((h) => h.trim().toUpperCase())
            .filter(Boolean),
        );
        continue;
      }
      state = 'text';
      diagnostics.push({
        severity: 'error',
        code: 'pgp_data_error',
        message: header
          ? `'${header[1]}' is not an armour header of a signed message: only Hash may follow -----BEGIN PGP SIGNED MESSAGE-----, then an empty line`
          : 'An empty line must follow the Hash headers of the signed message',
        requirement: 'MUST',
        rfc: 'RFC 9580 §7',
        fix: resignFix,
        ...at(line),
      });
      // read on as text, as a verifier that tolerated it would
    }

    let content = trimmed;
    let offset = line.start;
    // RFC 9580 §7.1: in the signed text, a line starting with '-' is written with '- ' in front
    if (signature && content.startsWith('- ')) {
      content = content.slice(2);
      offset += 2;
    }

    if (content === SIGNED_HEADER && !signature) {
      line.kind = 'signed-header';
      headerStart = line.start;
      signature = {
        headerLine: line.number,
        hashes: [],
        signatureLine: null,
        endLine: null,
        message: null,
        signatures: [],
      };
      state = 'signed-headers';
      if (line.number !== 1) {
        diagnostics.push({
          severity: 'error',
          code: 'signed_format_issue',
          message: `The signed message starts on line ${line.number}: -----BEGIN PGP SIGNED MESSAGE----- must be the first line`,
          requirement: 'MUST',
          rfc: SIGNED_RFC,
          fix: 'Remove everything before -----BEGIN PGP SIGNED MESSAGE-----; text outside the signed part is not protected by the signature.',
          ...at(line),
        });
      }
      continue;
    }
    if (content === SIGNATURE_BEGIN && signature) {
      line.kind = 'signature';
      signature.signatureLine = line.number;
      signatureLines = [line];
      state = 'signature';
      continue;
    }
    if (content.startsWith('#')) {
      line.kind = 'comment';
      continue;
    }
    if (content === '') {
      line.kind = 'blank';
      continue;
    }
    const colon = content.indexOf(':');
    if (colon === -1) {
      line.kind = 'invalid';
      diagnostics.push({
        severity: 'error',
        code: 'invalid_line',
        message: 'This line is not a field (Name: value), a comment (#) or empty',
        requirement: 'MUST',
        rfc: FORMAT_RFC,
        fix: "Write the line as 'Field-Name: value', start it with '#' to make it a comment, or delete it.",
        ...at(line, offset, line.start + trimmed.length),
      });
      continue;
    }
    const field = readField(line, content, offset, colon, signature !== null, diagnostics);
    if (field) fields.push(field);
  }

  if (signature && signature.signatureLine === null) {
    diagnostics.push({
      severity: 'error',
      code: 'pgp_data_error',
      message: 'The file starts a signed message, but there is no -----BEGIN PGP SIGNATURE----- block',
      requirement: 'MUST',
      rfc: SIGNED_RFC,
      fix: resignFix,
      ...at(lines.find((l) => l.number === signature!.headerLine)!),
    });
  } else if (signature && signature.endLine === null) {
    diagnostics.push({
      severity: 'error',
      code: 'pgp_data_error',
      message: 'The signature block has no -----END PGP SIGNATURE----- line',
      requirement: 'MUST',
      rfc: SIGNED_RFC,
      fix: resignFix,
      ...at(lines.find((l) => l.number === signature!.signatureLine)!),
    });
  }

  checkSeparators(text, lines, signature, diagnostics);
  return { text, lines, fields, signature, diagnostics };
}

/** Lines split on LF; the empty string after a final LF is not a line. */
function splitLines(text: string): SecurityTxtLine[] {
  const lines: SecurityTxtLine[] = [];
  const bom = text.startsWith(BOM) ? 1 : 0;
  let start = bom;
  let number = 1;
  while (start <= text.length) {
    const lf = text.indexOf('\n', start);
    const end = lf === -1 ? text.length : lf;
    if (lf === -1 && start === text.length) break;
    let contentEnd = end;
    if (contentEnd > start && text.charCodeAt(contentEnd - 1) === 0x0d) contentEnd--;
    lines.push({
      number: number++,
      start,
      end: contentEnd,
      text: text.slice(start, contentEnd),
      kind: 'blank',
    });
    if (lf === -1) break;
    start = lf + 1;
  }
  return lines;
}

function readField(
  line: SecurityTxtLine,
  content: string,
  offset: number,
  colon: number,
  signed: boolean,
  diagnostics: Diagnostic[],
): SecurityTxtField | null {
  const rawName = content.slice(0, colon);
  const name = rawName.trimEnd();
  const afterColon = content.slice(colon + 1);
  const lineEnd = offset + content.length;
  let ok = true;

  if (name !== rawName) {
    diagnostics.push({
      severity: 'error',
      code: 'prec_ws',
      message: `Whitespace between the field name '${name}' and the colon`,
      requirement: 'MUST NOT',
      rfc: FORMAT_RFC,
      fix: `Write '${name}:' with the colon right after the name.`,
      ...at(line, offset + name.length, offset + colon),
    });
  }
  if (afterColon !== '' && afterColon[0] !== ' ') {
    diagnostics.push({
      severity: 'error',
      code: 'no_space',
      message: `The colon after '${name}' must be followed by a space`,
      requirement: 'MUST',
      rfc: FORMAT_RFC,
      fix: `Write '${name}: ${afterColon.trimStart()}'.`,
      ...at(line, offset + colon, offset + colon + 1),
    });
  }
  if (name === '') {
    diagnostics.push({
      severity: 'error',
      code: 'empty_key',
      message: 'The line has no field name before the colon',
      requirement: 'MUST',
      rfc: FORMAT_RFC,
      fix: "Put the field name before the colon, e.g. 'Contact: mailto:security@example.com'.",
      ...at(line, offset, lineEnd),
    });
    ok = false;
  } else if (!fieldNamePattern.test(name)) {
    diagnostics.push({
      severity: 'error',
      code: 'invalid_field_name',
      message: `'${name}' is not a field name: names are printable ASCII without spaces or colons`,
      requirement: 'MUST',
      rfc: `${FORMAT_RFC} (field-name, RFC 5322 §3.6.8)`,
      fix: "Use one of the registered names such as 'Contact', or start the line with '#' to make it a comment.",
      ...at(line, offset, offset + name.length),
    });
    ok = false;
  }
  const value = afterColon.trimStart();
  if (name !== '' && value === '') {
    diagnostics.push({
      severity: 'error',
      code: 'empty_value',
      message: `'${name}' has no value`,
      requirement: 'MUST',
      rfc: FORMAT_RFC,
      fix: `Give '${name}' a value or delete the line.`,
      ...at(line, offset, lineEnd),
    });
    ok = false;
  }
  if (!ok) {
    line.kind = 'invalid';
    return null;
  }
  line.kind = 'field';
  const valueStart = lineEnd - value.length;
  return {
    name,
    key: name.toLowerCase(),
    value,
    line: line.number,
    span: { start: line.start, end: lineEnd },
    valueSpan: { start: valueStart, end: lineEnd },
    signed,
  };
}

function finishSignature(
  signature: CleartextSignature,
  block: SecurityTxtLine[],
  message: string,
  diagnostics: Diagnostic[],
): void {
  signature.endLine = block.at(-1)!.number;
  const armor: ArmorLine[] = block.map(({ number, start, end, text: lineText }) => ({
    number,
    start,
    end,
    text: lineText.trimEnd(),
  }));
  const read = readSignatureArmor(armor, signature.hashes);
  signature.signatures = read.signatures;
  diagnostics.push(...read.diagnostics);
  // from the header line to the END line, which is what the signer produced
  if (read.diagnostics.every((d) => d.severity !== 'error')) signature.message = `${message}\n`;
}

/** RFC 9116 §2.2: every line ends with CRLF or LF; a signed file ends right after its signature. */
function checkSeparators(
  text: string,
  lines: SecurityTxtLine[],
  signature: CleartextSignature | null,
  diagnostics: Diagnostic[],
): void {
  const last = lines.at(-1);
  if (!last) return;
  if (!text.endsWith('\n')) {
    diagnostics.push({
      severity: 'error',
      code: 'no_line_separators',
      message: 'The last line does not end with a line break',
      requirement: 'MUST',
      rfc: 'RFC 9116 §2.2',
      fix: 'End the file with a newline (LF).',
      line: last.number,
      span: { start: last.end, end: last.end },
    });
  }
  if (signature?.endLine != null && last.number > signature.endLine) {
    const trailing = lines.filter((l) => l.number > signature.endLine!);
    if (trailing.every((l) => l.kind === 'blank')) {
      // sectxt counts the position after the final line break as a line of its own
      const number = last.number + (text.endsWith('\n') ? 1 : 0);
      diagnostics.push({
        severity: 'error',
        code: 'too_many_line_separators',
        message: 'The signed file ends with empty lines after -----END PGP SIGNATURE-----',
        requirement: 'MUST NOT',
        rfc: FORMAT_RFC,
        fix: 'End the file with the line break right after -----END PGP SIGNATURE-----.',
        line: number,
        span: { start: text.length, end: text.length },
      });
    }
  }
}
