/**
 * The region block of spec part 1 §2, §8, §9, shared by the server (which refuses the requests)
 * and the web app (which explains the refusal on its Access Denied screen).
 */

/** Spec part 1 §9: the countries refused unless DENIED_COUNTRIES says otherwise. */
// prettier-ignore
export const DEFAULT_DENIED_COUNTRIES: readonly string[] = [
  'AF', 'BY', 'BA', 'CF', 'KP', 'CD', 'GN', 'GW', 'HT', 'IR', 'IQ', 'LB', 'LY', 'ML', 'MM', 'NI', 'RU', 'SO',
  'SS', 'SD', 'SY', 'VE', 'YE', 'ZW',
];

/** The country of a client that cannot be located: allowed (spec part 1 §9). */
export const UNKNOWN_COUNTRY = 'XX';

/** Where the server answers Cloudflare's `key=value` trace with the client's `loc`. */
export const TRACE_PATH = '/cdn-cgi/trace';

/**
 * Name of the `<meta>` through which the served page tells the web app the server's list of
 * denied countries (comma-separated), so both refuse the same places.
 */
export const DENIED_COUNTRIES_META = 'rfckit-denied-countries';

/** Spec part 1 §8, verbatim. */
export function regionDeniedMessage(country: string): string {
  return `Access is not permitted from your location (${country})`;
}

/** The `loc` of a `/cdn-cgi/trace` body, upper-cased; undefined when absent or malformed. */
export function traceLocation(body: string): string | undefined {
  const line = body.split('\n').find((entry) => entry.startsWith('loc='));
  const code = line?.slice(4).trim().toUpperCase();
  return code !== undefined && /^[A-Z][A-Z0-9]$/.test(code) ? code : undefined;
}
