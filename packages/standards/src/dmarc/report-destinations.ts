import type { Diagnostic } from '../core/diagnostic.ts';
import { describeDnsResult, isTemporaryDnsFailure, type Resolver } from '../core/resolver.ts';
import { rfc7489OrganizationalDomain } from './discovery.ts';
import { createDmarcDns, dmarcTreeWalk, type DmarcDns } from './lookups.ts';
import { isDmarcRecord, parseDmarcRecord } from './parse.ts';
import { parseDmarcUriList, type DmarcUri } from './uri.ts';

/**
 * The check of one external report destination (RFC 9990 §3, RFC 7489 §7.1): a receiver sends
 * reports for `recordDomain` to a host in another Organizational Domain only if that host has
 * published `<recordDomain>._report._dmarc.<host>` TXT "v=DMARC1".
 */
export interface DmarcReportDestination {
  tag: 'rua' | 'ruf';
  uri: string;
  /** The destination host: the domain part of a mailto: address, or the URI's host. */
  host: string;
  /** The domain whose record names the destination. */
  recordDomain: string;
  /** Organizational Domains by the RFC 9989 tree walk. */
  recordOrganizationalDomain: string;
  hostOrganizationalDomain: string;
  /** Whether receivers must verify the destination: the Organizational Domains differ. */
  required: boolean;
  /** The same question for RFC 7489 receivers, whose Organizational Domains come from the Public Suffix List. */
  requiredRfc7489: boolean;
  /** The name asked for; null when no check is needed or the name is too long to ask. */
  name: string | null;
  /**
   * `same-organization`: no check needed; `authorized`: the host published the record;
   * `unauthorized`: it did not, so receivers MUST NOT send reports there; `unverifiable`: the name
   * exceeds DNS limits; `temperror`: the lookup failed.
   */
  status: 'same-organization' | 'authorized' | 'unauthorized' | 'unverifiable' | 'temperror';
  /** One sentence on the DNS answer, when a lookup was made. */
  dns: string | null;
  /** The v=DMARC1 records found at `name`. */
  records: string[];
  /** A destination the host's record substitutes for this one (same host only, RFC 9990 §3 step 9). */
  override: { uris: string[]; accepted: boolean } | null;
}

export interface DmarcReportDestinationCheck {
  destinations: DmarcReportDestination[];
  diagnostics: Diagnostic[];
}

/** How many destination hosts one check looks up at most. */
export const dmarcMaxCheckedHosts = 10;

/** The name a report consumer publishes to accept reports for `recordDomain` (RFC 9990 §3 steps 1-3). */
export function reportAuthorizationName(recordDomain: string, host: string): string {
  return `${recordDomain}._report._dmarc.${host}`;
}

function fitsDns(name: string): boolean {
  return name.length <= 253 && name.split('.').every((label) => label.length >= 1 && label.length <= 63);
}

/**
 * Checks every rua and ruf destination of the record published at `recordDomain`. When the
 * check applies follows the RFCs, not the stricter checkdmarc: only when the Organizational
 * Domain of the destination differs from the record's (RFC 9990 §3, RFC 7489 §7.1), so
 * `reports.example.com` needs no authorisation for `example.com`. Organizational Domains come
 * from the RFC 9989 tree walk; `requiredRfc7489` says what Public Suffix List receivers decide.
 * Several authorisation records count as authorised (step 8: "at least one"); an override that
 * names another host is ignored (step 9), which is reported.
 */
export async function checkReportDestinations(
  recordDomain: string,
  uris: { rua: readonly DmarcUri[]; ruf: readonly DmarcUri[] },
  resolverOrDns: Resolver | DmarcDns,
  options: { maxHosts?: number } = {},
): Promise<DmarcReportDestinationCheck> {
  const maxHosts = options.maxHosts ?? dmarcMaxCheckedHosts;
  const dns = 'dmarc' in resolverOrDns ? resolverOrDns : createDmarcDns(resolverOrDns);
  const organizational = new Map<string, Promise<string>>();
  const organizationalDomainOf = (domain: string) => {
    let pending = organizational.get(domain);
    if (pending === undefined) {
      pending = dmarcTreeWalk(domain, dns).then((walk) => walk.organizationalDomain);
      organizational.set(domain, pending);
    }
    return pending;
  };

  const destinations: DmarcReportDestination[] = [];
  const diagnostics: Diagnostic[] = [];
  const recordOrganizationalDomain = await organizationalDomainOf(recordDomain);
  const recordOrganizationalDomain7489 = rfc7489OrganizationalDomain(recordDomain);

  const hosts = new Set<string>();
  const unchecked: string[] = [];
  for (const tag of ['rua', 'ruf'] as const) {
    for (const uri of uris[tag]) {
      if (uri.problem !== null || uri.host === null) continue;
      const host = uri.host;
      // each host costs a tree walk: a record listing dozens of hosts is checked in part
      if (!hosts.has(host) && hosts.size >= maxHosts) {
        unchecked.push(uri.uri);
        continue;
      }
      hosts.add(host);
      const hostOrganizationalDomain = await organizationalDomainOf(host);
      const required = hostOrganizationalDomain !== recordOrganizationalDomain;
      const requiredRfc7489 = rfc7489OrganizationalDomain(host) !== recordOrganizationalDomain7489;
      const base = {
        tag,
        uri: uri.uri,
        host,
        recordDomain,
        recordOrganizationalDomain,
        hostOrganizationalDomain,
        required,
        requiredRfc7489,
        dns: null,
        records: [],
        override: null,
      };
      if (!required) {
        destinations.push({ ...base, name: null, status: 'same-organization' });
        if (requiredRfc7489) {
          diagnostics.push({
            severity: 'info',
            code: 'DMARC_REPORT_RFC7489_CHECK',
            message: `${tag}: ${host} and ${recordDomain} share the Organizational Domain ${recordOrganizationalDomain} by the tree walk, but not by the Public Suffix List: RFC 7489 receivers look for ${reportAuthorizationName(recordDomain, host)} before sending reports there`,
            rfc: 'RFC 7489 §7.1',
            fix: `Publish TXT "v=DMARC1" at ${reportAuthorizationName(recordDomain, host)} for them.`,
          });
        }
        continue;
      }
      const name = reportAuthorizationName(recordDomain, host);
      if (!fitsDns(name)) {
        destinations.push({ ...base, name: null, status: 'unverifiable' });
        diagnostics.push({
          severity: 'warning',
          code: 'DMARC_REPORT_UNVERIFIABLE',
          message: `${tag}: ${name} is too long for DNS, so receivers cannot verify that ${host} accepts reports for ${recordDomain} and will not send them`,
          rfc: 'RFC 9990 §3',
          fix: 'Use a report address with a shorter domain.',
        });
        continue;
      }
      const answer = await dns.txt(name);
      const described = describeDnsResult(answer);
      if (isTemporaryDnsFailure(answer)) {
        destinations.push({ ...base, name, dns: described, status: 'temperror' });
        diagnostics.push({
          severity: 'warning',
          code: 'DMARC_REPORT_LOOKUP_FAILED',
          message: `${tag}: whether ${host} accepts reports for ${recordDomain} could not be checked (${described})`,
          rfc: 'RFC 9990 §3',
          fix: 'Check again in a few minutes: a failed lookup says nothing about the destination.',
        });
        continue;
      }
      const records = answer.status === 'ok' ? answer.records.map((r) => r.text).filter(isDmarcRecord) : [];
      if (records.length === 0) {
        destinations.push({ ...base, name, dns: described, status: 'unauthorized' });
        diagnostics.push({
          severity: 'warning',
          code: 'DMARC_REPORT_UNAUTHORIZED',
          message: `${tag}: ${host} is outside ${recordOrganizationalDomain} and has not published ${name} TXT "v=DMARC1", so receivers MUST NOT send reports to ${uri.uri}`,
          requirement: 'MUST NOT',
          rfc: 'RFC 9990 §3',
          fix: `Ask the operator of ${host} to publish TXT "v=DMARC1" at ${name}, or use an address in ${recordOrganizationalDomain}.`,
        });
        continue;
      }
      const override = readOverride(records, tag, host);
      destinations.push({ ...base, name, dns: described, status: 'authorized', records, override });
      if (records.length > 1) {
        diagnostics.push({
          severity: 'info',
          code: 'DMARC_REPORT_AUTH_MULTIPLE',
          message: `${tag}: ${name} has ${records.length} v=DMARC1 records; one is enough (some checkers, such as internet.nl, count a second one as a failure)`,
          rfc: 'RFC 9990 §3',
        });
      }
      if (override !== null) {
        diagnostics.push(
          override.accepted
            ? {
                severity: 'info',
                code: 'DMARC_REPORT_OVERRIDE',
                message: `${tag}: ${host} asks for the reports for ${recordDomain} to go to ${override.uris.join(', ')} instead of ${uri.uri}`,
                rfc: 'RFC 9990 §3',
              }
            : {
                severity: 'warning',
                code: 'DMARC_REPORT_OVERRIDE_OTHER_HOST',
                message: `${tag}: the authorisation record at ${name} redirects reports to ${override.uris.join(', ')}, outside ${host}; receivers MUST ignore such an override and send to ${uri.uri}`,
                requirement: 'MUST',
                rfc: 'RFC 9990 §3',
                fix: `The operator of ${host} should name an address at ${host} in its ${tag} tag, or none.`,
              },
        );
      }
    }
  }
  if (unchecked.length > 0) {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_REPORT_NOT_CHECKED',
      message: `Only the destinations at the first ${maxHosts} hosts were checked; not checked: ${unchecked.join(', ')}`,
      rfc: 'RFC 9990 §3',
    });
  }
  return { destinations, diagnostics };
}

function readOverride(
  records: readonly string[],
  tag: 'rua' | 'ruf',
  host: string,
): DmarcReportDestination['override'] {
  for (const record of records) {
    const parsed = parseDmarcRecord(record);
    if (!parsed.ok) continue;
    const found = parsed.tags.find((candidate) => candidate.key === tag);
    if (found === undefined) continue;
    const uris = parseDmarcUriList(found.value, 0).filter((uri) => uri.problem === null);
    if (uris.length === 0) continue;
    return { uris: uris.map((uri) => uri.uri), accepted: uris.every((uri) => uri.host === host) };
  }
  return null;
}
