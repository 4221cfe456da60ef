/**
 * SPF macros (RFC 7208 §7): reading a macro-string with the failing position, and expanding it.
 *
 *   macro-expand = ( "%{" macro-letter transformers *delimiter "}" ) / "%%" / "%_" / "%-"
 *   macro-letter = "s" / "l" / "o" / "d" / "i" / "p" / "h" / "c" / "r" / "t" / "v"
 *   transformers = *DIGIT [ "r" ]
 *   delimiter    = "." / "-" / "+" / "," / "/" / "_" / "="
 *   macro-literal = %x21-24 / %x26-7E
 */
import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { dottedIp, formatIp, type IpAddress } from './ip.ts';

export type MacroLetter = 's' | 'l' | 'o' | 'd' | 'i' | 'p' | 'h' | 'c' | 'r' | 't' | 'v';

export type MacroToken =
  | { kind: 'literal'; text: string; span: Span }
  /** `%%`, `%_` or `%-`, with what each stands for. */
  | { kind: 'escape'; text: '%%' | '%_' | '%-'; value: '%' | ' ' | '%20'; span: Span }
  | {
      kind: 'macro';
      text: string;
      letter: MacroLetter;
      /** Written in upper case: the value is URL-escaped (RFC 7208 §7.3). */
      urlEscape: boolean;
      /** How many right-hand parts to keep; absent for all. */
      digits?: number;
      reverse: boolean;
      /** The delimiters to split on; `.` when none were written. */
      delimiters: string;
      span: Span;
    };

/**
 * Where a macro-string stands, which decides what it may contain: a `domain-spec` (mechanism
 * arguments, `redirect=`, `exp=`), the explanation text fetched for `exp=` (which may also hold
 * spaces and the letters c, r, t), or an unknown modifier's value (never expanded).
 */
export type MacroStringKind = 'domain-spec' | 'explanation' | 'unknown-modifier';

export interface MacroStringParse {
  tokens: MacroToken[];
  diagnostics: Diagnostic[];
  /** Whether any macro or escape is present (the string is not a plain literal). */
  hasMacros: boolean;
}

const LETTERS = new Set<string>(['s', 'l', 'o', 'd', 'i', 'p', 'h', 'c', 'r', 't', 'v']);
const EXPLANATION_ONLY = new Set<string>(['c', 'r', 't']);
const DELIMITERS = '.-+,/_=';
const ESCAPES = { '%': '%', _: ' ', '-': '%20' } as const;

const MACRO_RFC = 'RFC 7208 §7.1';

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if (code === 0x20) return 'a space';
  if (code < 0x20 || code === 0x7f)
    return `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code > 0x7e)
    return `the non-ASCII character '${c}' (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
  return `'${c}'`;
}

/**
 * Reads a macro-string (RFC 7208 §7.1). `offset` is where the string starts in the record, so
 * that spans point into the record. Errors make the record a permerror when it is evaluated.
 */
export function parseMacroString(text: string, kind: MacroStringKind, offset = 0): MacroStringParse {
  const tokens: MacroToken[] = [];
  const diagnostics: Diagnostic[] = [];
  let literal = '';
  let literalStart = 0;
  let hasMacros = false;
  const flush = (end: number) => {
    if (literal !== '') {
      tokens.push({
        kind: 'literal',
        text: literal,
        span: { start: offset + literalStart, end: offset + end },
      });
    }
    literal = '';
  };
  const error = (code: string, message: string, start: number, end: number, fix: string) => {
    diagnostics.push({
      severity: 'error',
      code,
      message,
      requirement: 'MUST',
      rfc: MACRO_RFC,
      fix,
      span: { start: offset + start, end: offset + end },
    });
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c !== '%') {
      const code = c.codePointAt(0) ?? 0;
      const allowed = (code >= 0x21 && code <= 0x7e) || (code === 0x20 && kind === 'explanation');
      if (!allowed) {
        const width = code > 0xffff ? 2 : 1;
        error(
          'SPF_MACRO_STRING_CHARACTER',
          `${describeChar(String.fromCodePoint(code))} is not allowed here: SPF text is visible 7-bit ASCII`,
          i,
          i + width,
          'Remove the character, or write a space as %_ and a URL-encoded space as %-.',
        );
        i += width;
        continue;
      }
      if (literal === '') literalStart = i;
      literal += c;
      i++;
      continue;
    }
    flush(i);
    const next = text[i + 1];
    if (next === '%' || next === '_' || next === '-') {
      hasMacros = true;
      tokens.push({
        kind: 'escape',
        text: `%${next}`,
        value: ESCAPES[next],
        span: { start: offset + i, end: offset + i + 2 },
      });
      i += 2;
      continue;
    }
    if (next !== '{') {
      error(
        'SPF_MACRO_PERCENT',
        next === undefined
          ? "a '%' at the end must be followed by '{', '%', '_' or '-'"
          : `'%' followed by ${describeChar(next)}: a '%' must be followed by '{', '%', '_' or '-'`,
        i,
        Math.min(text.length, i + 2),
        'Write a literal percent sign as %%, or a macro as %{letter}.',
      );
      i += next === undefined ? 1 : 2;
      continue;
    }
    const close = text.indexOf('}', i + 2);
    if (close === -1) {
      error(
        'SPF_MACRO_UNTERMINATED',
        "macro '%{' is not closed with '}'",
        i,
        text.length,
        'Close the macro with }.',
      );
      break;
    }
    const body = text.slice(i + 2, close);
    const match = /^([A-Za-z])(\d*)([rR]?)([.\-+,/_=]*)$/.exec(body);
    const start = i;
    i = close + 1;
    if (match === null) {
      const first = body[0];
      error(
        'SPF_MACRO_SYNTAX',
        first === undefined
          ? "empty macro '%{}'"
          : /[A-Za-z]/.test(first) && LETTERS.has(first.toLowerCase())
            ? `macro '%{${body}}': after the letter come optional digits, an optional 'r' and delimiters (${DELIMITERS.split('').join(' ')})`
            : `macro '%{${body}}' does not start with a macro letter (s l o d i p h c r t v)`,
        start,
        i,
        "Write a macro as %{letter}, optionally with digits, 'r' and delimiters, e.g. %{d2} or %{ir}.",
      );
      continue;
    }
    const [, letterText = '', digitText = '', reverse = '', delimiters = ''] = match;
    const letter = letterText.toLowerCase();
    if (!LETTERS.has(letter)) {
      error(
        'SPF_MACRO_LETTER',
        `'${letterText}' is not a macro letter (s l o d i p h c r t v)`,
        start + 2,
        start + 3,
        'Use one of the macro letters s l o d i p h v (c r t only in exp= text).',
      );
      continue;
    }
    if (EXPLANATION_ONLY.has(letter) && kind === 'domain-spec') {
      diagnostics.push({
        severity: 'error',
        code: 'SPF_MACRO_EXPLANATION_ONLY',
        message: `the macro letter '${letter}' is allowed only in explanation text, not in a domain-spec`,
        requirement: 'MUST',
        rfc: 'RFC 7208 §7.2',
        fix: 'Use c, r and t only in the TXT record that exp= points to.',
        span: { start: offset + start, end: offset + i },
      });
      continue;
    }
    let digits: number | undefined;
    if (digitText !== '') {
      digits = Number(digitText);
      if (digits === 0) {
        error(
          'SPF_MACRO_ZERO_DIGITS',
          `macro '%{${body}}' keeps zero parts: the number of parts must be nonzero`,
          start,
          i,
          'Remove the 0 or give the number of right-hand parts to keep (1 or more).',
        );
        continue;
      }
    }
    hasMacros = true;
    tokens.push({
      kind: 'macro',
      text: text.slice(start, i),
      letter: letter as MacroLetter,
      urlEscape: letterText !== letter,
      ...(digits === undefined ? {} : { digits }),
      reverse: reverse !== '',
      delimiters: delimiters === '' ? '.' : [...new Set(delimiters)].join(''),
      span: { start: offset + start, end: offset + i },
    });
  }
  flush(text.length);
  return { tokens, diagnostics, hasMacros };
}

/** The values macros expand to (RFC 7208 §7.2), for one check_host() call. */
export interface MacroValues {
  /** `s`: the sender, `local@domain` (`postmaster@helo` for a null MAIL FROM). */
  sender: string;
  /** `d`: the domain whose record is being evaluated. */
  domain: string;
  /** `i`, `c`, `v`: the client address. */
  ip: IpAddress;
  /** `h`: the HELO/EHLO name as given. */
  helo: string;
  /** `r`: the checking host's name; "unknown" when absent (RFC 7208 §7.3). */
  receivingHost?: string;
  /** `t`: seconds since the Epoch. */
  now?: number;
  /** `p`: looked up only when a macro asks for it (RFC 7208 §7.3); "unknown" when absent. */
  validatedDomain?: () => Promise<string>;
}

/** `l` and `o` of a sender: the part before the last `@` ("postmaster" when empty) and after it. */
export function senderParts(sender: string): { localPart: string; domain: string } {
  const at = sender.lastIndexOf('@');
  if (at === -1) return { localPart: 'postmaster', domain: sender };
  const localPart = sender.slice(0, at);
  return { localPart: localPart === '' ? 'postmaster' : localPart, domain: sender.slice(at + 1) };
}

const encoder = new TextEncoder();

/** Percent-encodes every octet outside RFC 3986's `unreserved` set (RFC 7208 §7.3). */
export function urlEscape(value: string): string {
  let out = '';
  for (const byte of encoder.encode(value)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Splits on any of the delimiters, reverses, keeps the right-hand parts, joins with dots. */
export function transformMacroValue(
  value: string,
  options: { delimiters: string; reverse: boolean; digits?: number },
): string {
  let parts: string[] = [];
  let current = '';
  for (const c of value) {
    if (options.delimiters.includes(c)) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  if (options.reverse) parts = parts.reverse();
  if (options.digits !== undefined && options.digits < parts.length) parts = parts.slice(-options.digits);
  return parts.join('.');
}

async function letterValue(letter: MacroLetter, values: MacroValues): Promise<string> {
  switch (letter) {
    case 's':
      return values.sender;
    case 'l':
      return senderParts(values.sender).localPart;
    case 'o':
      return senderParts(values.sender).domain;
    case 'd':
      return values.domain;
    case 'i':
      return dottedIp(values.ip);
    case 'p':
      return values.validatedDomain === undefined ? 'unknown' : values.validatedDomain();
    case 'v':
      return values.ip.version === 4 ? 'in-addr' : 'ip6';
    case 'h':
      return values.helo;
    case 'c':
      return formatIp(values.ip);
    case 'r':
      return values.receivingHost === undefined || values.receivingHost === ''
        ? 'unknown'
        : values.receivingHost;
    case 't':
      return String(Math.floor((values.now ?? Date.now()) / 1000));
  }
}

/** Expands parsed macro tokens (RFC 7208 §7.3). */
export async function expandMacroTokens(tokens: readonly MacroToken[], values: MacroValues): Promise<string> {
  let out = '';
  for (const token of tokens) {
    if (token.kind === 'literal') out += token.text;
    else if (token.kind === 'escape') out += token.value;
    else {
      const raw = await letterValue(token.letter, values);
      const transformed = transformMacroValue(raw, {
        delimiters: token.delimiters,
        reverse: token.reverse,
        ...(token.digits === undefined ? {} : { digits: token.digits }),
      });
      out += token.urlEscape ? urlEscape(transformed) : transformed;
    }
  }
  return out;
}

/**
 * When an expanded domain-spec is longer than 253 characters, labels are removed from the left
 * until it fits (RFC 7208 §7.3). A trailing dot is dropped first: it does not change the name.
 */
export function truncateDomain(name: string): string {
  let out = name.endsWith('.') ? name.slice(0, -1) : name;
  while (out.length > 253) {
    const dot = out.indexOf('.');
    if (dot === -1) return out;
    out = out.slice(dot + 1);
  }
  return out;
}
