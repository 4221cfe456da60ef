import type { TestOutcome } from './outcome.ts';

/** Directive name to its source list, lower case, after merging every policy. */
export type CspDirectives = Map<string, Set<string>>;

export interface ParsedCsp {
  directives: CspDirectives;
  /** report-uri / report-to repeated inside one policy (tolerated, but reported). */
  duplicates: Set<string>;
}

export class CspSyntaxError extends Error {
  override readonly name = 'CspSyntaxError';
}

/**
 * More policies than any site sends. The merge below (the Observatory's) grows with the square
 * of the number of policies, so a response with more is not parsed.
 */
export const maxCspPolicies = 32;
// "img-src" less one character: anything shorter cannot hold a directive
const shortestPolicy = 6;
const repeatableDirectives = new Set(['report-uri', 'report-to']);
// CSP3 §3.3: these are ignored when delivered in a <meta> element
const headerOnlyDirectives = ['frame-ancestors', 'report-uri', 'sandbox'];
const collator = new Intl.Collator('en');

interface MergedSource {
  source: string;
  /** Position of `source` in collation order. */
  rank: number;
  policy: number;
  keep: boolean;
}

/** Does source `a` (a path-like prefix) cover `b`, segment by segment? */
function pathCovers(a: string, b: string): boolean {
  if (a.length === 0) return true;
  if (a === '/' && b.length === 0) return true;
  const exact = !a.endsWith('/');
  // without %-escapes, comparing segments is comparing the strings
  if (!a.includes('%') && !b.includes('%')) return exact ? a === b : b.startsWith(a);
  const partsA = a.split('/');
  const partsB = b.split('/');
  if (partsA.length > partsB.length) return false;
  if (exact && partsA.length !== partsB.length) return false;
  if (!exact) partsA.pop();
  for (let i = 0; i < partsA.length; i++) {
    // a malformed %-escape throws URIError: the policy is then reported as unparseable
    if (decodeURIComponent(partsA[i] ?? '') !== decodeURIComponent(partsB[i] ?? '')) return false;
  }
  return true;
}

/**
 * Parses and merges a list of policies the way the Observatory does (its rules, not a
 * browser's): a repeated directive other than report-uri/report-to makes the whole set
 * unparseable; a source-list directive with no sources means 'none'; with several policies a
 * source only counts when every policy that names the directive allows it. Throws
 * `CspSyntaxError` when the policies cannot be parsed.
 */
export function parseCspPolicies(policies: readonly string[]): ParsedCsp {
  const cleaned = policies.map((policy) => policy.replace(/[\r\n]/g, '').trim());
  const duplicates = new Set<string>();
  if (cleaned.length === 0) return { directives: new Map(), duplicates };
  if (cleaned.length > maxCspPolicies) {
    throw new CspSyntaxError(`${cleaned.length} policies: more than the ${maxCspPolicies} this grader reads`);
  }
  for (const policy of cleaned) {
    if (policy.length < shortestPolicy) {
      throw new CspSyntaxError(
        policy === '' ? 'A policy is empty' : `"${policy}" is too short to be a policy`,
      );
    }
  }

  // first read every policy into directives (refusing repeats), then merge them
  const parsed = cleaned.map((policy, policyIndex) => {
    const seen = new Set<string>();
    const directives: { name: string; sources: string[] }[] = [];
    for (const directiveText of policy.split(';')) {
      const [nameToken = '', ...valueTokens] = directiveText.trim().split(/\s+/);
      if (nameToken === '') continue;
      const name = nameToken.toLowerCase();
      if (seen.has(name)) {
        if (!repeatableDirectives.has(name)) {
          throw new CspSyntaxError(`The directive ${name} appears twice in policy ${policyIndex + 1}`);
        }
        duplicates.add(name);
      } else {
        seen.add(name);
      }
      const sources = valueTokens.map((token) => token.trim().toLowerCase());
      if (sources.length === 0 && name.endsWith('-src')) sources.push("'none'");
      directives.push({ name, sources });
    }
    return directives;
  });

  // Sources are ordered as the Observatory orders them (Intl.Collator "en"). Collating each
  // distinct source once and comparing ranks gives the same order far faster.
  const distinct = [...new Set(parsed.flatMap((directives) => directives.flatMap((d) => d.sources)))].sort(
    collator.compare,
  );
  const rank = new Map<string, number>();
  distinct.forEach((source, index) => {
    const previous = distinct[index - 1];
    const same = previous !== undefined && collator.compare(previous, source) === 0;
    rank.set(source, same ? rank.get(previous)! : index);
  });
  const byRank = (a: MergedSource, b: MergedSource) => a.rank - b.rank;

  const merged = new Map<string, MergedSource[]>();
  parsed.forEach((directives, policyIndex) => {
    for (const { name, sources: values } of directives) {
      const keep = policyIndex === 0;
      const sources: MergedSource[] = values.map((source) => ({
        source,
        rank: rank.get(source)!,
        policy: policyIndex,
        keep,
      }));
      const combined = policyIndex === 0 ? sources : [...(merged.get(name) ?? []), ...sources];
      combined.sort(byRank);
      for (let i = 1; i < combined.length; i++) {
        const current = combined[i]!;
        const previous = combined[i - 1]!;
        // within one policy a longer source starting like a shorter one adds nothing
        if (current.policy === previous.policy && current.source.startsWith(previous.source)) {
          current.keep = false;
        }
        // across policies a source survives only when the other policy allows it too
        if (current.policy !== previous.policy && pathCovers(previous.source, current.source)) {
          current.keep = true;
        }
      }
      const kept = combined.filter((s) => s.keep);
      merged.set(name, kept);
      // later policies must re-confirm what the first one allowed
      if (policyIndex === 0 && cleaned.length > 1) for (const s of kept) s.keep = false;
    }
  });

  const directives: CspDirectives = new Map();
  for (const [name, sources] of merged) {
    directives.set(name, new Set(sources.length ? sources.map((s) => s.source) : ["'none'"]));
  }
  return { directives, duplicates };
}

function sizeOf(csp: ParsedCsp): number {
  return csp.directives.size + (csp.duplicates.size > 0 ? 1 : 0);
}

/** Splits header values into policies: commas separate policies (RFC 9110 §5.3, CSP3 §2.2). */
export function splitPolicies(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(',').map((policy) => policy.trim()));
}

const dangerouslyBroad = new Set([
  'ftp:',
  'http:',
  'https:',
  '*',
  'http://*',
  'http://*.*',
  'https://*',
  'https://*.*',
]);
const unsafeInline = new Set(["'unsafe-inline'", 'data:']);
const passiveDirectives = ['img-src', 'media-src'];
const nonceOrHashPrefixes = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];

function isBroadOrInline(source: string): boolean {
  return dangerouslyBroad.has(source) || unsafeInline.has(source);
}

function hasNonceOrHash(sources: Set<string>): boolean {
  for (const source of sources) {
    if (nonceOrHashPrefixes.some((prefix) => source.startsWith(prefix))) return true;
  }
  return false;
}

function isInsecureScheme(source: string): boolean {
  return source.startsWith('http:') || source.startsWith('ftp:');
}

function list(sources: Iterable<string>): string {
  return [...sources].join(' ');
}

export interface CspTestInput {
  /** Content-Security-Policy header values as received (one per field line). */
  headerValues: readonly string[];
  /** `content` of each `<meta http-equiv="Content-Security-Policy">` of an HTML body. */
  metaValues: readonly string[];
  /** Whether a Content-Security-Policy-Report-Only header is present. */
  reportOnly: boolean;
  /** Whether the graded page was fetched over https (http: sources are then insecure). */
  https: boolean;
}

export interface CspTestOutcome extends TestOutcome {
  /** The merged policy (header and meta), sorted sources; null when none could be read. */
  policy: Record<string, string[]> | null;
  /** frame-ancestors as the X-Frame-Options test sees it: from the merged header and meta policy. */
  frameAncestors: 'header' | 'meta-only' | null;
}

/** The Observatory's Content Security Policy test. */
export function cspTest({ headerValues, metaValues, reportOnly, https }: CspTestInput): CspTestOutcome {
  const headerPolicies = splitPolicies(headerValues);
  const metaPolicies = splitPolicies(metaValues);
  const details: string[] = [];
  if (headerPolicies.length)
    details.push(
      `${headerPolicies.length} ${headerPolicies.length === 1 ? 'policy' : 'policies'} in Content-Security-Policy headers`,
    );
  if (metaPolicies.length)
    details.push(
      `${metaPolicies.length} ${metaPolicies.length === 1 ? 'policy' : 'policies'} in <meta http-equiv> elements`,
    );

  let csp: ParsedCsp;
  try {
    csp = parseCspPolicies([...headerPolicies, ...metaPolicies]);
  } catch (error) {
    details.push(error instanceof Error ? error.message : String(error));
    return { result: 'csp-header-invalid', pass: false, details, policy: null, frameAncestors: null };
  }
  let headerOnly: ParsedCsp;
  try {
    headerOnly = parseCspPolicies(headerPolicies);
  } catch {
    headerOnly = { directives: new Map(), duplicates: new Set() };
  }
  let meta: ParsedCsp;
  try {
    meta = parseCspPolicies(metaPolicies);
    const dropped = headerOnlyDirectives.filter((d) => meta.directives.delete(d));
    if (dropped.length)
      details.push(`Browsers ignore ${dropped.join(', ')} in a <meta> policy; only a header can set them.`);
  } catch {
    meta = { directives: new Map(), duplicates: new Set() };
  }

  if (sizeOf(headerOnly) + sizeOf(meta) === 0) {
    if (reportOnly) {
      details.push('Content-Security-Policy-Report-Only reports violations but blocks nothing.');
      return {
        result: 'csp-not-implemented-but-reporting-enabled',
        pass: false,
        details,
        policy: null,
        frameAncestors: null,
      };
    }
    return { result: 'csp-not-implemented', pass: false, details, policy: null, frameAncestors: null };
  }

  const { directives } = csp;
  const fallback = (name: string) => directives.get(name) ?? directives.get('default-src');
  // the same Set objects as in `directives`: edits below show in later checks, as in the Observatory
  const scriptSrc = fallback('script-src') ?? new Set(['*']);
  const styleSrc = fallback('style-src') ?? new Set(['*']);
  const objectSrc = fallback('object-src') ?? new Set(['*']);

  // a nonce or hash makes browsers ignore 'unsafe-inline' (CSP3 §6.7.3.3)
  for (const sources of [scriptSrc, styleSrc]) {
    if (hasNonceOrHash(sources)) sources.delete("'unsafe-inline'");
  }

  let result: string | null = null;
  if (scriptSrc.has("'strict-dynamic'")) {
    if (hasNonceOrHash(scriptSrc)) {
      // 'strict-dynamic' makes browsers ignore host and scheme sources, 'self' and 'unsafe-inline'
      for (const source of [...scriptSrc]) {
        if (
          [...dangerouslyBroad].some((broad) => source.startsWith(broad)) ||
          source === "'self'" ||
          source === "'unsafe-inline'"
        ) {
          scriptSrc.delete(source);
        }
      }
      details.push("script-src uses 'strict-dynamic' with a nonce or hash.");
    } else {
      result = 'csp-header-invalid';
      details.push("script-src uses 'strict-dynamic' without any nonce or hash, so no script can load.");
    }
  }

  const activeSources: string[] = [];
  for (const [name, sources] of directives) {
    if (name !== 'script-src' && !passiveDirectives.includes(name)) activeSources.push(...sources);
  }
  activeSources.push(...scriptSrc);
  const passiveSources = passiveDirectives.flatMap((name) => [
    ...(directives.get(name) ?? directives.get('default-src') ?? []),
  ]);

  const unsafeScripts = [...scriptSrc].filter(isBroadOrInline);
  const unsafeObjects = [...objectSrc].filter((source) => dangerouslyBroad.has(source));
  if (unsafeScripts.length || unsafeObjects.length) {
    result ??= 'csp-implemented-with-unsafe-inline';
    if (!directives.has('script-src') && !directives.has('default-src'))
      details.push('Neither script-src nor default-src is set, so scripts may load from anywhere.');
    else if (unsafeScripts.length)
      details.push(
        `${directives.has('script-src') ? 'script-src' : 'default-src'} allows ${list(unsafeScripts)} for scripts.`,
      );
    if (!directives.has('object-src') && !directives.has('default-src'))
      details.push('Neither object-src nor default-src is set, so plugins may load from anywhere.');
    else if (unsafeObjects.length)
      details.push(
        `${directives.has('object-src') ? 'object-src' : 'default-src'} allows ${list(unsafeObjects)} for plugins.`,
      );
  }
  const insecureActive = activeSources.filter(isInsecureScheme);
  if (https && insecureActive.length) {
    result ??= 'csp-implemented-with-insecure-scheme';
    details.push(
      `Scripts, styles or other active content may load over plain http: ${list(insecureActive)}.`,
    );
  }
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'")) {
    result ??= 'csp-implemented-with-unsafe-eval';
    details.push("The policy allows 'unsafe-eval'.");
  }
  const insecurePassive = passiveSources.filter(isInsecureScheme);
  if (https && insecurePassive.length) {
    result ??= 'csp-implemented-with-insecure-scheme-in-passive-content-only';
    details.push(`Images or media may load over plain http: ${list(insecurePassive)}.`);
  }
  const unsafeStyles = [...styleSrc].filter(isBroadOrInline);
  if (unsafeStyles.length) {
    result ??= 'csp-implemented-with-unsafe-inline-in-style-src-only';
    details.push(
      `${directives.has('style-src') ? 'style-src' : directives.has('default-src') ? 'default-src' : 'No style-src or default-src: the policy'} allows ${list(unsafeStyles)} for styles.`,
    );
  }
  const defaultSrc = directives.get('default-src');
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1) {
    result ??= 'csp-implemented-with-no-unsafe-default-src-none';
  } else {
    result ??= 'csp-implemented-with-no-unsafe';
  }

  const pass = [
    'csp-implemented-with-no-unsafe',
    'csp-implemented-with-no-unsafe-default-src-none',
    'csp-implemented-with-unsafe-inline-in-style-src-only',
    'csp-implemented-with-insecure-scheme-in-passive-content-only',
  ].includes(result);
  if (pass && csp.duplicates.size > 0) {
    result = 'csp-implemented-but-duplicate-directives';
    details.push(`Repeated in one policy: ${[...csp.duplicates].join(', ')} (only the first counts).`);
  }

  const policy: Record<string, string[]> = {};
  for (const [name, sources] of directives) policy[name] = [...sources].sort();
  let frameAncestors: CspTestOutcome['frameAncestors'] = null;
  if (directives.has('frame-ancestors')) {
    frameAncestors = headerOnly.directives.has('frame-ancestors') ? 'header' : 'meta-only';
  }
  return { result, pass, details, policy, frameAncestors };
}
