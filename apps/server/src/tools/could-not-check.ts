import { resolverUnavailable } from '../net/errors.ts';
import type { DnsSession } from '../net/dns.ts';

/**
 * The result of a DNS-backed check, unless our resolver failed on one of its lookups: then the
 * result would judge the domain on an answer it never got (a temperror, "no record"), so the
 * answer is instead that we could not check (503 RESOLVER_UNAVAILABLE, the names in
 * `details.tried`). Failures of the name's own servers stay in the result (see `isResolverFailure`).
 */
export async function unlessResolverFailed<T>(dns: DnsSession, check: T | Promise<T>): Promise<T> {
  const result = await check;
  const failed = dns.resolverFailures();
  if (failed.length > 0)
    throw resolverUnavailable(
      failed.map((lookup) => lookup.name),
      { outOfTime: failed.every((lookup) => lookup.status === 'timeout' && lookup.reason === 'budget') },
    );
  return result;
}
