import { resolverUnavailable } from '../net/errors.ts';
import type { DnsSession } from '../net/dns.ts';

/** A DNS name as lookups are compared: lower case, no final dot. */
const lookupName = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * The result of a DNS-backed check, unless our resolver failed on one of the lookups its verdict
 * hangs on: then the result would judge the domain on an answer it never got (a temperror, "no
 * record"), so the answer is instead that we could not check (503 RESOLVER_UNAVAILABLE, the names
 * in `details.tried`). Failures of the name's own servers stay in the result (see `isResolverFailure`).
 * `hangsOn(result, failed)` tells whether the lookups of the names in `failed` decide the verdict;
 * by default every lookup does.
 */
export async function unlessResolverFailed<T>(
  dns: DnsSession,
  check: T | Promise<T>,
  hangsOn: (result: T, failed: ReadonlySet<string>) => boolean = () => true,
): Promise<T> {
  const result = await check;
  const failed = dns.resolverFailures();
  if (failed.length === 0 || !hangsOn(result, new Set(failed.map((lookup) => lookupName(lookup.name)))))
    return result;
  throw resolverUnavailable(
    failed.map((lookup) => lookup.name),
    { outOfTime: failed.every((lookup) => lookup.status === 'timeout' && lookup.reason === 'budget') },
  );
}

/** Whether `name` is one of the `failed` lookups (as `hangsOn` gets them). */
export function lookupFailed(failed: ReadonlySet<string>, name: string | null | undefined): boolean {
  return typeof name === 'string' && failed.has(lookupName(name));
}
