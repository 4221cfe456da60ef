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
 *
 * The parsed record's model is in record.ts, the advice on a record that parsed in
 * record-advice.ts, and picking the SPF record among the TXT records at a name in record-selection.ts.
 */
import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { parseIp4, parseIp6 } from './ip.ts';
import { parseMacroString } from './macros.ts';
import { adviseOnRecord } from './record-advice.ts';
import {
  MECHANISMS,
  octets,
  QUALIFIERS,
  SPF_VERSION,
  type SpfDomainSpec,
  type SpfInvalidTerm,
  type SpfMechanism,
  type SpfMechanismName,
  type SpfModifier,
  type SpfParseResult,
  type SpfQualifier,
  type SpfRecord,
  type SpfTerm,
} from './record.ts';

function error(
  code: string,
  message: string,
  span: Span,
  rfc: string,
  // required: every finding says how to fix it (docs/architecture.md §3)
  fix: string,
  requirement: Diagnostic['requirement'] = 'MUST',
): Diagnostic {
  return {
    severity: 'error',
    code,
    message,
    ...(requirement === undefined ? {} : { requirement }),
    rfc,
    fix,
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
          'Correct the name: each part between dots is at most 63 characters.',
        ),
      );
    } else if (octets(name) > 253) {
      diagnostics.push(
        error(
          'SPF_DOMAIN_NAME_TOO_LONG',
          `${term}: '${text}' is longer than 253 characters and cannot be looked up`,
          span,
          'RFC 1035 §2.3.4',
          'Correct the name: a domain name is at most 253 characters.',
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
        `Write ${term}:example.com, ${term}/24, or ${term} alone for the domain itself.`,
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
        `Write ${mechanism.name} with /N for IPv4 (0-32), //N for IPv6 (0-128), or /N//M for both, or remove '${cidrText}'.`,
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
        `Write the network after a colon, e.g. ${v4 ? 'ip4:192.0.2.0/24' : 'ip6:2001:db8::/32'}, or remove the term.`,
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
        `Correct the address of ${mechanism.name} (e.g. ${v4 ? 'ip4:192.0.2.10' : 'ip6:2001:db8::10'}), or remove the term: receivers fail the whole record on it.`,
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
          `Keep one prefix length: ${v4 ? 'ip4:192.0.2.0/24' : 'ip6:2001:db8::/32'}.`,
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
            `Add the domain after a colon ('${mechanism.name}:example.com'), or remove the term.`,
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
            'Remove the prefix length; better, replace ptr by ip4/ip6 networks (RFC 7208 §5.5: ptr SHOULD NOT be used).',
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
        'Write the modifier as name=value with a name such as redirect or exp, or remove the term.',
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
  const version = SPF_VERSION.exec(text);
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
