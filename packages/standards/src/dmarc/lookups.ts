import {
  describeDnsResult,
  isTemporaryDnsFailure,
  type DnsResult,
  type DnsStatus,
  type Resolver,
} from '../core/resolver.ts';
import { analyzeDmarcRecord } from './validate.ts';
import { isDmarcRecord } from './parse.ts';
import type { DmarcPsd } from './tags.ts';

/** What one TXT query at `_dmarc.<domain>` found, as RFC 9989 §4.10 steps 1-2 read it. */
export interface DmarcLookup {
  /** The name asked for, `_dmarc.<domain>`. */
  name: string;
  domain: string;
  status: DnsStatus;
  /** One sentence on the DNS answer. */
  dns: string;
  /** Every TXT record at the name, its strings joined. */
  txt: string[];
  /** The TXT records that are DMARC records (start with v=DMARC1). */
  dmarc: string[];
  /** `record`: exactly one DMARC record; `multiple`: more, all discarded; `failed`: a temporary DNS failure. */
  outcome: 'record' | 'none' | 'multiple' | 'failed';
  /** The psd tag of the single record (`u` when absent or invalid). */
  psd: DmarcPsd | null;
}

/**
 * DNS access for DMARC checks: every name is asked at most once however often discovery, the RFC
 * 7489 reading and the report-destination checks need it (a receiver caches the same way).
 */
export interface DmarcDns {
  /** TXT at `_dmarc.<domain>`. */
  dmarc(domain: string): Promise<DmarcLookup>;
  /** TXT at any name. */
  txt(name: string): Promise<DnsResult<'TXT'>>;
  /** Whether a name exists (RFC 9989 §3.2.13: anything but NXDOMAIN); null when the lookup failed. */
  exists(domain: string): Promise<{ exists: boolean | null; dns: string }>;
}

export function createDmarcDns(resolver: Resolver): DmarcDns {
  const txtCache = new Map<string, Promise<DnsResult<'TXT'>>>();
  const existsCache = new Map<string, Promise<{ exists: boolean | null; dns: string }>>();

  function txt(name: string): Promise<DnsResult<'TXT'>> {
    const key = name.toLowerCase();
    let pending = txtCache.get(key);
    if (pending === undefined) {
      pending = resolver.query(key, 'TXT');
      txtCache.set(key, pending);
    }
    return pending;
  }

  return {
    txt,
    async dmarc(domain) {
      const name = `_dmarc.${domain}`;
      const result = await txt(name);
      const texts = result.status === 'ok' ? result.records.map((record) => record.text) : [];
      const dmarc = texts.filter(isDmarcRecord);
      const outcome: DmarcLookup['outcome'] = isTemporaryDnsFailure(result)
        ? 'failed'
        : dmarc.length === 1
          ? 'record'
          : dmarc.length > 1
            ? 'multiple'
            : 'none';
      const single = outcome === 'record' ? dmarc[0] : undefined;
      return {
        name,
        domain,
        status: result.status,
        dns: describeDnsResult(result),
        txt: texts,
        dmarc,
        outcome,
        psd: single === undefined ? null : (analyzeDmarcRecord(single, 'RFC 9989').parsed?.psd ?? 'u'),
      };
    },
    exists(domain) {
      let pending = existsCache.get(domain);
      if (pending === undefined) {
        pending = resolver.query(domain, 'A').then((result) => ({
          // an alias whose target is missing still exists itself (RFC 8020 speaks of the name asked)
          exists: isTemporaryDnsFailure(result)
            ? null
            : !(result.status === 'nxdomain' && result.cnames.length === 0),
          dns: describeDnsResult(result),
        }));
        existsCache.set(domain, pending);
      }
      return pending;
    },
  };
}

/** Most RFC 9989 tree walks query at most this many names (§4.10). */
export const dmarcTreeWalkLimit = 8;

/**
 * The names an RFC 9989 DNS Tree Walk (§4.10) asks for, in order, starting at `domain`: the domain
 * itself, then — for a name of eight or more labels — straight to its last seven labels, then one
 * label less each time down to the top-level domain. Never more than eight.
 */
export function dmarcTreeWalkTargets(domain: string): string[] {
  const labels = domain.split('.');
  const targets = [domain];
  let count = labels.length;
  count = count >= dmarcTreeWalkLimit ? dmarcTreeWalkLimit - 1 : count - 1;
  while (count >= 1) {
    targets.push(labels.slice(labels.length - count).join('.'));
    count--;
  }
  return targets;
}

export interface DmarcTreeWalk {
  start: string;
  lookups: DmarcLookup[];
  /** The names the eight-query shortcut skipped (domains of 9 or more labels). */
  skipped: string[];
  organizationalDomain: string;
  /** How the Organizational Domain was chosen (RFC 9989 §4.10.2). */
  rule: 'psd-n' | 'psd-y' | 'fewest-labels' | 'start';
  /** The lookup of a record with psd=y that stopped the walk, if any. */
  publicSuffixLookup: DmarcLookup | null;
}

/**
 * Walks the DNS tree from `start` (RFC 9989 §4.10), stopping at a single record with psd=y or
 * psd=n, and selects the Organizational Domain from the records found, longest name first
 * (§4.10.2): a psd=n record's domain; below a psd=y record (other than at the start), the domain
 * one label below it; otherwise the domain with the fewest labels that has a record; without any
 * record, `start` itself.
 */
export async function dmarcTreeWalk(start: string, dns: DmarcDns): Promise<DmarcTreeWalk> {
  const lookups: DmarcLookup[] = [];
  const targets = dmarcTreeWalkTargets(start);
  const startLabels = start.split('.');
  const skipped =
    startLabels.length > dmarcTreeWalkLimit
      ? startLabels
          .slice(1, startLabels.length - (dmarcTreeWalkLimit - 1))
          .map((_, index) => startLabels.slice(index + 1).join('.'))
      : [];
  for (const target of targets) {
    const lookup = await dns.dmarc(target);
    lookups.push(lookup);
    if (lookup.outcome === 'record' && (lookup.psd === 'y' || lookup.psd === 'n')) break;
  }

  let organizationalDomain = start;
  let rule: DmarcTreeWalk['rule'] = 'start';
  let publicSuffixLookup: DmarcLookup | null = null;
  const found = lookups.filter((lookup) => lookup.outcome === 'record');
  for (const lookup of found) {
    if (lookup.psd === 'n') {
      organizationalDomain = lookup.domain;
      rule = 'psd-n';
      break;
    }
    if (lookup.psd === 'y' && lookup.domain !== start) {
      const labels = lookup.domain.split('.').length + 1;
      organizationalDomain = startLabels.slice(startLabels.length - labels).join('.');
      rule = 'psd-y';
      publicSuffixLookup = lookup;
      break;
    }
  }
  if (rule === 'start' && found.length > 0) {
    organizationalDomain = found[found.length - 1]!.domain;
    rule = 'fewest-labels';
  }
  return { start, lookups, skipped, organizationalDomain, rule, publicSuffixLookup };
}
