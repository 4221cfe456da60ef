/** Matching an MX host against a policy's `mx` patterns (RFC 8461 §4.1). */

/** Case-insensitive, and a trailing dot does not count (RFC 8461 §4.1). */
function comparableName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * True when the MX host matches the pattern: the same name, or for `*.suffix` the suffix with
 * exactly one more label on the left; the wildcard never matches the suffix itself nor more than one
 * label (RFC 8461 §4.1).
 */
export function mxMatchesPattern(mxHost: string, pattern: string): boolean {
  const host = comparableName(mxHost);
  const wanted = comparableName(pattern);
  if (host === '' || wanted === '') return false;
  if (!wanted.startsWith('*.')) return !wanted.includes('*') && host === wanted;
  const suffix = wanted.slice(1); // ".example.com"
  if (suffix.includes('*') || suffix.length < 2 || !host.endsWith(suffix)) return false;
  const label = host.slice(0, host.length - suffix.length);
  return label !== '' && !label.includes('.');
}

/** The first pattern the MX host matches, or null when it matches none (RFC 8461 §4.1). */
export function matchMxToPolicy(mxHost: string, patterns: readonly string[]): string | null {
  return patterns.find((pattern) => mxMatchesPattern(mxHost, pattern)) ?? null;
}
