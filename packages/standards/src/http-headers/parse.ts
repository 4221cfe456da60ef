import type { Diagnostic } from '../core/diagnostic.ts';
import type { HeaderField } from './headers.ts';

/** One response found in pasted text: its status line (if any), header fields and body (if any). */
export interface PastedResponse {
  status: number | null;
  statusLine: string | null;
  fields: HeaderField[];
  /** Text after the blank line that ends the header section, when there is any. */
  body: string | null;
}

export interface HeaderBlockParse {
  /** In order; several when the paste holds a redirect chain (`curl -sIL`). The last is graded. */
  responses: PastedResponse[];
  diagnostics: Diagnostic[];
}

export const maxPastedHeaderFields = 1000;
const maxDiagnostics = 100;

const statusLinePattern = /^HTTP\/(\d(?:\.\d)?)[ \t]+(\d{3})(?:[ \t].*)?$/i;
const requestLinePattern = /^[A-Z]+ \S+ HTTP\/\d(?:\.\d)?$/;
const tokenPattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const looksLikeField = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:/;
// eslint-disable-next-line no-control-regex -- control characters other than HTAB are not field content
const controlCharacters = /[\x00-\x08\x0b-\x1f\x7f]/;

interface Line {
  text: string;
  start: number;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
    lines.push({ text: text.slice(start, match.index), start });
    start = match.index + match[0].length;
  }
  lines.push({ text: text.slice(start), start });
  return lines;
}

/** `curl -v` prints response lines as "< name: value"; keep those lines, without the marker. */
function unwrapCurlVerbose(lines: Line[], diagnostics: Diagnostic[]): Line[] {
  if (!lines.some((line) => /^< HTTP\/\d/i.test(line.text))) return lines;
  diagnostics.push({
    severity: 'info',
    code: 'HEADERS_CURL_VERBOSE',
    message: 'Read as curl -v output: only the lines starting with "<" (the response) are used.',
  });
  return lines
    .filter((line) => line.text.startsWith('<'))
    .map((line) => {
      const cut = line.text.startsWith('< ') ? 2 : 1;
      return { text: line.text.slice(cut), start: line.start + cut };
    });
}

/**
 * Reads pasted response headers as a person copies them from a browser, `curl -i`/`-I`/`-v` or
 * a server log: an optional status line, `name: value` fields (RFC 9112 §5), obsolete folded
 * lines (§5.2), several responses in a row, and a body after the blank line. Every line that is
 * not understood is reported with its position; nothing is silently dropped.
 */
export function parseHeaderBlock(input: string): HeaderBlockParse {
  const diagnostics: Diagnostic[] = [];
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const lines = unwrapCurlVerbose(splitLines(text), diagnostics);
  const responses: PastedResponse[] = [];
  let current: PastedResponse | null = null;
  let inHeaders = false;
  let fieldCount = 0;

  const span = (line: Line) => ({ start: line.start, end: line.start + line.text.length });
  // a paste of garbage must not produce a megabyte of messages
  let unreported = 0;
  const report = (diagnostic: Diagnostic) => {
    if (diagnostics.length < maxDiagnostics) diagnostics.push(diagnostic);
    else unreported++;
  };
  // folded continuation lines, joined once at the end (joining line by line is quadratic)
  const folded = new Map<HeaderField, string[]>();
  const startResponse = (status: number | null, statusLine: string | null): PastedResponse => {
    const response: PastedResponse = { status, statusLine, fields: [], body: null };
    responses.push(response);
    inHeaders = true;
    return response;
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const content = line.text;
    const lineNumber = index + 1;

    if (content.trim() === '') {
      if (!inHeaders) continue;
      // a blank line ends the header section: another response, more headers, or a body follows
      let next = index + 1;
      while (next < lines.length && lines[next]!.text.trim() === '') next++;
      const following = lines[next];
      if (!following) break;
      if (statusLinePattern.test(following.text.trim())) {
        inHeaders = false;
        continue;
      }
      if (looksLikeField.test(following.text)) {
        report({
          severity: 'warning',
          code: 'HEADERS_BLANK_LINE',
          message: `Line ${lineNumber} is blank, which would end the header section; the fields after it are read as headers too.`,
          span: span(line),
          fix: 'Remove the blank line, or paste only the header section (the body starts after the first blank line).',
        });
        continue;
      }
      if (current) current.body = text.slice(following.start);
      break;
    }

    const trimmed = content.trim();
    if (statusLinePattern.test(trimmed)) {
      const status = Number(statusLinePattern.exec(trimmed)![2]);
      current = startResponse(status, trimmed);
      continue;
    }
    if (requestLinePattern.test(trimmed)) {
      report({
        severity: 'error',
        code: 'HEADERS_REQUEST_LINE',
        message: `Line ${lineNumber} is a request line ("${trimmed}"): paste the response headers the server sent back, not the request.`,
        span: span(line),
        fix: "Paste the response: in the browser's network panel choose the response headers, or run curl -sI https://example.com/.",
      });
      continue;
    }

    if (content.startsWith(' ') || content.startsWith('\t')) {
      const previous = current?.fields.at(-1);
      if (!previous) {
        report({
          severity: 'error',
          code: 'HEADERS_FOLD_WITHOUT_FIELD',
          message: `Line ${lineNumber} starts with whitespace but follows no header field; it was ignored.`,
          span: span(line),
          fix: 'Join the line to the field it belongs to, or remove its leading whitespace.',
        });
        continue;
      }
      const parts = folded.get(previous);
      if (parts) {
        parts.push(trimmed);
        continue;
      }
      folded.set(previous, [previous.value, trimmed]);
      report({
        severity: 'warning',
        code: 'HEADERS_OBSOLETE_FOLDING',
        message: `Line ${lineNumber} continues ${previous.name} by line folding, which is obsolete; browsers may reject the response.`,
        requirement: 'MUST NOT',
        rfc: 'RFC 9112 §5.2',
        fix: `Send ${previous.name} on one line.`,
        span: span(line),
      });
      continue;
    }

    // HTTP/2 and HTTP/3 pseudo-headers, as browser developer tools show them
    if (content.startsWith(':')) {
      const colon = content.indexOf(':', 1);
      const name = colon === -1 ? content : content.slice(0, colon);
      const value = colon === -1 ? '' : content.slice(colon + 1).trim();
      if (name === ':status' && /^\d{3}$/.test(value)) {
        if (current === null || current.fields.length > 0 || current.status !== null) {
          current = startResponse(Number(value), null);
        } else {
          current.status = Number(value);
        }
      } else {
        report({
          severity: 'info',
          code: 'HEADERS_PSEUDO_HEADER',
          message: `Line ${lineNumber}: the pseudo-header ${name} is not a response header field; it was ignored.`,
          span: span(line),
        });
      }
      continue;
    }

    const colon = content.indexOf(':');
    if (colon === -1) {
      report({
        severity: 'error',
        code: 'HEADERS_LINE_NOT_A_FIELD',
        message: `Line ${lineNumber} is not a header field (expected "name: value"); it was ignored.`,
        span: span(line),
        fix: 'Write each field as name: value on its own line, or remove the line.',
      });
      continue;
    }
    const rawName = content.slice(0, colon);
    const name = rawName.trimEnd();
    if (!tokenPattern.test(name)) {
      report({
        severity: 'error',
        code: 'HEADERS_INVALID_NAME',
        message: `Line ${lineNumber}: "${name}" is not a valid field name (letters, digits and !#$%&'*+-.^_\`|~ only); it was ignored.`,
        rfc: 'RFC 9110 §5.1',
        span: span(line),
        fix: 'Correct the field name (no spaces or separators such as ; , "), or remove the line.',
      });
      continue;
    }
    if (name !== rawName) {
      report({
        severity: 'warning',
        code: 'HEADERS_SPACE_BEFORE_COLON',
        message: `Line ${lineNumber}: whitespace between the field name ${name} and the colon is not allowed; some clients reject the response or drop the field. It is graded as ${name}.`,
        requirement: 'MUST',
        rfc: 'RFC 9112 §5.1',
        fix: `Write "${name}:" without the space.`,
        span: span(line),
      });
    }
    const value = content.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (controlCharacters.test(value)) {
      report({
        severity: 'warning',
        code: 'HEADERS_CONTROL_CHARACTERS',
        message: `Line ${lineNumber}: the value of ${name} holds control characters, which are not valid field content.`,
        rfc: 'RFC 9110 §5.5',
        span: span(line),
        fix: 'Send the value without control characters (bytes below 0x20 other than tab, and 0x7F).',
      });
    }
    if (++fieldCount > maxPastedHeaderFields) {
      report({
        severity: 'error',
        code: 'HEADERS_TOO_MANY',
        message: `More than ${maxPastedHeaderFields} header fields: the rest was not read.`,
        span: span(line),
        fix: 'Paste only the response you want graded, or remove fields that repeat.',
      });
      break;
    }
    current ??= startResponse(null, null);
    current.fields.push({ name, value });
  }

  for (const [field, parts] of folded) field.value = parts.filter((part) => part !== '').join(' ');
  if (unreported > 0) {
    diagnostics.push({
      severity: 'info',
      code: 'HEADERS_MORE_PROBLEMS',
      message: `${unreported} more problems in the pasted text are not listed.`,
    });
  }

  // interim 1xx responses (100 Continue, 103 Early Hints) precede the real one
  const interim = responses.filter((r) => r.status !== null && r.status < 200);
  if (interim.length) {
    diagnostics.push({
      severity: 'info',
      code: 'HEADERS_INTERIM_RESPONSE',
      message: `Interim responses (${interim.map((r) => r.status).join(', ')}) were skipped; the final response is graded.`,
    });
  }
  const withFields = responses.filter(
    (r) => (r.fields.length > 0 || r.status !== null) && !(r.status !== null && r.status < 200),
  );
  if (!withFields.some((r) => r.fields.length > 0)) {
    diagnostics.push({
      severity: 'error',
      code: 'HEADERS_NONE',
      message:
        'No response header fields were found. Paste lines such as "Strict-Transport-Security: max-age=63072000".',
      fix: 'Paste the response header fields, one name: value per line.',
    });
  } else if (withFields.length > 1) {
    diagnostics.push({
      severity: 'info',
      code: 'HEADERS_SEVERAL_RESPONSES',
      message: `The paste holds ${withFields.length} responses; the last one is graded and the ones before it are shown as its redirects.`,
    });
  }
  return { responses: withFields, diagnostics };
}
