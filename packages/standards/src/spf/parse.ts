/**
 * The SPF record parser (RFC 7208 §4.5, §4.6, §5, §6, §7, §12): every term with its position, a
 * diagnostic for every problem, and the facts an evaluator or a linter needs (lookup terms, the
 * deciding `all`, `redirect` and `exp`).
 *
 *   record           = version terms *SP
 *   version          = "v=spf1"
 *   terms            = *( 1*SP ( directive / modifier ) )
 *   directive        = [ qualifier ] mechanism
 *   qualifier        = "+" / "-" / "?" / "~"
 *   modifier         = redirect / explanation / unknown-modifier
 *   unknown-modifier = name "=" macro-string
 *   name             = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." )
 */
import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { parseIp4, parseIp6, type IpAddress, formatIp, networkAddress } from './ip.ts';
import { parseMacroString, type MacroToken } from './macros.ts';

export type SpfQualifier = '+' | '-' | '~' | '?';
export type SpfMechanismName = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';
export type SpfResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'permerror' | 'temperror';

export const spfResults: readonly SpfResult[] = [
  'pass',
  'fail',
  'softfail',
  'neutral',
  'none',
  'permerror',
  'temperror',
];

/** What a matching mechanism with each qualifier makes the result (RFC 7208 §4.6.2). */
export const qualifierResults: Readonly<Record<SpfQualifier, SpfResult>> = {
  '+': 'pass',
  '-': 'fail',
  '~': 'softfail',
  '?': 'neutral',
};

/** A domain-spec as written (RFC 7208 §7.1), read into macro tokens. */
export interface SpfDomainSpec {
  text: string;
  span: Span;
  tokens: MacroToken[];
  /** Whether it holds macros; without them it is the target name itself. */
  hasMacros: boolean;
}

interface TermBase {
  /** Position among the record's terms, from 0. */
  index: number;
  /** The term as written. */
  text: string;
  span: Span;
}

export interface SpfMechanism extends TermBase {
  type: 'mechanism';
  name: SpfMechanismName;
  qualifier: SpfQualifier;
  /** Whether the qualifier was written; "+" when not. */
  explicitQualifier: boolean;
  /** include, exists (required); a, mx, ptr (optional: the current domain when absent). */
  domainSpec?: SpfDomainSpec;
  /** a, mx: the IPv4 prefix length (32 when absent). */
  ip4Cidr?: number;
  /** a, mx: the IPv6 prefix length (128 when absent). */
  ip6Cidr?: number;
  /** ip4, ip6: the network and prefix length written. */
  network?: { address: IpAddress; prefix: number; text: string };
}

export interface SpfModifier extends TermBase {
  type: 'modifier';
  /** Lower case. */
  name: string;
  kind: 'redirect' | 'exp' | 'unknown';
  value: string;
  valueSpan: Span;
  /** redirect and exp: the value read as a domain-spec. */
  domainSpec?: SpfDomainSpec;
}

/** A term that could not be read; the diagnostics say why. */
export interface SpfInvalidTerm extends TermBase {
  type: 'invalid';
}

export type SpfTerm = SpfMechanism | SpfModifier | SpfInvalidTerm;

export interface SpfRecord {
  text: string;
  /** `v=spf1` as written (any case). */
  version: string;
  terms: SpfTerm[];
  mechanisms: SpfMechanism[];
  /** The first `redirect=` (a second one is an error). */
  redirect?: SpfModifier;
  /** The first `exp=` (a second one is an error). */
  exp?: SpfModifier;
  /** The first `all` mechanism: it ends evaluation, so later mechanisms and `redirect` never count. */
  all?: SpfMechanism;
  /**
   * Whether check_host() must return permerror for this record without evaluating it: a syntax
   * error anywhere, or `redirect`/`exp` twice (RFC 7208 §4.6, §6).
   */
  permerror: boolean;
}

export interface SpfParseResult {
  /** Absent when the text is not an SPF record (no `v=spf1` version section). */
  record?: SpfRecord;
  diagnostics: Diagnostic[];
}

export const SPF_LOOKUP_LIMIT = 10;
export const SPF_VOID_LOOKUP_LIMIT = 2;
/** Per `mx` mechanism (RFC 7208 §4.6.4). */
export const SPF_MX_NAME_LIMIT = 10;
/** Per `ptr` mechanism or `%{p}` macro (RFC 7208 §4.6.4). */
export const SPF_PTR_NAME_LIMIT = 10;
/** RFC 1035 §3.3.14: one character-string. */
export const TXT_STRING_MAX_OCTETS = 255;
/** RFC 7208 §3.4: name and text of all records of the type under this, and the answer fits UDP. */
export const SPF_ANSWER_GUIDELINE_OCTETS = 450;
export const DNS_UDP_MAX_OCTETS = 512;

const MECHANISMS = new Set<SpfMechanismName>(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
/** Terms that cause DNS queries at evaluation and count towards the limit of 10 (RFC 7208 §4.6.4). */
const LOOKUP_MECHANISMS = new Set<SpfMechanismName>(['include', 'a', 'mx', 'ptr', 'exists']);
const QUALIFIERS = new Set(['+', '-', '~', '?']);

const VERSION = /^v=spf1(?= |$)/i;

/** Whether a TXT record is an SPF record: `v=spf1` (any case) then a space or the end (RFC 7208 §4.5). */
export function isSpfRecord(text: string): boolean {
  return VERSION.test(text);
}

const encoder = new TextEncoder();

/** Octets of a string in UTF-8. */
export function octets(text: string): number {
  return /^\p{ASCII}*$/u.test(text) ? text.length : encoder.encode(text).length;
}

function error(
  code: string,
  message: string,
  span: Span,
  rfc: string,
  fix?: string,
  requirement: Diagnostic['requirement'] = 'MUST',
): Diagnostic {
  return {
    severity: 'error',
    code,
    message,
    ...(requirement === undefined ? {} : { requirement }),
    rfc,
    ...(fix === undefined ? {} : { fix }),
    span,
  };
}

// toplabel = ( *alphanum ALPHA *alphanum ) / ( 1*alphanum "-" *( alphanum / "-" ) alphanum )
const TOPLABEL = /^(?:[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*|[A-Za-z0-9]+-[A-Za-z0-9-]*[A-Za-z0-9])$/;

/**
 * Reads a domain-spec: a macro-string ending in a macro or in "." toplabel with an optional final
 * dot (RFC 7208 §7.1). A literal name (no macros) must also be a name the DNS can hold: labels of
 * 1 to 63 octets, at most 253 characters (RFC 1035 §2.3.4).
 */
export function parseDomainSpec(
  text: string,
  start: number,
  term: string,
): { spec: SpfDomainSpec; diagnostics: Diagnostic[] } {
  const span = { start, end: start + text.length };
  const parsed = parseMacroString(text, 'domain-spec', start);
  const spec: SpfDomainSpec = { text, span, tokens: parsed.tokens, hasMacros: parsed.hasMacros };
  const diagnostics = [...parsed.diagnostics];
  if (diagnostics.length > 0) return { spec, diagnostics };
  if (text === '') {
    diagnostics.push(
      error(
        'SPF_DOMAIN_SPEC_EMPTY',
        `${term}: the domain after ':' or '=' is empty`,
        span,
        'RFC 7208 §7.1',
        'Write the domain name, or remove the colon to use the current domain where that is allowed.',
      ),
    );
    return { spec, diagnostics };
  }
  const last = parsed.tokens.at(-1);
  if (last?.kind !== 'literal') return { spec, diagnostics }; // ends in a macro-expand
  const literal = last.text.endsWith('.') ? last.text.slice(0, -1) : last.text;
  const dot = literal.lastIndexOf('.');
  const toplabel = literal.slice(dot + 1);
  const ipLike = parseIp4(text.replace(/\.$/, '')) !== undefined;
  if (ipLike) {
    diagnostics.push(
      error(
        'SPF_DOMAIN_SPEC_IP_ADDRESS',
        `${term}: '${text}' is an IP address, not a domain name`,
        span,
        'RFC 7208 §7.1',
        `Authorise an address with ip4:${text.replace(/\.$/, '')} instead.`,
      ),
    );
    return { spec, diagnostics };
  }
  if (dot === -1 && parsed.tokens.length === 1) {
    diagnostics.push(
      error(
        'SPF_DOMAIN_SPEC_SINGLE_LABEL',
        `${term}: '${text}' is a single label; a domain-spec needs at least two labels or a macro at the end`,
        span,
        'RFC 7208 §7.1',
        'Write the fully qualified name, e.g. _spf.example.com.',
      ),
    );
    return { spec, diagnostics };
  }
  if (dot === -1 || !TOPLABEL.test(toplabel)) {
    const cidr = /\/\d*$/.test(text);
    diagnostics.push(
      error(
        'SPF_DOMAIN_SPEC_TOPLABEL',
        cidr
          ? `${term}: '${text}' ends in a prefix length, which this mechanism does not take`
          : `${term}: '${toplabel === '' ? text : toplabel}' is not a valid top-level label (letters, digits and inner hyphens, not all digits)`,
        {
          start:
            span.start + (cidr ? text.lastIndexOf('/') : toplabel === '' ? 0 : text.lastIndexOf(toplabel)),
          end: span.end,
        },
        'RFC 7208 §7.1',
        cidr ? 'Remove the /length: only a, mx, ip4 and ip6 take one.' : 'Check the domain name for typos.',
      ),
    );
    return { spec, diagnostics };
  }
  if (!parsed.hasMacros) {
    const name = text.endsWith('.') ? text.slice(0, -1) : text;
    const labels = name.split('.');
    if (labels.some((label) => label === '')) {
      diagnostics.push(
        error(
          'SPF_DOMAIN_NAME_EMPTY_LABEL',
          `${term}: '${text}' has an empty label (two dots in a row) and cannot be looked up`,
          span,
          'RFC 1035 §2.3.4',
          'Remove the extra dot.',
        ),
      );
    } else if (labels.some((label) => octets(label) > 63)) {
      diagnostics.push(
        error(
          'SPF_DOMAIN_NAME_LONG_LABEL',
          `${term}: a label of '${text}' is longer than 63 octets and cannot be looked up`,
          span,
          'RFC 1035 §2.3.4',
        ),
      );
    } else if (octets(name) > 253) {
      diagnostics.push(
        error(
          'SPF_DOMAIN_NAME_TOO_LONG',
          `${term}: '${text}' is longer than 253 characters and cannot be looked up`,
          span,
          'RFC 1035 §2.3.4',
        ),
      );
    }
  }
  return { spec, diagnostics };
}

/** Reads "/N" (ip4-cidr-length) or "/N" after "//" (ip6-cidr-length): no leading zeros, in range. */
function readCidr(
  digits: string,
  max: number,
  span: Span,
  term: string,
  diagnostics: Diagnostic[],
): number | undefined {
  if (!/^(?:0|[1-9][0-9]*)$/.test(digits) || Number(digits) > max) {
    diagnostics.push(
      error(
        'SPF_CIDR_INVALID',
        digits === ''
          ? `${term}: the prefix length after '/' is missing`
          : /^0\d/.test(digits)
            ? `${term}: prefix length '${digits}' has a leading zero`
            : `${term}: prefix length /${digits} is out of range (0-${max} for IPv${max === 32 ? 4 : 6})`,
        span,
        'RFC 7208 §5.6',
        `Write a prefix length from 0 to ${max} without leading zeros.`,
      ),
    );
    return undefined;
  }
  return Number(digits);
}

/** a and mx: `[ ":" domain-spec ] [ dual-cidr-length ]`. */
function parseAMx(
  mechanism: SpfMechanism,
  rest: string,
  restStart: number,
  diagnostics: Diagnostic[],
): boolean {
  const term = mechanism.name;
  let cidrText = rest;
  let cidrStart = restStart;
  if (rest.startsWith(':')) {
    // the domain-spec may itself hold '/' and ':' (RFC 7208 §7.1): only a trailing
    // "/N", "//N" or "/N//N" is a dual-cidr-length
    const match = /^(.*?)((?:\/\d+)?(?:\/\/\d+)?)$/.exec(rest.slice(1));
    const spec = match?.[1] ?? rest.slice(1);
    cidrText = match?.[2] ?? '';
    cidrStart = restStart + 1 + spec.length;
    const read = parseDomainSpec(spec, restStart + 1, term);
    diagnostics.push(...read.diagnostics);
    if (read.diagnostics.length > 0) return false;
    mechanism.domainSpec = read.spec;
  } else if (rest !== '' && !rest.startsWith('/')) {
    diagnostics.push(
      error(
        'SPF_MECHANISM_SYNTAX',
        `'${mechanism.text}': '${term}' is followed by '${rest[0] ?? ''}'; expected ':' and a domain, or '/' and a prefix length`,
        { start: restStart, end: restStart + 1 },
        `RFC 7208 §${term === 'a' ? '5.3' : '5.4'}`,
      ),
    );
    return false;
  }
  if (cidrText === '') return true;
  const dual = /^(?:\/(\d*))?(?:\/\/(\d*))?$/.exec(cidrText);
  if (dual === null) {
    diagnostics.push(
      error(
        'SPF_CIDR_INVALID',
        `'${mechanism.text}': '${cidrText}' is not a prefix length; write /N for IPv4, //N for IPv6, or /N//M for both`,
        { start: cidrStart, end: cidrStart + cidrText.length },
        'RFC 7208 §5.6',
      ),
    );
    return false;
  }
  let ok = true;
  if (dual[1] !== undefined) {
    const span = { start: cidrStart, end: cidrStart + 1 + dual[1].length };
    const value = readCidr(dual[1], 32, span, term, diagnostics);
    if (value === undefined) ok = false;
    else mechanism.ip4Cidr = value;
  }
  if (dual[2] !== undefined) {
    const at = cidrStart + cidrText.lastIndexOf('//');
    const value = readCidr(dual[2], 128, { start: at, end: at + 2 + dual[2].length }, term, diagnostics);
    if (value === undefined) ok = false;
    else mechanism.ip6Cidr = value;
  }
  return ok;
}

/** ip4 and ip6: `":" network [ "/" length ]`. */
function parseIpMechanism(
  mechanism: SpfMechanism,
  rest: string,
  restStart: number,
  diagnostics: Diagnostic[],
): boolean {
  const v4 = mechanism.name === 'ip4';
  const rfc = 'RFC 7208 §5.6';
  if (!rest.startsWith(':') || rest === ':') {
    diagnostics.push(
      error(
        'SPF_IP_MISSING',
        `'${mechanism.text}': ${mechanism.name} needs an address, e.g. ${v4 ? 'ip4:192.0.2.0/24' : 'ip6:2001:db8::/32'}`,
        mechanism.span,
        rfc,
      ),
    );
    return false;
  }
  const body = rest.slice(1);
  const slash = body.indexOf('/');
  const addressText = slash === -1 ? body : body.slice(0, slash);
  const addressSpan = { start: restStart + 1, end: restStart + 1 + addressText.length };
  const address = v4 ? parseIp4(addressText) : parseIp6(addressText);
  if (address === undefined) {
    const otherFamily = v4 ? parseIp6(addressText) : parseIp4(addressText);
    let hint: string;
    if (otherFamily !== undefined) hint = `it is an IPv${v4 ? 6 : 4} address: use ip${v4 ? 6 : 4}:`;
    else if (v4 && /^\d+(?:\.\d+){0,2}$/.test(addressText))
      hint =
        'parts of the address may not be left out; write all four octets and a prefix length (192.0.2.0/24)';
    else if (v4 && /^[\d.]+:\d+$/.test(addressText)) hint = 'an address in SPF has no port';
    else if (v4) hint = 'write four decimal octets from 0 to 255 without leading zeros';
    else hint = 'write an IPv6 address as in RFC 4291 §2.2';
    diagnostics.push(
      error(
        'SPF_IP_INVALID',
        `'${mechanism.text}': '${addressText}' is not a valid IPv${v4 ? 4 : 6} address (${hint})`,
        addressSpan,
        rfc,
      ),
    );
    return false;
  }
  let prefix = v4 ? 32 : 128;
  if (slash !== -1) {
    const cidr = body.slice(slash + 1);
    const cidrSpan = { start: addressSpan.end, end: addressSpan.end + 1 + cidr.length };
    if (cidr.startsWith('/')) {
      diagnostics.push(
        error(
          'SPF_CIDR_INVALID',
          `'${mechanism.text}': ${mechanism.name} takes one prefix length ('/N'), not the dual form of a and mx`,
          cidrSpan,
          rfc,
        ),
      );
      return false;
    }
    const value = readCidr(cidr, v4 ? 32 : 128, cidrSpan, mechanism.name, diagnostics);
    if (value === undefined) return false;
    prefix = value;
  }
  mechanism.network = { address, prefix, text: body };
  return true;
}

const MECHANISM_HINTS: Record<string, string> = {
  redirect: "redirect is a modifier: write 'redirect=domain'",
  exp: "exp is a modifier: write 'exp=domain'",
  ipv4: "write 'ip4:'",
  ipv6: "write 'ip6:'",
  ip: "write 'ip4:' or 'ip6:'",
  inc: "write 'include:'",
  includes: "write 'include:'",
  exist: "write 'exists:'",
  spf: "the version 'v=spf1' comes once, at the start",
  'v=spf1': "the version 'v=spf1' comes once, at the start",
  'v=spf2.0': "'spf2.0' is Sender ID (RFC 4406, historic), not SPF",
  prt: "write 'ptr' (and consider not using it: RFC 7208 §5.5)",
  max: "write 'mx'",
  '~all': "the qualifier comes before the mechanism: '~all'",
};

function parseDirective(text: string, start: number, index: number, diagnostics: Diagnostic[]): SpfTerm {
  const invalid: SpfInvalidTerm = { type: 'invalid', index, text, span: { start, end: start + text.length } };
  let qualifier: SpfQualifier = '+';
  let body = text;
  let bodyStart = start;
  const first = text[0] ?? '';
  const explicitQualifier = QUALIFIERS.has(first);
  if (explicitQualifier) {
    qualifier = first as SpfQualifier;
    body = text.slice(1);
    bodyStart++;
  }
  const nameEnd = body.search(/[:/]/);
  const nameText = nameEnd === -1 ? body : body.slice(0, nameEnd);
  const name = nameText.toLowerCase();
  if (!MECHANISMS.has(name as SpfMechanismName)) {
    const qualifierHint =
      /^[!^]/.test(text) && MECHANISMS.has(text.slice(1).split(/[:/]/)[0]?.toLowerCase() as SpfMechanismName)
        ? `'${text[0] ?? ''}' is not a qualifier (use +, -, ~ or ?)`
        : undefined;
    const hint = qualifierHint ?? MECHANISM_HINTS[name];
    diagnostics.push(
      error(
        'SPF_UNKNOWN_MECHANISM',
        nameText === ''
          ? `'${text}' has no mechanism after the qualifier`
          : `'${nameText}' is not an SPF mechanism (all, include, a, mx, ptr, ip4, ip6, exists)${hint === undefined ? '' : `: ${hint}`}`,
        nameText === '' ? invalid.span : { start: bodyStart, end: bodyStart + nameText.length },
        'RFC 7208 §4.6.1',
        'A record with an unknown mechanism is a permerror for every receiver: correct or remove the term.',
      ),
    );
    return invalid;
  }
  const mechanism: SpfMechanism = {
    type: 'mechanism',
    index,
    text,
    span: invalid.span,
    name: name as SpfMechanismName,
    qualifier,
    explicitQualifier,
  };
  const rest = nameEnd === -1 ? '' : body.slice(nameEnd);
  const restStart = bodyStart + nameText.length;
  let ok = true;
  switch (mechanism.name) {
    case 'all':
      if (rest !== '') {
        diagnostics.push(
          error(
            'SPF_ALL_ARGUMENT',
            `'${text}': 'all' takes no argument`,
            { start: restStart, end: mechanism.span.end },
            'RFC 7208 §5.1',
            `Write '${explicitQualifier ? qualifier : ''}all'.`,
          ),
        );
        ok = false;
      }
      break;
    case 'include':
    case 'exists': {
      if (!rest.startsWith(':')) {
        diagnostics.push(
          error(
            'SPF_DOMAIN_SPEC_MISSING',
            `'${text}': '${mechanism.name}' needs a domain: '${mechanism.name}:example.com'`,
            mechanism.span,
            `RFC 7208 §${mechanism.name === 'include' ? '5.2' : '5.7'}`,
          ),
        );
        ok = false;
        break;
      }
      const read = parseDomainSpec(rest.slice(1), restStart + 1, mechanism.name);
      diagnostics.push(...read.diagnostics);
      if (read.diagnostics.length > 0) ok = false;
      else mechanism.domainSpec = read.spec;
      break;
    }
    case 'a':
    case 'mx':
      ok = parseAMx(mechanism, rest, restStart, diagnostics);
      break;
    case 'ptr':
      if (rest.startsWith('/')) {
        diagnostics.push(
          error(
            'SPF_PTR_CIDR',
            `'${text}': 'ptr' takes no prefix length`,
            { start: restStart, end: mechanism.span.end },
            'RFC 7208 §5.5',
          ),
        );
        ok = false;
      } else if (rest !== '') {
        const read = parseDomainSpec(rest.slice(1), restStart + 1, 'ptr');
        diagnostics.push(...read.diagnostics);
        if (read.diagnostics.length > 0) ok = false;
        else mechanism.domainSpec = read.spec;
      }
      break;
    case 'ip4':
    case 'ip6':
      ok = parseIpMechanism(mechanism, rest, restStart, diagnostics);
      break;
  }
  return ok ? mechanism : invalid;
}

function parseModifier(
  text: string,
  start: number,
  index: number,
  equals: number,
  diagnostics: Diagnostic[],
): SpfTerm {
  const span = { start, end: start + text.length };
  const nameText = text.slice(0, equals);
  const value = text.slice(equals + 1);
  const valueSpan = { start: start + equals + 1, end: span.end };
  if (!/^[A-Za-z][A-Za-z0-9\-_.]*$/.test(nameText)) {
    diagnostics.push(
      error(
        'SPF_MODIFIER_NAME_INVALID',
        nameText === ''
          ? `'${text}': a modifier needs a name before '='`
          : `'${text}': modifier name '${nameText}' must start with a letter and hold only letters, digits, '-', '_' and '.'`,
        { start, end: start + Math.max(1, nameText.length) },
        'RFC 7208 §4.6.1',
      ),
    );
    return { type: 'invalid', index, text, span };
  }
  const name = nameText.toLowerCase();
  const kind = name === 'redirect' || name === 'exp' ? name : 'unknown';
  const modifier: SpfModifier = { type: 'modifier', index, text, span, name, kind, value, valueSpan };
  if (kind === 'unknown') {
    const parsed = parseMacroString(value, 'unknown-modifier', valueSpan.start);
    diagnostics.push(...parsed.diagnostics);
    return parsed.diagnostics.length > 0 ? { type: 'invalid', index, text, span } : modifier;
  }
  if (value === '') {
    diagnostics.push(
      error(
        kind === 'redirect' ? 'SPF_REDIRECT_EMPTY' : 'SPF_EXP_EMPTY',
        `'${text}': ${name}= needs a domain`,
        span,
        kind === 'redirect' ? 'RFC 7208 §6.1' : 'RFC 7208 §6.2',
        `Write ${name}=example.com, or remove the modifier.`,
      ),
    );
    return { type: 'invalid', index, text, span };
  }
  const read = parseDomainSpec(value, valueSpan.start, `${name}=`);
  diagnostics.push(...read.diagnostics);
  if (read.diagnostics.length > 0) return { type: 'invalid', index, text, span };
  modifier.domainSpec = read.spec;
  return modifier;
}

/** Reads one term (between spaces) of a record. */
export function parseTerm(text: string, start: number, index: number, diagnostics: Diagnostic[]): SpfTerm {
  // a modifier has '=' right after its name, before any ':' or '/' (RFC 7208 §4.6.1)
  const equals = text.search(/[=:/]/);
  if (equals !== -1 && text[equals] === '=') return parseModifier(text, start, index, equals, diagnostics);
  return parseDirective(text, start, index, diagnostics);
}

/**
 * Parses one SPF record: `text` is the record as published (its character-strings already joined,
 * RFC 7208 §3.3). Returns the terms with their spans and every diagnostic. `record.permerror` says
 * whether an evaluator must stop with permerror (RFC 7208 §4.6: syntax errors anywhere in the
 * record, §4.6.3: duplicate modifiers).
 */
export function parseSpfRecord(text: string): SpfParseResult {
  const diagnostics: Diagnostic[] = [];
  const version = VERSION.exec(text);
  if (version === null) {
    const trimmed = text.trimStart();
    const near = /^v\s*=\s*spf1/i.test(trimmed);
    diagnostics.push({
      severity: 'error',
      code: 'SPF_VERSION_MISSING',
      message: /^v=spf1/i.test(text)
        ? `'${text.slice(0, 12)}…': the version 'v=spf1' must be followed by a space or the end of the record`
        : /^v=spf/i.test(trimmed)
          ? `'${trimmed.split(' ')[0] ?? ''}' is not SPF version 1: an SPF record starts with 'v=spf1'`
          : near
            ? "an SPF record starts with exactly 'v=spf1' (no spaces around '=', nothing before it)"
            : "not an SPF record: it must start with 'v=spf1'",
      requirement: 'MUST',
      rfc: 'RFC 7208 §4.5',
      fix: "Start the record with 'v=spf1 ' and separate terms with single spaces.",
      span: { start: 0, end: Math.min(text.length, /^v=spf1/i.test(text) ? 7 : 6) },
    });
    return { diagnostics };
  }
  const versionText = version[0];
  if (versionText !== 'v=spf1') {
    diagnostics.push({
      severity: 'info',
      code: 'SPF_VERSION_CASE',
      message: `'${versionText}' is read case-insensitively, but some checkers only accept 'v=spf1' in lower case`,
      rfc: 'RFC 7208 §4.5',
      fix: "Write 'v=spf1'.",
      span: { start: 0, end: versionText.length },
    });
  }

  const terms: SpfTerm[] = [];
  // terms are separated by one or more SP; any other whitespace is part of a term and an error
  let i = versionText.length;
  while (i < text.length) {
    if (text[i] === ' ') {
      i++;
      continue;
    }
    let end = text.indexOf(' ', i);
    if (end === -1) end = text.length;
    const termText = text.slice(i, end);
    const bad = /[^\x21-\x7e]/u.exec(termText);
    if (bad !== null) {
      const code = bad[0].codePointAt(0) ?? 0;
      const control = code < 0x20 || code === 0x7f;
      diagnostics.push(
        error(
          control ? 'SPF_CONTROL_CHARACTER' : 'SPF_NON_ASCII',
          control
            ? `control character U+${code.toString(16).toUpperCase().padStart(4, '0')} in '${termText.replace(/[^\x20-\x7e]/g, '?')}': terms are separated by spaces only`
            : `non-ASCII character '${bad[0]}' in '${termText}': SPF records are 7-bit ASCII`,
          { start: i + bad.index, end: i + bad.index + bad[0].length },
          control ? 'RFC 7208 §4.6.1' : 'RFC 7208 §3.1',
          control
            ? 'Replace tabs and line breaks with single spaces.'
            : 'Remove the character; write international domain names as A-labels (xn--…).',
        ),
      );
      terms.push({ type: 'invalid', index: terms.length, text: termText, span: { start: i, end } });
    } else {
      terms.push(parseTerm(termText, i, terms.length, diagnostics));
    }
    i = end;
  }

  const mechanisms = terms.filter((t): t is SpfMechanism => t.type === 'mechanism');
  const modifiers = terms.filter((t): t is SpfModifier => t.type === 'modifier');
  const record: SpfRecord = { text, version: versionText, terms, mechanisms, permerror: false };
  for (const kind of ['redirect', 'exp'] as const) {
    const found = modifiers.filter((m) => m.kind === kind);
    if (found[0] !== undefined) record[kind] = found[0];
    for (const duplicate of found.slice(1)) {
      diagnostics.push(
        error(
          kind === 'redirect' ? 'SPF_REDIRECT_DUPLICATE' : 'SPF_EXP_DUPLICATE',
          `'${kind}=' appears more than once: the record is a permerror`,
          duplicate.span,
          'RFC 7208 §6',
          `Keep one ${kind}= modifier.`,
          'MUST NOT',
        ),
      );
    }
  }
  const all = mechanisms.find((m) => m.name === 'all');
  if (all !== undefined) record.all = all;
  record.permerror = diagnostics.some((d) => d.severity === 'error');
  diagnostics.push(...adviseOnRecord(record));
  return { record, diagnostics };
}

/** Whether a term makes DNS queries when evaluated and so counts towards the limit of 10. */
export function isLookupTerm(term: SpfTerm): boolean {
  if (term.type === 'mechanism') return LOOKUP_MECHANISMS.has(term.name);
  return term.type === 'modifier' && term.kind === 'redirect';
}

/** The DNS queries one term makes when evaluated (RFC 7208 §4.6.4, §5), for a linter to show. */
export interface SpfTermLookups {
  /** Whether the term counts towards the limit of 10 DNS-querying terms. */
  counts: boolean;
  /** The queries, in order; `target` is the domain-spec as written (`%{d}` when absent). */
  queries: { type: 'TXT' | 'A' | 'AAAA' | 'A/AAAA' | 'MX' | 'PTR'; target: string; note?: string }[];
}

/** What a term asks the DNS when evaluated; ip4, ip6, all and exp ask nothing during evaluation. */
export function termLookups(term: SpfTerm): SpfTermLookups {
  if (term.type === 'invalid') return { counts: false, queries: [] };
  const target = term.domainSpec?.text ?? '%{d}';
  if (term.type === 'modifier') {
    if (term.kind === 'redirect') return { counts: true, queries: [{ type: 'TXT', target }] };
    if (term.kind === 'exp') {
      return {
        counts: false,
        queries: [{ type: 'TXT', target, note: 'only after a fail result, not counted' }],
      };
    }
    return { counts: false, queries: [] };
  }
  switch (term.name) {
    case 'include':
      return { counts: true, queries: [{ type: 'TXT', target }] };
    case 'a':
      return {
        counts: true,
        queries: [{ type: 'A/AAAA', target, note: 'A for an IPv4 client, AAAA for IPv6' }],
      };
    case 'mx':
      return {
        counts: true,
        queries: [
          { type: 'MX', target },
          { type: 'A/AAAA', target: 'each exchange', note: `at most ${SPF_MX_NAME_LIMIT} exchanges` },
        ],
      };
    case 'ptr':
      return {
        counts: true,
        queries: [
          { type: 'PTR', target: '%{ir}.%{v}.arpa' },
          { type: 'A/AAAA', target: 'each PTR name', note: `the first ${SPF_PTR_NAME_LIMIT} names` },
        ],
      };
    case 'exists':
      return { counts: true, queries: [{ type: 'A', target }] };
    default:
      return { counts: false, queries: [] };
  }
}

/** DNS-querying terms evaluation can reach in this record alone: up to `all`, and `redirect` without `all`. */
export function recordLookupTerms(record: SpfRecord): SpfTerm[] {
  const reachable = record.all === undefined ? record.terms : record.terms.slice(0, record.all.index + 1);
  const terms = reachable.filter((t) => t.type === 'mechanism' && isLookupTerm(t));
  if (record.all === undefined && record.redirect !== undefined) terms.push(record.redirect);
  return terms;
}

/** Advice on a record that parsed: what is allowed but risky, ignored or discouraged. */
function adviseOnRecord(record: SpfRecord): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { mechanisms, all } = record;
  if (all !== undefined) {
    if (all.qualifier === '+') {
      out.push({
        severity: 'warning',
        code: 'SPF_ALL_PASS',
        message: `'${all.text}' authorises every host on the Internet to send mail as this domain`,
        rfc: 'RFC 7208 §5.1',
        fix: "End the record with '-all' (or '~all' while testing).",
        span: all.span,
      });
    } else if (all.qualifier === '?') {
      out.push({
        severity: 'warning',
        code: 'SPF_ALL_NEUTRAL',
        message: "'?all' makes every other host neutral: receivers learn nothing about unlisted senders",
        rfc: 'RFC 7208 §2.6.2',
        fix: "Use '~all' while testing and '-all' once every sender is listed.",
        span: all.span,
      });
    }
    for (const after of mechanisms.filter((m) => m.index > all.index)) {
      out.push({
        severity: 'warning',
        code: 'SPF_AFTER_ALL',
        message: `'${after.text}' comes after '${all.text}' and is never evaluated`,

        rfc: 'RFC 7208 §5.1',
        fix: `Move '${after.text}' before '${all.text}' or remove it.`,
        span: after.span,
      });
    }
    if (record.redirect !== undefined) {
      out.push({
        severity: 'warning',
        code: 'SPF_REDIRECT_IGNORED',
        message: `'${record.redirect.text}' is ignored because the record has an 'all' mechanism`,

        rfc: 'RFC 7208 §5.1',
        fix: `Remove '${all.text}' to hand unmatched senders to the redirect, or remove the redirect.`,
        span: record.redirect.span,
      });
    }
  } else if (record.redirect === undefined) {
    out.push({
      severity: mechanisms.length === 0 ? 'warning' : 'info',
      code: mechanisms.length === 0 ? 'SPF_EMPTY_RECORD' : 'SPF_NO_ALL',
      message:
        mechanisms.length === 0
          ? "the record has no mechanisms: every sender gets 'neutral'"
          : "the record ends without 'all' or 'redirect': unmatched senders get 'neutral'",
      rfc: 'RFC 7208 §4.7',
      fix: "End the record with '-all' (or '~all' while testing).",
    });
  }
  for (const modifier of [record.redirect, record.exp]) {
    if (modifier === undefined) continue;
    const later = mechanisms.find((m) => m.index > modifier.index);
    if (later !== undefined) {
      out.push({
        severity: 'info',
        code: 'SPF_MODIFIER_POSITION',
        message: `'${modifier.text}' should come after all mechanisms ('${later.text}' follows it)`,
        requirement: 'SHOULD',
        rfc: 'RFC 7208 §6',
        fix: `Move '${modifier.text}' to the end of the record.`,
        span: modifier.span,
      });
    }
  }
  for (const term of record.terms) {
    if (term.type === 'modifier' && term.kind === 'unknown') {
      const hint =
        term.name === 'default'
          ? " ('default=' came from early drafts and was never part of SPF)"
          : /^(redirects?|redir|exps?|explanation)$/.test(term.name)
            ? ` (did you mean '${term.name.startsWith('r') ? 'redirect' : 'exp'}='?)`
            : '';
      out.push({
        severity: 'warning',
        code: 'SPF_UNKNOWN_MODIFIER',
        message: `unknown modifier '${term.name}=' is ignored by receivers${hint}`,

        rfc: 'RFC 7208 §6',
        span: term.span,
      });
    }
    if (term.type === 'mechanism' && term.name === 'ptr') {
      out.push({
        severity: 'warning',
        code: 'SPF_PTR',
        message: `'${term.text}': the ptr mechanism should not be published; it is slow, unreliable and loads the .arpa servers`,
        requirement: 'SHOULD NOT',
        rfc: 'RFC 7208 §5.5',
        fix: 'List the sending hosts with ip4:, ip6:, a or include instead.',
        span: term.span,
      });
    }
    const spec = term.type === 'invalid' ? undefined : term.domainSpec;
    if (spec?.tokens.some((t) => t.kind === 'macro' && t.letter === 'p') === true) {
      out.push({
        severity: 'warning',
        code: 'SPF_MACRO_P',
        message: `'${term.text}': the %{p} macro should not be used; it needs the same slow PTR lookups as ptr`,
        requirement: 'SHOULD NOT',
        rfc: 'RFC 7208 §7.3',
        span: term.span,
      });
    }
    if (term.type === 'mechanism' && term.qualifier !== '-' && term.qualifier !== '~') {
      const wide =
        (term.network !== undefined && term.network.prefix === 0) || term.ip4Cidr === 0 || term.ip6Cidr === 0;
      if (wide) {
        out.push({
          severity: 'warning',
          code: 'SPF_PREFIX_ZERO',
          message: `'${term.text}' has a /0 prefix: it authorises every ${term.ip6Cidr === 0 || term.network?.address.version === 6 ? 'IPv6' : 'IPv4'} address`,
          rfc: 'RFC 7208 §5.6',
          fix: 'Use the prefix length of the network you actually send from.',
          span: term.span,
        });
      }
    }
    if (term.type === 'mechanism' && term.network !== undefined) {
      const { address, prefix } = term.network;
      const base = networkAddress(address, prefix);
      if (formatIp(base) !== formatIp(address)) {
        out.push({
          severity: 'info',
          code: 'SPF_IP_HOST_BITS',
          message: `'${term.text}' has host bits set: it matches ${formatIp(base)}/${prefix}`,
          rfc: 'RFC 7208 §5.6',
          fix: `Write ${term.name}:${formatIp(base)}/${prefix}.`,
          span: term.span,
        });
      }
    }
  }
  const lookups = recordLookupTerms(record);
  if (lookups.length > SPF_LOOKUP_LIMIT) {
    const over = lookups[SPF_LOOKUP_LIMIT];
    out.push({
      severity: 'error',
      code: 'SPF_LOOKUP_LIMIT',
      message: `the record has ${lookups.length} terms that query the DNS; evaluation stops with permerror at the ${SPF_LOOKUP_LIMIT + 1}th`,
      requirement: 'MUST',
      rfc: 'RFC 7208 §4.6.4',
      fix: 'Replace a and mx terms by ip4:/ip6: networks, or merge includes, to stay at 10 or fewer.',
      ...(over === undefined ? {} : { span: over.span }),
    });
  }
  return out;
}

/** A TXT record as the DNS returned it: its character-strings, or the joined text. */
export type TxtRecordInput = string | readonly string[];

function joined(record: TxtRecordInput): string {
  return typeof record === 'string' ? record : record.join('');
}

/**
 * Checks the size rules for the TXT records at one name (RFC 7208 §3.3, §3.4): each
 * character-string at most 255 octets; name plus the text of all records under 450 octets; the
 * whole answer within a 512-octet UDP message.
 */
export function checkTxtAnswerSize(name: string, records: readonly TxtRecordInput[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  let textOctets = 0;
  let rdataOctets = 0;
  for (const record of records) {
    const strings = typeof record === 'string' ? [record] : record;
    const long = strings.filter((s) => octets(s) > TXT_STRING_MAX_OCTETS);
    if (long.length > 0 && isSpfRecord(joined(record))) {
      out.push({
        severity: typeof record === 'string' ? 'info' : 'error',
        code: typeof record === 'string' ? 'SPF_STRING_SPLIT' : 'SPF_STRING_TOO_LONG',
        message:
          typeof record === 'string'
            ? `the record is ${octets(record)} octets: publish it as several quoted strings of at most 255 octets each, which receivers join without spaces`
            : `a character-string of the record is ${Math.max(...long.map(octets))} octets; the DNS allows at most 255`,
        rfc: 'RFC 7208 §3.3',
        fix: 'Split the record into "…" "…" strings of at most 255 characters.',
      });
    }
    for (const s of strings) {
      // a string over 255 octets is published as several
      const n = octets(s);
      const parts = Math.max(1, Math.ceil(n / TXT_STRING_MAX_OCTETS));
      textOctets += n;
      rdataOctets += n + parts;
    }
  }
  const nameOctets = octets(name.replace(/\.$/, ''));
  if (nameOctets + textOctets > SPF_ANSWER_GUIDELINE_OCTETS) {
    out.push({
      severity: 'warning',
      code: 'SPF_ANSWER_SIZE',
      message: `the name and the text of its ${records.length} TXT record${records.length === 1 ? '' : 's'} come to ${nameOctets + textOctets} octets, over the 450-octet guideline for answers that fit in one UDP packet`,
      requirement: 'SHOULD',
      rfc: 'RFC 7208 §3.4',
      fix: 'Shorten the record (ip4/ip6 networks instead of many terms, fewer includes) or move other TXT records away from this name.',
    });
  }
  // header 12, question (name + 2 octets length/root + 4), each answer: compressed name 2,
  // type/class/TTL/length 10, RDATA
  const message = 12 + nameOctets + 2 + 4 + records.length * 12 + rdataOctets;
  if (message > DNS_UDP_MAX_OCTETS) {
    out.push({
      severity: 'warning',
      code: 'SPF_ANSWER_OVER_512',
      message: `the TXT answer for ${name} is about ${message} octets, over 512: receivers need EDNS0 or TCP, and some will not get the record`,
      requirement: 'SHOULD',
      rfc: 'RFC 7208 §3.4',
      fix: 'Keep the SPF record and the other TXT records at this name small enough for 512 octets.',
    });
  }
  return out;
}

/** The SPF records among the TXT records at a name (RFC 7208 §4.5), with diagnostics. */
export interface SpfRecordSelection {
  /** The joined text of each record that starts with `v=spf1`. */
  records: string[];
  diagnostics: Diagnostic[];
}

/**
 * Picks the SPF records out of the TXT records at a name (RFC 7208 §4.5): those whose joined text
 * starts with `v=spf1` and a space or the end. None is result "none"; more than one is permerror.
 */
export function selectSpfRecords(name: string, txt: readonly TxtRecordInput[]): SpfRecordSelection {
  const texts = txt.map(joined);
  const records = texts.filter(isSpfRecord);
  const diagnostics: Diagnostic[] = [];
  if (records.length > 1) {
    diagnostics.push({
      severity: 'error',
      code: 'SPF_MULTIPLE_RECORDS',
      message: `${name} has ${records.length} SPF records: receivers return permerror`,
      requirement: 'MUST NOT',
      rfc: 'RFC 7208 §3.2',
      fix: 'Merge them into one record that starts with v=spf1.',
    });
  }
  for (const text of texts) {
    if (isSpfRecord(text)) continue;
    if (/^v=spf1/i.test(text)) {
      diagnostics.push({
        severity: records.length === 0 ? 'error' : 'warning',
        code: 'SPF_VERSION_NOT_TERMINATED',
        message: `a TXT record at ${name} starts with '${text.slice(0, 10)}…' but no space follows 'v=spf1', so it is not an SPF record`,
        requirement: 'MUST',
        rfc: 'RFC 7208 §4.5',
        fix: 'Put a space after v=spf1 (strings of a TXT record are joined without spaces).',
      });
    } else if (/^\s*v\s*=\s*spf/i.test(text) && !/^v=spf2\.0/i.test(text)) {
      diagnostics.push({
        severity: records.length === 0 ? 'error' : 'warning',
        code: 'SPF_VERSION_MALFORMED',
        message: `a TXT record at ${name} looks like SPF but does not start with exactly 'v=spf1 '`,
        requirement: 'MUST',
        rfc: 'RFC 7208 §4.5',
        fix: "Start the record with 'v=spf1 '.",
      });
    }
  }
  if (records.length === 0 && diagnostics.length === 0) {
    diagnostics.push({
      severity: 'error',
      code: 'SPF_NO_RECORD',
      message: `${name} has no SPF record`,
      rfc: 'RFC 7208 §4.5',
      fix: 'Publish a TXT record such as "v=spf1 mx -all".',
    });
  }
  diagnostics.push(...checkTxtAnswerSize(name, txt));
  return { records, diagnostics };
}
