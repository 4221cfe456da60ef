/**
 * The region check of spec part 1 §2 and §7: where the visitor is, asked of our own origin's
 * `/cdn-cgi/trace` (the server locates clients; docs/architecture.md §10: no third-party geolocation call), with
 * the browser's time zone as the last fallback. The server enforces the block on every request;
 * this check only lets the app explain it instead of failing call by call.
 */
import {
  DEFAULT_DENIED_COUNTRIES,
  DENIED_COUNTRIES_META,
  traceLocation,
  TRACE_PATH,
  UNKNOWN_COUNTRY,
} from '@rfckit/standards';

import { apiBaseUrl } from './access-token.ts';

export const TRACE_TIMEOUT_MS = 4000;

export interface RegionVerdict {
  allowed: boolean;
  /** ISO 3166-1 alpha-2, or XX when unknown (allowed). */
  country: string;
  source: 'trace' | 'time zone' | 'unknown';
}

/** The server's list from the page's `<meta>`; the spec's list when the page was not served by our server. */
export function deniedCountries(doc: Document = document): readonly string[] {
  const content = doc.querySelector(`meta[name="${DENIED_COUNTRIES_META}"]`)?.getAttribute('content');
  if (content === null || content === undefined) return DEFAULT_DENIED_COUNTRIES;
  return content
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code !== '');
}

async function countryFromTrace(fetchImpl: typeof fetch): Promise<string | undefined> {
  try {
    const response = await fetchImpl(`${apiBaseUrl}${TRACE_PATH}`, {
      headers: { Accept: 'text/plain' },
      cache: 'no-store',
      signal: AbortSignal.timeout(TRACE_TIMEOUT_MS),
    });
    if (!response.ok) return undefined;
    return traceLocation(await response.text());
  } catch {
    return undefined;
  }
}

async function countryFromTimeZone(): Promise<string | undefined> {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return undefined;
  const { countryOfTimeZone } = await import('./time-zone-countries.ts');
  return countryOfTimeZone(zone);
}

export interface RegionCheckOptions {
  fetch?: typeof fetch;
  denied?: readonly string[];
  timeZoneCountry?: () => Promise<string | undefined>;
}

/** Locates the visitor and says whether the service may be used from there. */
export async function checkRegion({
  fetch: fetchImpl = fetch,
  denied = deniedCountries(),
  timeZoneCountry = countryFromTimeZone,
}: RegionCheckOptions = {}): Promise<RegionVerdict> {
  const list = new Set(denied);
  const traced = await countryFromTrace(fetchImpl);
  if (traced !== undefined) return { allowed: !list.has(traced), country: traced, source: 'trace' };
  const zoned = await timeZoneCountry().catch(() => undefined);
  if (zoned !== undefined) return { allowed: !list.has(zoned), country: zoned, source: 'time zone' };
  return { allowed: true, country: UNKNOWN_COUNTRY, source: 'unknown' };
}
