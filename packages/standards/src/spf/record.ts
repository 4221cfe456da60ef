/** A parsed SPF record's model (RFC 7208 §4.6, §5, §6): terms, results, limits, and which terms query the DNS. */
import type { Diagnostic, Span } from '../core/diagnostic.ts';
import type { IpAddress } from './ip.ts';
import type { MacroToken } from './macros.ts';

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

export const MECHANISMS = new Set<SpfMechanismName>([
  'all',
  'include',
  'a',
  'mx',
  'ptr',
  'ip4',
  'ip6',
  'exists',
]);
/** Terms that cause DNS queries at evaluation and count towards the limit of 10 (RFC 7208 §4.6.4). */
const LOOKUP_MECHANISMS = new Set<SpfMechanismName>(['include', 'a', 'mx', 'ptr', 'exists']);
export const QUALIFIERS = new Set(['+', '-', '~', '?']);

/** The version section: `v=spf1` (any case) then a space or the end (RFC 7208 §4.5). */
export const SPF_VERSION = /^v=spf1(?= |$)/i;

const encoder = new TextEncoder();

/** Octets of a string in UTF-8. */
export function octets(text: string): number {
  return /^\p{ASCII}*$/u.test(text) ? text.length : encoder.encode(text).length;
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
