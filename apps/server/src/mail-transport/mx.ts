// The mail hosts of a domain as a sending MTA finds them (RFC 5321 §5.1): the MX RRset by
// preference, the implicit MX when there is none, the null MX (RFC 7505), and each host's
// addresses, with the aliases and failures a sender would trip over said plainly.
import { describeDnsResult, type DnsResult } from '@rfckit/standards';
import { normalizeQueryName } from '../net/dns.ts';
import type { NetSession } from '../net/layer.ts';

export interface MxHost {
  preference: number;
  /** Lower-case, no trailing dot. */
  host: string;
  /** No MX RRset: the domain itself is the mail host (RFC 5321 §5.1). */
  implicit: boolean;
  /** A then AAAA. */
  addresses: string[];
  /** The MX name is an alias (RFC 2181 §10.3 and RFC 5321 §5.1 forbid it): the name it points to. */
  cnameTarget: string | null;
  /** No address records, a DNS failure for this host … in plain words. */
  problem: string | null;
}

export interface MxLookup {
  domain: string;
  /** A single "0 ." MX: the domain accepts no mail (RFC 7505). */
  nullMx: boolean;
  /** Sorted by preference, then name; empty when nullMx. */
  hosts: MxHost[];
  /** The MX query itself failed (SERVFAIL, timeout, no such domain), said plainly. */
  dnsError: string | null;
  /** MX hosts beyond MAX_MX_HOSTS, listed by the domain but not looked at. */
  omittedHosts: number;
}

/** More MX hosts than this are not looked at (real domains have 1-5). */
export const MAX_MX_HOSTS = 10;

const bareName = (name: string): string => name.toLowerCase().replace(/\.$/, '');

function failure(result: DnsResult): string | null {
  switch (result.status) {
    case 'ok':
    case 'nodata':
      return null;
    default:
      return describeDnsResult(result);
  }
}

async function hostOf(net: NetSession, host: string, preference: number, implicit: boolean): Promise<MxHost> {
  const [a, aaaa] = await Promise.all([net.dns.query(host, 'A'), net.dns.query(host, 'AAAA')]);
  const addresses = [
    ...(a.status === 'ok' ? a.records.map((record) => record.address) : []),
    ...(aaaa.status === 'ok' ? aaaa.records.map((record) => record.address) : []),
  ];
  const aliased = [a, aaaa].find(
    (result) =>
      (result.status === 'ok' || result.status === 'nodata' || result.status === 'nxdomain') &&
      result.cnames.length > 0,
  );
  const cnameTarget =
    aliased !== undefined && 'canonicalName' in aliased ? bareName(aliased.canonicalName) : null;
  let problem: string | null = null;
  if (addresses.length === 0) {
    const failed = failure(a) ?? failure(aaaa);
    problem =
      failed ??
      (a.status === 'nxdomain' ? describeDnsResult(a) : `${host} has no address record (A or AAAA)`);
  }
  return { preference, host, implicit, addresses, cnameTarget, problem };
}

/** Looks up the MX hosts of `domain` and their addresses through the session's resolver. */
export async function lookupMx(net: NetSession, domain: string, signal: AbortSignal): Promise<MxLookup> {
  const name = bareName(normalizeQueryName(domain.trim()) ?? domain.trim());
  const empty = { domain: name, nullMx: false, hosts: [], omittedHosts: 0 };
  signal.throwIfAborted();
  const mx = await net.dns.query(name, 'MX');
  signal.throwIfAborted();
  if (mx.status === 'nxdomain') return { ...empty, dnsError: describeDnsResult(mx) };
  const failed = failure(mx);
  if (failed !== null) return { ...empty, dnsError: failed };
  if (mx.status !== 'ok' || mx.records.length === 0)
    return { ...empty, hosts: [await hostOf(net, name, 0, true)], dnsError: null };
  const records = mx.records.map((record) => ({
    preference: record.preference,
    host: bareName(record.exchange),
  }));
  // RFC 7505 §3: a null MX is the only record of its set, preference 0 and exchange "."
  if (records.length === 1 && records[0]?.host === '' && records[0].preference === 0)
    return { ...empty, nullMx: true, dnsError: null };
  const sorted = records
    .filter((record) => record.host !== '')
    .sort((x, y) => x.preference - y.preference || x.host.localeCompare(y.host));
  const looked = sorted.slice(0, MAX_MX_HOSTS);
  const hosts = await Promise.all(looked.map((record) => hostOf(net, record.host, record.preference, false)));
  signal.throwIfAborted();
  return { ...empty, hosts, omittedHosts: sorted.length - looked.length, dnsError: null };
}
