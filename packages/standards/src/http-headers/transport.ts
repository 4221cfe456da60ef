import type { TestOutcome } from './outcome.ts';

/** An entry of an HSTS preload list (Chromium's `transport_security_state_static.json` format). */
export interface HstsPreloadEntry {
  name: string;
  /** Only `force-https` entries force HTTPS; others only pin keys. */
  mode?: string;
  include_subdomains?: boolean;
}

/** Looks a host up in an HSTS preload list; the caller supplies the list (it changes weekly). */
export type HstsPreloadLookup = (name: string) => HstsPreloadEntry | undefined;

/** A lookup over preload entries, e.g. the `entries` of Chromium's list. */
export function hstsPreloadList(entries: readonly HstsPreloadEntry[]): HstsPreloadLookup {
  const byName = new Map(entries.map((entry) => [entry.name.toLowerCase(), entry]));
  return (name) => byName.get(name.toLowerCase());
}

/**
 * The entry that preloads `host`: its own `force-https` entry, or one of a parent domain that
 * includes subdomains.
 */
export function findHstsPreload(host: string, lookup: HstsPreloadLookup): HstsPreloadEntry | null {
  const own = lookup(host);
  if (own?.mode === 'force-https') return own;
  const labels = host.split('.');
  for (labels.shift(); labels.length > 0; labels.shift()) {
    const entry = lookup(labels.join('.'));
    if (entry?.mode === 'force-https' && entry.include_subdomains) return entry;
  }
  return null;
}

/** 15768000 s is six months; the Observatory accepts the common 180 days (15552000 s). */
export const hstsSixMonths = 15_552_000;
const oneYear = 31_536_000;

export interface HstsPolicy {
  maxAge: number;
  includeSubDomains: boolean;
  preload: boolean;
}

/**
 * Reads a Strict-Transport-Security value (RFC 6797 §6.1) as a browser would: the header
 * (after joining repeats with ", ") must be one directive list, each directive at most once,
 * and max-age a number of seconds. Returns the reason when a browser would ignore it.
 */
export function parseHsts(value: string): HstsPolicy | { error: string } {
  if (value.includes(',')) {
    return { error: 'The header is sent more than once (or holds a comma); browsers use none of it.' };
  }
  let maxAge: number | null = null;
  let includeSubDomains = false;
  let preload = false;
  const seen = new Set<string>();
  for (const raw of value.split(';')) {
    const directive = raw.trim().toLowerCase();
    if (directive === '') continue;
    const name = directive.split('=', 1)[0]!.trim();
    if (seen.has(name)) return { error: `The directive ${name} appears more than once (RFC 6797 §6.1).` };
    seen.add(name);
    if (directive.startsWith('max-age=')) {
      const match = /^(?:(\d+)|"(\d+)")$/.exec(directive.slice(8).trim());
      if (!match) return { error: `max-age must be a number of seconds, not "${directive.slice(8)}".` };
      maxAge = Number(match[1] ?? match[2]);
    } else if (directive === 'includesubdomains') {
      includeSubDomains = true;
    } else if (directive === 'preload') {
      preload = true;
    }
  }
  if (maxAge === null) return { error: 'max-age is missing; it is the one required directive.' };
  return { maxAge, includeSubDomains, preload };
}

function duration(seconds: number): string {
  if (seconds >= 86_400) return `${Math.floor(seconds / 86_400)} days`;
  if (seconds >= 3_600) return `${Math.floor(seconds / 3_600)} hours`;
  return `${seconds} seconds`;
}

export interface HstsTestInput {
  /** The https:// fetch of the site, or null when HTTPS could not be reached. */
  https: { certificateValid: boolean; value: string | null } | null;
  /** Host name of the site, for the preload list. */
  site: string | null;
  preload?: HstsPreloadLookup | undefined;
}

/** The Observatory's Strict Transport Security test. */
export function hstsTest({ https, site, preload }: HstsTestInput): TestOutcome {
  const details: string[] = [];
  let result = 'hsts-not-implemented';
  if (!https) {
    result = 'hsts-not-implemented-no-https';
  } else if (!https.certificateValid) {
    result = 'hsts-invalid-cert';
  } else if (https.value !== null) {
    // the Observatory reads at most 1024 characters of it
    const policy = parseHsts(https.value.slice(0, 1024));
    if ('error' in policy) {
      result = 'hsts-header-invalid';
      details.push(policy.error);
    } else {
      result =
        policy.maxAge < hstsSixMonths
          ? 'hsts-implemented-max-age-less-than-six-months'
          : 'hsts-implemented-max-age-at-least-six-months';
      details.push(
        `max-age=${policy.maxAge} (${duration(policy.maxAge)})` +
          (policy.includeSubDomains ? ', includeSubDomains' : '') +
          (policy.preload ? ', preload' : ''),
      );
      if (policy.preload && (policy.maxAge < oneYear || !policy.includeSubDomains)) {
        details.push(
          'The preload list accepts a site only with max-age of at least 31536000 and includeSubDomains.',
        );
      }
    }
  }
  if (https && site !== null) {
    if (preload) {
      const entry = findHstsPreload(site, preload);
      if (entry) {
        result = 'hsts-preloaded';
        details.push(
          entry.name.toLowerCase() === site.toLowerCase()
            ? `${site} is on the HSTS preload list.`
            : `${site} is preloaded through ${entry.name} (includeSubDomains).`,
        );
      }
    } else {
      details.push('The HSTS preload list was not consulted.');
    }
  }
  const pass = result === 'hsts-implemented-max-age-at-least-six-months' || result === 'hsts-preloaded';
  return { result, pass, details };
}

export interface RedirectHop {
  url: string;
  status: number;
}

export interface RedirectionTestInput {
  /** The visit that started at http://: every request in order, or null when http:// did not answer. */
  http: { chain: readonly RedirectHop[]; certificateValid: boolean } | null;
  preload?: HstsPreloadLookup | undefined;
}

/** The Observatory's redirection test: does http:// send visitors to https, on the same host first? */
export function redirectionTest({ http, preload }: RedirectionTestInput): TestOutcome {
  if (!http) {
    return {
      result: 'redirection-not-needed-no-http',
      pass: true,
      details: ['Nothing answered on http://, so there is nothing to redirect.'],
    };
  }
  const chain = http.chain.map((hop) => ({ ...hop, parsed: new URL(hop.url) }));
  const details = [chain.map((hop) => `${hop.url} (${hop.status})`).join(' → ')];
  if (!http.certificateValid) {
    return { result: 'redirection-invalid-cert', pass: false, details };
  }
  let result: string;
  const first = chain[0];
  const second = chain[1];
  const last = chain.at(-1);
  if (
    preload &&
    chain.length > 0 &&
    chain.every((hop) => findHstsPreload(hop.parsed.hostname, preload) !== null)
  ) {
    result = 'redirection-all-redirects-preloaded';
  } else if (!first || !second || !last) {
    result = 'redirection-missing';
  } else if (last.parsed.protocol !== 'https:') {
    result = 'redirection-not-to-https';
  } else if (second.parsed.protocol === 'http:') {
    result = 'redirection-not-to-https-on-initial-redirection';
  } else if (
    first.parsed.protocol === 'http:' &&
    second.parsed.protocol === 'https:' &&
    first.parsed.hostname !== second.parsed.hostname
  ) {
    result = 'redirection-off-host-from-http';
  } else {
    result = 'redirection-to-https';
  }
  const pass = ['redirection-to-https', 'redirection-all-redirects-preloaded'].includes(result);
  return { result, pass, details };
}
