/**
 * Reads the ARC header fields (RFC 8617 §4.1) of a pasted block or a whole message: unfolds them,
 * reads the tag-lists of ARC-Seal and ARC-Message-Signature with the DKIM tag-list parser (ARC
 * reuses RFC 6376 §3.2, shared through core/), reads the `i=N;` prefix of ARC-Authentication-Results, groups the fields
 * into ARC sets by instance and checks what RFC 8617 §5.2 steps 1–3 check without any key: the
 * number of sets, the newest cv=, the set structure and cv= sequence, and the tag syntax. The
 * signatures themselves are verified on the server.
 */
import type { Diagnostic, RequirementLevel, Span } from '../core/diagnostic.ts';
import { parseTagList, type Tag, type TagListText } from '../core/tag-list.ts';

/** RFC 8617 §4.2.1: instance values range from 1 to 50. */
export const arcMaxInstances = 50;

export const arcFieldKinds = ['seal', 'messageSignature', 'authenticationResults'] as const;
export type ArcFieldKind = (typeof arcFieldKinds)[number];

/** The field names, lower case, of each kind. */
export const arcFieldNames: Record<ArcFieldKind, string> = {
  seal: 'arc-seal',
  messageSignature: 'arc-message-signature',
  authenticationResults: 'arc-authentication-results',
};

const SHORT: Record<ArcFieldKind, string> = {
  seal: 'AS',
  messageSignature: 'AMS',
  authenticationResults: 'AAR',
};
const TITLE: Record<ArcFieldKind, string> = {
  seal: 'ARC-Seal',
  messageSignature: 'ARC-Message-Signature',
  authenticationResults: 'ARC-Authentication-Results',
};

/** Signing algorithms a verifier may accept (RFC 6376 §3.3 as updated by RFC 8301, RFC 8463). */
export const arcVerifyAlgorithms = ['rsa-sha256', 'ed25519-sha256'] as const;

/** One ARC header field as found in the input. */
export interface ArcHeaderField {
  kind: ArcFieldKind;
  /** The field name as written (`ARC-Seal`, `arc-seal` …). */
  name: string;
  /** The value after the colon, unfolded (CRLF before whitespace removed), as written otherwise. */
  value: string;
  /** 1-based line of the input where the field starts. */
  line: number;
  /** The whole field (name, value, folding) in the input. */
  span: Span;
  /** The instance, when it is a valid number 1–50; `null` otherwise. */
  instance: number | null;
  /** For AS and AMS: the tags in the order written (null when the tag-list is unusable). */
  tags: Tag[] | null;
  /** For AAR: the authserv-id and the results after `i=N;`. */
  authservId: string | null;
  results: string[];
}

/** One ARC set: the three fields that share an instance. */
export interface ArcSetParsed {
  instance: number;
  seal: ArcHeaderField | null;
  messageSignature: ArcHeaderField | null;
  authenticationResults: ArcHeaderField | null;
}

/** Why the chain fails before any signature is verified (RFC 8617 §5.2 steps 1–3). */
export interface ArcStructureFailure {
  code: string;
  reason: string;
  /** The instance the failure is about, when there is one. */
  instance: number | null;
}

export interface ArcParseResult {
  /** Every ARC header field, in the order of the input. */
  fields: ArcHeaderField[];
  /** The ARC sets by ascending instance (only fields with a usable instance are grouped). */
  sets: ArcSetParsed[];
  diagnostics: Diagnostic[];
  /** The first reason the chain fails by its structure or syntax; null when it may pass. */
  structure: ArcStructureFailure | null;
  /** Whether an empty line separates a header section from a body. */
  hasBody: boolean;
}

/** The value of a tag of a field, or undefined (tag names are case-sensitive, RFC 6376 §3.2). */
export function arcTag(field: ArcHeaderField | null | undefined, name: string): string | undefined {
  return field?.tags?.find((tag) => tag.name === name)?.value;
}

/** A tag value with all whitespace removed (b=, bh=, h= may be folded). */
export function compactTagValue(value: string | undefined): string | undefined {
  return value?.replace(/[ \t\r\n]+/g, '');
}

// RFC 6376 §3.5 sub-domain; domain-name = sub-domain 1*("." sub-domain); selector = sub-domain *("." sub-domain)
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);
const SELECTOR = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const TIMESTAMP = /^[0-9]{1,12}$/;
const BODY_LENGTH = /^[0-9]{1,76}$/;
/** RFC 8617 §4.2.1 / §3.9: position = 1*2DIGIT. */
const POSITION = /^[0-9]{1,2}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CANON = /^(simple|relaxed)(\/(simple|relaxed))?$/;
/** RFC 5322 field-name: printable ASCII except ':'. */
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
/** `i=N;` at the start of an AAR value, CFWS allowed (RFC 8617 §4.1.1, comments without nesting). */
const CFWS = '(?:[ \\t\\r\\n]|\\([^()\\\\]*\\))*';
const AAR_PREFIX = new RegExp(`^${CFWS}i${CFWS}=${CFWS}([^;\\s()]*)${CFWS};`);

interface Finding {
  severity: Diagnostic['severity'];
  code: string;
  message: string;
  requirement?: RequirementLevel;
  rfc?: string;
  fix?: string;
  span?: Span;
  /** Breaks the chain (RFC 8617 §5.2 step 3) when it is about an AS, an AAR or the newest AMS. */
  breaks?: boolean;
}

interface RawField {
  name: string;
  start: number;
  end: number;
  line: number;
  /** Where the value starts (after the colon). */
  valueStart: number;
}

/**
 * The header fields of the input: the header section of a message, or a pasted block of fields.
 * Leading blank lines are skipped (a paste often starts with one); the section ends at the first
 * empty line after that.
 */
function splitHeaderFields(input: string): { fields: RawField[]; hasBody: boolean } {
  const fields: RawField[] = [];
  let position = 0;
  let line = 1;
  let seenField = false;
  let hasBody = false;
  while (position < input.length) {
    const newline = input.indexOf('\n', position);
    const end = newline < 0 ? input.length : newline + 1;
    const text = input.slice(position, end);
    const blank = text.trim() === '';
    if (blank) {
      if (seenField) {
        hasBody = true;
        break;
      }
    } else if ((text.startsWith(' ') || text.startsWith('\t')) && fields.length > 0) {
      fields[fields.length - 1]!.end = end;
    } else {
      seenField = true;
      const colon = text.indexOf(':');
      fields.push({
        name: colon < 0 ? '' : text.slice(0, colon).trim(),
        start: position,
        end,
        line,
        valueStart: colon < 0 ? end : position + colon + 1,
      });
    }
    position = end;
    line++;
  }
  return { fields, hasBody };
}

/** The value of a field, unfolded, with each character's input offset (for spans). */
function unfold(input: string, from: number, to: number): TagListText {
  const chars: string[] = [];
  const offsets: number[] = [];
  for (let i = from; i < to; i++) {
    const c = input.charAt(i);
    // a line break is removed (RFC 5322 §2.2.3); the whitespace after it is kept
    if (c === '\r' || c === '\n') continue;
    chars.push(c);
    offsets.push(i);
  }
  // trailing whitespace is not part of the value
  while (chars.length > 0 && /[ \t]/.test(chars[chars.length - 1]!)) {
    chars.pop();
    offsets.pop();
  }
  return { text: chars.join(''), offsets };
}

/** The instance written in a field, or why it is not usable. */
function readInstance(
  raw: string | undefined,
): { ok: true; value: number } | { ok: false; why: string; number?: number } {
  if (raw === undefined) return { ok: false, why: 'has no i= tag' };
  if (raw === '') return { ok: false, why: 'has an empty i= tag' };
  if (!POSITION.test(raw)) return { ok: false, why: `has i=${raw.slice(0, 20)}, which is not a number` };
  const value = Number(raw);
  if (value < 1 || value > arcMaxInstances) {
    return { ok: false, why: `has i=${raw}, outside the range 1–${arcMaxInstances}`, number: value };
  }
  return { ok: true, value };
}

/** Splits an AAR payload at the top-level ';' (comments and quoted strings kept whole). */
function splitResults(payload: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < payload.length; i++) {
    const c = payload.charAt(i);
    if (c === '\\' && (quoted || depth > 0)) {
      current += c + payload.charAt(i + 1);
      i++;
      continue;
    }
    if (c === '"' && depth === 0) quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')' && depth > 0) depth--;
    if (c === ';' && depth === 0 && !quoted) {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts.map((part) => part.replace(/[ \t\r\n]+/g, ' ').trim()).filter((part) => part !== '');
}

/** Checks the tags of an ARC-Seal or ARC-Message-Signature (RFC 8617 §4.1.2, §4.1.3; RFC 6376 §3.5). */
function checkSignatureTags(kind: 'seal' | 'messageSignature', tags: Tag[], findings: Finding[]): void {
  const short = SHORT[kind];
  const title = TITLE[kind];
  const get = (name: string) => tags.find((tag) => tag.name === name);
  const required = kind === 'seal' ? ['a', 'b', 'cv', 'd', 's'] : ['a', 'b', 'bh', 'd', 'h', 's'];
  for (const name of required) {
    if (!get(name)) {
      findings.push({
        severity: 'error',
        code: 'ARC_MISSING_TAG',
        message: `The ${title} has no ${name}= tag, which it requires`,
        requirement: 'MUST',
        rfc: kind === 'seal' ? 'RFC 8617 §4.1.3' : 'RFC 8617 §4.1.2, RFC 6376 §3.5',
        fix: `Add ${name}= to the ${short} (tag names are case-sensitive: ${name}= is not ${name.toUpperCase()}=).`,
        breaks: true,
      });
    }
  }
  const invalid = (tag: Tag, what: string, fix: string, rfc: string) =>
    findings.push({
      severity: 'error',
      code: 'ARC_TAG_VALUE',
      message: `${short} ${tag.name}=${tag.value.slice(0, 60)} is not valid: ${what}`,
      requirement: 'MUST',
      rfc,
      fix,
      span: tag.valueSpan,
      breaks: true,
    });

  const a = get('a');
  if (a) {
    const algorithm = a.value.toLowerCase();
    if (a.value === '') {
      invalid(a, 'the algorithm is empty', 'Write a=rsa-sha256 or a=ed25519-sha256.', 'RFC 6376 §3.5');
    } else if (algorithm === 'rsa-sha1') {
      findings.push({
        severity: 'error',
        code: 'ARC_RSA_SHA1',
        message: `The ${title} uses rsa-sha1, which verifiers MUST NOT accept`,
        requirement: 'MUST NOT',
        rfc: 'RFC 8301 §3.1',
        fix: 'Sign with rsa-sha256 (or ed25519-sha256).',
        span: a.valueSpan,
        breaks: true,
      });
    } else if (!(arcVerifyAlgorithms as readonly string[]).includes(a.value)) {
      findings.push({
        severity: 'error',
        code: 'ARC_ALGORITHM_UNKNOWN',
        message: `The ${title} uses the unknown algorithm ${a.value.slice(0, 40)}`,
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.5, RFC 8463 §3',
        fix: 'Sign with rsa-sha256 or ed25519-sha256 (written in lower case).',
        span: a.valueSpan,
        breaks: true,
      });
    }
  }
  for (const name of kind === 'seal' ? ['b'] : ['b', 'bh']) {
    const tag = get(name);
    if (!tag) continue;
    const compact = compactTagValue(tag.value) ?? '';
    if (compact === '') {
      invalid(
        tag,
        'it is empty',
        `Give ${name}= the base64 ${name === 'b' ? 'signature' : 'body hash'}.`,
        'RFC 6376 §3.5',
      );
    } else if (!BASE64.test(compact)) {
      invalid(tag, 'it is not base64', 'Copy the field exactly as the sealer wrote it.', 'RFC 6376 §3.5');
    }
  }
  const d = get('d');
  if (d && !DOMAIN.test(d.value)) {
    invalid(d, 'not a domain name', 'Write the signing domain, e.g. d=example.org.', 'RFC 6376 §3.5');
  }
  const s = get('s');
  if (s && !SELECTOR.test(s.value)) {
    invalid(s, 'not a selector', 'Write the selector of the key, e.g. s=arc2026.', 'RFC 6376 §3.5');
  }
  for (const [name, pattern, words] of [
    ['t', TIMESTAMP, 'a time of 1 to 12 digits'],
    ['x', TIMESTAMP, 'a time of 1 to 12 digits'],
    ['l', BODY_LENGTH, 'a length of 1 to 76 digits'],
  ] as const) {
    const tag = get(name);
    if (!tag || (kind === 'seal' && name !== 't')) continue;
    if (!pattern.test(tag.value)) {
      invalid(tag, `it must be ${words}`, `Write ${name}= as decimal digits only.`, 'RFC 6376 §3.5');
    }
  }

  if (kind === 'seal') {
    const cv = get('cv');
    if (cv && !/^(none|pass|fail)$/i.test(cv.value)) {
      invalid(
        cv,
        'cv= is none, pass or fail',
        'Write cv=none (first set), cv=pass or cv=fail.',
        'RFC 8617 §4.1.3',
      );
    }
    const h = get('h');
    if (h) {
      findings.push({
        severity: 'error',
        code: 'ARC_SEAL_H_TAG',
        message: 'The ARC-Seal has an h= tag: a seal signs the ARC sets, never a list of header fields',
        requirement: 'MUST NOT',
        rfc: 'RFC 8617 §4.1.3',
        fix: 'Remove h= from the ARC-Seal; it is an error for every validator.',
        span: h.span,
        breaks: true,
      });
    }
    return;
  }

  const c = get('c');
  if (c && !CANON.test(c.value)) {
    invalid(
      c,
      'c= is simple or relaxed, optionally /simple or /relaxed',
      'Write c=relaxed/relaxed.',
      'RFC 6376 §3.5',
    );
  }
  if (!c) {
    findings.push({
      severity: 'info',
      code: 'ARC_AMS_NO_C',
      message:
        'The ARC-Message-Signature has no c= tag: RFC 6376 reads simple/simple; the ARC drafts and many validators read relaxed/relaxed',
      rfc: 'RFC 6376 §3.5',
      fix: 'Write c= explicitly (c=relaxed/relaxed) so that every validator canonicalizes the same way.',
    });
  }
  const h = get('h');
  if (h) {
    const names = h.value.split(':').map((name) => name.replace(/[ \t\r\n]+/g, ''));
    const listed = names.filter((name) => name !== '');
    if (listed.length === 0) {
      findings.push({
        severity: 'warning',
        code: 'ARC_AMS_H_EMPTY',
        message: 'The ARC-Message-Signature signs no header fields (h= is empty): it protects only the body',
        requirement: 'SHOULD',
        rfc: 'RFC 8617 §4.1.2, RFC 6376 §5.4',
        fix: 'Sign at least From, To, Subject, Date and the ARC-Authentication-Results.',
        span: h.valueSpan,
      });
    } else if (names.length !== listed.length) {
      findings.push({
        severity: 'warning',
        code: 'ARC_AMS_H_EMPTY_NAME',
        message: "The h= list of the ARC-Message-Signature has an empty name between two ':'",
        rfc: 'RFC 6376 §3.5',
        fix: "Remove the extra ':' from h=.",
        span: h.valueSpan,
      });
    }
    const bad = listed.find((name) => !FIELD_NAME.test(name));
    if (bad !== undefined) {
      invalid(
        h,
        `${bad.slice(0, 40)} is not a header field name`,
        'List header field names separated by colons.',
        'RFC 6376 §3.5',
      );
    }
    const lower = listed.map((name) => name.toLowerCase());
    if (lower.includes('arc-seal')) {
      findings.push({
        severity: 'error',
        code: 'ARC_AMS_SIGNS_SEAL',
        message: 'The ARC-Message-Signature signs ARC-Seal header fields (h= lists arc-seal)',
        requirement: 'MUST NOT',
        rfc: 'RFC 8617 §4.1.2',
        fix: 'Leave arc-seal out of the AMS h= list: the seals are covered by the ARC-Seal signatures.',
        span: h.valueSpan,
        breaks: true,
      });
    }
    if (lower.includes('authentication-results')) {
      findings.push({
        severity: 'warning',
        code: 'ARC_AMS_SIGNS_AR',
        message:
          'The ARC-Message-Signature signs Authentication-Results, which later hops delete: the signature will break',
        requirement: 'MUST NOT',
        rfc: 'RFC 8617 §4.1.2',
        fix: 'Leave authentication-results out of h=; the results are carried by the ARC-Authentication-Results.',
        span: h.valueSpan,
      });
    }
    if (listed.length > 0 && !lower.includes('from')) {
      findings.push({
        severity: 'warning',
        code: 'ARC_AMS_FROM_NOT_SIGNED',
        message: 'The ARC-Message-Signature does not sign From',
        requirement: 'SHOULD',
        rfc: 'RFC 6376 §5.4',
        fix: 'Add from to h=: DKIM requires it, and receivers use the From domain for DMARC.',
        span: h.valueSpan,
      });
    }
  }
  const v = get('v');
  if (v) {
    findings.push({
      severity: 'info',
      code: 'ARC_AMS_V_IGNORED',
      message: 'The ARC-Message-Signature has a v= tag, which ARC does not define; it is ignored',
      rfc: 'RFC 8617 §4.1.2',
      fix: 'Remove v= from the AMS.',
      span: v.span,
    });
  }
}

const KNOWN: Record<'seal' | 'messageSignature', readonly string[]> = {
  seal: ['a', 'b', 'cv', 'd', 'i', 's', 't', 'h'],
  messageSignature: ['a', 'b', 'bh', 'c', 'd', 'h', 'i', 'l', 'q', 's', 't', 'x', 'z', 'v'],
};

/** Reads one ARC header field and its own findings (without the chain context). */
function readField(
  input: string,
  raw: RawField,
  kind: ArcFieldKind,
): { field: ArcHeaderField; findings: Finding[]; instanceWhy: string | null; number: number | null } {
  const findings: Finding[] = [];
  const text = unfold(input, raw.valueStart, raw.end);
  const span: Span = { start: raw.start, end: raw.end };
  const field: ArcHeaderField = {
    kind,
    name: raw.name,
    value: text.text.trim(),
    line: raw.line,
    span,
    instance: null,
    tags: null,
    authservId: null,
    results: [],
  };
  let rawInstance: string | undefined;

  if (kind === 'authenticationResults') {
    const match = AAR_PREFIX.exec(text.text);
    if (!match) {
      const anywhere = /(^|[;\s])i\s*=\s*[0-9]+/.test(text.text);
      findings.push({
        severity: 'error',
        code: anywhere ? 'ARC_AAR_I_NOT_FIRST' : 'ARC_AAR_NO_I',
        message: anywhere
          ? 'The ARC-Authentication-Results does not begin with i=N; (the instance comes first, followed by a semicolon)'
          : 'The ARC-Authentication-Results has no i= instance',
        requirement: 'MUST',
        rfc: 'RFC 8617 §4.1.1',
        fix: 'Begin the value with the instance and a semicolon: i=1; authserv-id; results…',
        span,
        breaks: true,
      });
      return { field, findings, instanceWhy: null, number: null };
    }
    rawInstance = match[1] ?? '';
    const rest = text.text.slice(match[0].length);
    const parts = splitResults(rest);
    field.authservId = parts[0] ?? null;
    field.results = parts.slice(1);
    if (field.authservId === null) {
      findings.push({
        severity: 'warning',
        code: 'ARC_AAR_NO_AUTHSERV_ID',
        message: 'The ARC-Authentication-Results has no authserv-id after the instance',
        requirement: 'MUST',
        rfc: 'RFC 8617 §4.1.1, RFC 8601 §2.2',
        fix: 'Write the authserv-id of the sealer after i=N;',
        span,
      });
    }
  } else {
    const list = parseTagList(text, { prefix: 'ARC', subject: 'field' });
    for (const d of list.diagnostics) findings.push({ ...d, breaks: d.severity === 'error' });
    field.tags = list.tags;
    if (list.tags) {
      rawInstance = list.tags.find((tag) => tag.name === 'i')?.value;
      checkSignatureTags(kind, list.tags, findings);
      const unknown = list.tags.filter((tag) => !KNOWN[kind].includes(tag.name));
      for (const tag of unknown) {
        findings.push({
          severity: 'info',
          code: 'ARC_TAG_UNKNOWN',
          message: `The ${TITLE[kind]} has the unknown tag ${tag.name}=, which is ignored`,
          rfc: 'RFC 6376 §3.2',
          span: tag.span,
        });
      }
    } else {
      // an unusable tag-list still names its instance for grouping, when it is readable
      rawInstance = /(?:^|;)\s*i\s*=\s*([^;]*?)\s*(?:;|$)/.exec(text.text)?.[1];
    }
  }

  const instance = readInstance(rawInstance);
  if (instance.ok) {
    field.instance = instance.value;
    return { field, findings, instanceWhy: null, number: instance.value };
  }
  return { field, findings, instanceWhy: instance.why, number: instance.number ?? null };
}

function kindOf(name: string): ArcFieldKind | null {
  const lower = name.toLowerCase();
  for (const kind of arcFieldKinds) if (arcFieldNames[kind] === lower) return kind;
  return null;
}

/**
 * Parses the ARC header fields of `input` (a pasted block of header fields or a whole message,
 * CRLF or LF line endings) and checks the chain structure. Never throws.
 */
export function parseArcHeaders(input: string): ArcParseResult {
  const diagnostics: Diagnostic[] = [];
  const { fields: rawFields, hasBody } = splitHeaderFields(input);
  const fields: ArcHeaderField[] = [];
  const fieldFindings = new Map<ArcHeaderField, Finding[]>();
  const structureFailures: ArcStructureFailure[] = [];
  const byInstance = new Map<number, ArcHeaderField[]>();
  /** Every instance number written, in range or not (step 1 counts sets, not valid ones). */
  const numbers = new Set<number>();
  const fail = (code: string, reason: string, instance: number | null) =>
    structureFailures.push({ code, reason, instance });

  for (const raw of rawFields) {
    const kind = kindOf(raw.name);
    if (!kind) continue;
    const { field, findings, instanceWhy, number } = readField(input, raw, kind);
    if (number !== null) numbers.add(number);
    fields.push(field);
    fieldFindings.set(field, findings);
    // an AAR without its i=N; prefix belongs to no set: say that before "set i=N has no AAR"
    const prefix = findings.find((f) => f.code === 'ARC_AAR_NO_I' || f.code === 'ARC_AAR_I_NOT_FIRST');
    if (prefix) fail(prefix.code, `ARC-Authentication-Results on line ${raw.line}: ${prefix.message}`, null);
    if (instanceWhy !== null) {
      const message = `The ${TITLE[kind]} on line ${raw.line} ${instanceWhy}: it belongs to no ARC set`;
      diagnostics.push({
        severity: 'error',
        code: 'ARC_INSTANCE_INVALID',
        message,
        requirement: 'MUST',
        rfc: 'RFC 8617 §4.2.1',
        fix: `Every ARC header field carries i= with its set's instance, 1 to ${arcMaxInstances}.`,
        span: field.span,
        line: field.line,
      });
      fail('ARC_INSTANCE_INVALID', message, null);
    }
    if (field.instance !== null) {
      const list = byInstance.get(field.instance) ?? [];
      list.push(field);
      byInstance.set(field.instance, list);
    }
  }

  if (fields.length === 0) {
    diagnostics.push({
      severity: 'info',
      code: 'ARC_NO_SETS',
      message: 'No ARC header fields were found: the chain validation status is none',
      rfc: 'RFC 8617 §5.2',
      fix: 'Paste the ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results fields, or the whole message.',
    });
    return { fields, sets: [], diagnostics, structure: null, hasBody };
  }

  const instances = [...byInstance.keys()].sort((x, y) => x - y);
  const sets: ArcSetParsed[] = instances.map((instance) => {
    const list = byInstance.get(instance) ?? [];
    const set: ArcSetParsed = { instance, seal: null, messageSignature: null, authenticationResults: null };
    for (const kind of arcFieldKinds) {
      const ofKind = list.filter((field) => field.kind === kind);
      set[kind] = ofKind[0] ?? null;
      if (ofKind.length > 1) {
        const message = `ARC set i=${instance} has ${ofKind.length} ${TITLE[kind]} fields (lines ${ofKind.map((f) => f.line).join(', ')}); a set has exactly one`;
        diagnostics.push({
          severity: 'error',
          code: 'ARC_DUPLICATE_FIELD',
          message,
          requirement: 'MUST',
          rfc: 'RFC 8617 §5.2 step 3',
          fix: 'Keep one field of each kind per instance; a sealer never writes two.',
          span: ofKind[1]!.span,
          line: ofKind[1]!.line,
        });
        fail('ARC_DUPLICATE_FIELD', message, instance);
      } else if (ofKind.length === 0) {
        const message = `ARC set i=${instance} has no ${TITLE[kind]}`;
        diagnostics.push({
          severity: 'error',
          code: 'ARC_MISSING_FIELD',
          message,
          requirement: 'MUST',
          rfc: 'RFC 8617 §5.2 step 3',
          fix: `Each ARC set has exactly one ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results; paste the ${TITLE[kind]} of i=${instance}.`,
        });
        fail('ARC_MISSING_FIELD', message, instance);
      }
    }
    return set;
  });

  // step 1: at most 50 sets
  const distinct = numbers.size;
  const tooMany = distinct > arcMaxInstances;
  if (tooMany) {
    const message = `The message has ${distinct} ARC sets; more than ${arcMaxInstances} make the chain fail`;
    diagnostics.push({
      severity: 'error',
      code: 'ARC_TOO_MANY_SETS',
      message,
      requirement: 'MUST',
      rfc: 'RFC 8617 §5.2 step 1',
      fix: 'A chain cannot be longer than 50 hops; the message cannot be sealed again.',
    });
  }

  // step 3: instances 1..N without gaps
  const newest = instances[instances.length - 1] ?? 0;
  for (let expected = 1; expected <= newest; expected++) {
    if (!byInstance.has(expected)) {
      const message = `The ARC sets are not numbered 1 to ${newest} without gaps: i=${expected} is missing`;
      diagnostics.push({
        severity: 'error',
        code: 'ARC_INSTANCE_GAP',
        message,
        requirement: 'MUST',
        rfc: 'RFC 8617 §5.2 step 3',
        fix: 'Paste every ARC set of the message; a chain with a gap fails.',
      });
      fail('ARC_INSTANCE_GAP', message, expected);
      break;
    }
  }

  // step 2 and 3.C: cv= of each seal
  let newestFailed: ArcStructureFailure | null = null;
  for (const set of sets) {
    const cv = arcTag(set.seal, 'cv')?.toLowerCase();
    if (cv === undefined || !/^(none|pass|fail)$/.test(cv)) continue;
    const cvTag = set.seal?.tags?.find((tag) => tag.name === 'cv');
    if (set.instance === newest && cv === 'fail') {
      const message = `The newest ARC-Seal (i=${set.instance}) says cv=fail: a hop already found the chain broken`;
      diagnostics.push({
        severity: 'error',
        code: 'ARC_CHAIN_FAILED',
        message,
        requirement: 'MUST',
        rfc: 'RFC 8617 §5.2 step 2',
        fix: 'Nothing to fix here: the chain was broken before it reached the last sealer; look at the earlier hops.',
        ...(cvTag ? { span: cvTag.valueSpan } : {}),
        line: set.seal!.line,
      });
      newestFailed = { code: 'ARC_CHAIN_FAILED', reason: message, instance: set.instance };
      continue;
    }
    const expected = set.instance === 1 ? 'none' : 'pass';
    if (cv !== expected) {
      const message =
        set.instance === 1
          ? `The ARC-Seal of i=1 says cv=${cv}; the first set MUST say cv=none`
          : `The ARC-Seal of i=${set.instance} says cv=${cv}; every set after the first MUST say cv=pass`;
      diagnostics.push({
        severity: 'error',
        code: set.instance === 1 ? 'ARC_CV_NOT_NONE' : 'ARC_CV_NOT_PASS',
        message,
        requirement: 'MUST',
        rfc: 'RFC 8617 §5.2 step 3',
        fix:
          set.instance === 1
            ? 'The first sealer had no chain to validate: it writes cv=none.'
            : 'A sealer writes cv=pass only for a chain that validated; a cv=fail set ends the chain.',
        ...(cvTag ? { span: cvTag.valueSpan } : {}),
        line: set.seal!.line,
      });
      fail(set.instance === 1 ? 'ARC_CV_NOT_NONE' : 'ARC_CV_NOT_PASS', message, set.instance);
    }
  }

  // the findings of each field: every AS and AAR counts, of the AMS only the newest (step 4)
  for (const field of fields) {
    const findings = fieldFindings.get(field) ?? [];
    const olderAms =
      field.kind === 'messageSignature' && field.instance !== null && field.instance !== newest;
    for (const finding of findings) {
      const { breaks, ...diagnostic } = finding;
      const downgraded = olderAms && diagnostic.severity === 'error';
      diagnostics.push({
        ...diagnostic,
        severity: downgraded ? 'warning' : diagnostic.severity,
        message: downgraded
          ? `${diagnostic.message} (in the AMS of i=${field.instance}; only the newest AMS is validated)`
          : field.instance !== null
            ? `${diagnostic.message} (i=${field.instance})`
            : diagnostic.message,
        line: field.line,
      });
      if (breaks && !olderAms) {
        fail(
          finding.code,
          `${TITLE[field.kind]}${field.instance !== null ? ` i=${field.instance}` : ''}: ${finding.message}`,
          field.instance,
        );
      }
    }
  }

  if (!hasBody) {
    diagnostics.push({
      severity: 'info',
      code: 'ARC_NO_BODY',
      message:
        'The input has no body (no empty line after the header fields): the ARC-Message-Signature is checked against an empty body',
      rfc: 'RFC 8617 §5.2 step 4',
      fix: 'Paste the whole message, header and body, to verify the ARC-Message-Signature body hash.',
    });
  }

  // RFC 8617 §5.2 order: step 1, step 2, then step 3
  const structure: ArcStructureFailure | null = tooMany
    ? {
        code: 'ARC_TOO_MANY_SETS',
        reason: `more than ${arcMaxInstances} ARC sets (${distinct})`,
        instance: null,
      }
    : (newestFailed ?? structureFailures[0] ?? null);
  return { fields, sets, diagnostics, structure, hasBody };
}
