import { getDomain } from 'tldts';
import type { Diagnostic } from '../core/diagnostic.ts';
import type { Resolver } from '../core/resolver.ts';
import {
  createDmarcDns,
  dmarcTreeWalk,
  type DmarcDns,
  type DmarcLookup,
  type DmarcTreeWalk,
} from './lookups.ts';
import { isDmarcRecord } from './parse.ts';
import { testModePolicy, type DmarcPolicy } from './tags.ts';
import { analyzeDmarcRecord } from './validate.ts';

/** The record that applies to mail from a domain, and the policy receivers take from it. */
export interface DmarcAppliedPolicy {
  /** Where the record was found (the DMARC Policy Domain, RFC 9989 §3.2.5). */
  recordDomain: string;
  record: string;
  /** Whose record it is: the Author Domain's, its Organizational Domain's or its Public Suffix Domain's. */
  source: 'author' | 'organizational' | 'public-suffix';
  /** The tag the policy comes from; `p` also when p is absent or invalid and receivers act as p=none. */
  tag: 'p' | 'sp' | 'np';
  /** The policy the record asks for. */
  requested: DmarcPolicy;
  /** `t=y` (RFC 9989 only). */
  testMode: boolean;
  /** What receivers apply to failing mail: one level less in test mode. */
  applied: DmarcPolicy;
  /** RFC 7489 only: the pct in force (100 when absent). */
  percentage?: number;
}

/** How receivers that follow one specification find the policy for a domain. */
export interface DmarcDiscoveryView {
  /** `policy`: a record applies; `none`: DMARC does not apply (result none); `temperror`: a lookup failed. */
  result: 'policy' | 'none' | 'temperror';
  organizationalDomain: string;
  /** The TXT lookups at `_dmarc.` names, in order. */
  lookups: DmarcLookup[];
  policy: DmarcAppliedPolicy | null;
  /** Why there is no policy, when there is none. */
  reason?: string;
}

export interface DmarcDiscovery extends DmarcDiscoveryView {
  /** The Author Domain, normalised. */
  domain: string;
  spec: 'RFC 9989';
  /** How the Organizational Domain was chosen (RFC 9989 §4.10.2). */
  organizationalDomainRule: DmarcTreeWalk['rule'];
  /** Names the eight-query shortcut skipped (§4.10). */
  skipped: string[];
  /** Whether the Author Domain exists, when it mattered (sp or np); null when not asked or unknown. */
  domainExists: boolean | null;
  /** The record discovery settled on, even one that yields no policy (no valid p and no valid rua). */
  record: { domain: string; name: string; text: string; source: DmarcAppliedPolicy['source'] } | null;
  /** What receivers still on RFC 7489 find: the Public Suffix List instead of the tree walk, no np, no t. */
  rfc7489: DmarcDiscoveryView;
  diagnostics: Diagnostic[];
}

/**
 * The Organizational Domain an RFC 7489 receiver computes (§3.2): the registrable domain under the
 * Public Suffix List (ICANN and private sections, as publicsuffix.org publishes it), or the name
 * itself when it is a public suffix.
 */
export function rfc7489OrganizationalDomain(domain: string): string {
  return getDomain(domain, { allowPrivateDomains: true, validHosts: [] }) ?? domain;
}

function describeLookup(lookup: DmarcLookup): string {
  switch (lookup.outcome) {
    case 'record':
      return `${lookup.name}: one DMARC record`;
    case 'multiple':
      return `${lookup.name}: ${lookup.dmarc.length} DMARC records, all discarded`;
    case 'failed':
      return `${lookup.name}: ${lookup.dns}`;
    case 'none':
      return lookup.txt.length > 0
        ? `${lookup.name}: no DMARC record among ${lookup.txt.length} TXT records`
        : lookup.dns;
  }
}

/** Reads the policy a receiver takes from a record, for a domain at or below the record's. */
async function policyFrom(
  lookup: DmarcLookup,
  source: DmarcAppliedPolicy['source'],
  domain: string,
  dns: DmarcDns,
  spec: 'RFC 9989' | 'RFC 7489',
): Promise<{
  policy: DmarcAppliedPolicy | null;
  exists: boolean | null;
  existsDns?: string;
  reason?: string;
}> {
  const record = lookup.dmarc[0]!;
  const analysis = analyzeDmarcRecord(record, spec);
  const effective = analysis.parsed?.effective ?? null;
  if (effective === null) {
    return {
      policy: null,
      exists: null,
      reason: `The record at ${lookup.name} has no valid p tag and no valid rua address, so receivers apply no DMARC processing`,
    };
  }
  const parsed = analysis.parsed!;
  const base = { recordDomain: lookup.domain, record, source };
  if (source === 'author') {
    const requested = effective.domain;
    return {
      policy: {
        ...base,
        tag: 'p',
        requested,
        testMode: parsed.testMode,
        applied: parsed.testMode ? testModePolicy(requested) : requested,
        ...(spec === 'RFC 7489' ? { percentage: percentageOf(parsed.removed) } : {}),
      },
      exists: null,
    };
  }
  let exists: boolean | null = null;
  let existsDns: string | undefined;
  let tag: DmarcAppliedPolicy['tag'] = parsed.sp === null ? 'p' : 'sp';
  let requested = effective.subdomains;
  if (spec === 'RFC 9989') {
    const answer = await dns.exists(domain);
    exists = answer.exists;
    existsDns = answer.dns;
    if (exists === false) {
      requested = effective.nonExistentSubdomains;
      tag = parsed.np !== null ? 'np' : tag;
    }
  }
  return {
    policy: {
      ...base,
      tag,
      requested,
      testMode: parsed.testMode,
      applied: parsed.testMode ? testModePolicy(requested) : requested,
      ...(spec === 'RFC 7489' ? { percentage: percentageOf(parsed.removed) } : {}),
    },
    exists,
    ...(existsDns === undefined ? {} : { existsDns }),
  };
}

function percentageOf(removed: readonly { tag: string; value: string }[]): number {
  const pct = removed.find((entry) => entry.tag === 'pct');
  return pct !== undefined && /^[0-9]+$/.test(pct.value) && Number(pct.value) <= 100
    ? Number(pct.value)
    : 100;
}

/** RFC 7489 §6.6.3: the Author Domain, else its Organizational Domain from the Public Suffix List. */
async function discoverRfc7489(domain: string, dns: DmarcDns): Promise<DmarcDiscoveryView> {
  const organizationalDomain = rfc7489OrganizationalDomain(domain);
  const lookups: DmarcLookup[] = [];
  const author = await dns.dmarc(domain);
  lookups.push(author);
  let chosen: { lookup: DmarcLookup; source: DmarcAppliedPolicy['source'] } | undefined;
  if (author.outcome === 'failed') {
    return {
      result: 'temperror',
      organizationalDomain,
      lookups,
      policy: null,
      reason: describeLookup(author),
    };
  }
  if (author.dmarc.length > 0) {
    // step 5: a set of several records ends discovery, it does not fall back
    if (author.outcome === 'multiple') {
      return { result: 'none', organizationalDomain, lookups, policy: null, reason: describeLookup(author) };
    }
    chosen = { lookup: author, source: 'author' };
  } else if (organizationalDomain !== domain) {
    const organizational = await dns.dmarc(organizationalDomain);
    lookups.push(organizational);
    if (organizational.outcome === 'failed') {
      return {
        result: 'temperror',
        organizationalDomain,
        lookups,
        policy: null,
        reason: describeLookup(organizational),
      };
    }
    if (organizational.outcome === 'record') chosen = { lookup: organizational, source: 'organizational' };
    else {
      return {
        result: 'none',
        organizationalDomain,
        lookups,
        policy: null,
        reason: describeLookup(organizational),
      };
    }
  }
  if (chosen === undefined) {
    return { result: 'none', organizationalDomain, lookups, policy: null, reason: describeLookup(author) };
  }
  const { policy, reason } = await policyFrom(chosen.lookup, chosen.source, domain, dns, 'RFC 7489');
  return policy === null
    ? {
        result: 'none',
        organizationalDomain,
        lookups,
        policy: null,
        ...(reason === undefined ? {} : { reason }),
      }
    : { result: 'policy', organizationalDomain, lookups, policy };
}

/**
 * Finds the DMARC policy that applies to mail from `domain` as RFC 9989 §4.10.1 says: the Author
 * Domain's record, else (after a DNS Tree Walk, §4.10) its Organizational Domain's, else its Public
 * Suffix Domain's; `sp` or `np` for a subdomain depending on whether it exists. Also reports what
 * an RFC 7489 receiver would find, multiple records, records at the wrong name and lookups that
 * failed. The resolver is injected: the server passes its guarded DNS client, tests zone data.
 */
export async function discoverDmarc(
  domain: string,
  resolverOrDns: Resolver | DmarcDns,
): Promise<DmarcDiscovery> {
  const dns = 'dmarc' in resolverOrDns ? resolverOrDns : createDmarcDns(resolverOrDns);
  const walk = await dmarcTreeWalk(domain, dns);
  const diagnostics: Diagnostic[] = [];
  const [author] = walk.lookups;

  for (const lookup of walk.lookups) diagnostics.push(...lookupDiagnostics(lookup));

  if (walk.skipped.length > 0) {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_TREE_WALK_SHORTCUT',
      message: `${domain} has ${domain.split('.').length} labels, so the tree walk jumps from it straight to ${walk.lookups[1]?.domain ?? 'its last seven labels'}: records at ${walk.skipped.map((name) => `_dmarc.${name}`).join(', ')} are never queried`,
      requirement: 'MUST',
      rfc: 'RFC 9989 §5.1.8',
      fix: `To give ${domain} its own policy, publish a record at _dmarc.${domain}.`,
    });
  }

  // §4.10.1: the Author Domain's record, else the Organizational Domain's, else the PSD's
  let chosen: { lookup: DmarcLookup; source: DmarcAppliedPolicy['source'] } | undefined;
  if (author?.outcome === 'record') chosen = { lookup: author, source: 'author' };
  else {
    const organizational = walk.lookups.find(
      (lookup) => lookup.domain === walk.organizationalDomain && lookup.outcome === 'record',
    );
    if (organizational !== undefined) chosen = { lookup: organizational, source: 'organizational' };
    else if (walk.publicSuffixLookup !== null)
      chosen = { lookup: walk.publicSuffixLookup, source: 'public-suffix' };
  }

  const failed = walk.lookups.filter((lookup) => lookup.outcome === 'failed');
  let view: DmarcDiscoveryView;
  let domainExists: boolean | null = null;
  if (chosen === undefined) {
    view = {
      result: failed.length > 0 ? 'temperror' : 'none',
      organizationalDomain: walk.organizationalDomain,
      lookups: walk.lookups,
      policy: null,
      reason:
        failed.length > 0
          ? `No DMARC record was found, but ${failed.length === 1 ? 'a lookup' : `${failed.length} lookups`} failed`
          : `No DMARC record at any of the ${walk.lookups.length} names of the tree walk`,
    };
  } else {
    const { policy, exists, existsDns, reason } = await policyFrom(
      chosen.lookup,
      chosen.source,
      domain,
      dns,
      'RFC 9989',
    );
    domainExists = exists;
    view = {
      result: policy === null ? 'none' : 'policy',
      organizationalDomain: walk.organizationalDomain,
      lookups: walk.lookups,
      policy,
      ...(reason === undefined ? {} : { reason }),
    };
    if (policy !== null) diagnostics.push(policyDiagnostic(domain, policy, walk, exists, existsDns));
    if (exists === null && chosen.source !== 'author' && existsDns !== undefined) {
      diagnostics.push({
        severity: 'warning',
        code: 'DMARC_EXISTENCE_UNKNOWN',
        message: `Whether ${domain} exists could not be determined (${existsDns}), which decides between sp and np; the sp policy is shown`,
        rfc: 'RFC 9989 §4.10.1',
        fix: 'Check again in a few minutes: a failed lookup says nothing about the record.',
      });
    }
  }

  if (view.result !== 'policy') {
    diagnostics.push({
      severity: 'error',
      code: view.result === 'temperror' ? 'DMARC_DISCOVERY_TEMPERROR' : 'DMARC_NO_RECORD',
      message:
        view.result === 'temperror'
          ? `No DMARC policy could be determined for ${domain}: ${view.reason}. Receivers that get an answer may find one; try again`
          : `No DMARC policy applies to ${domain}: ${view.reason ?? 'no record was found'}. Receivers apply no DMARC processing (result none)`,
      requirement: 'MUST',
      rfc: 'RFC 9989 §4.10.1',
      fix: `Publish a TXT record at _dmarc.${walk.organizationalDomain === domain ? domain : walk.organizationalDomain}, for example v=DMARC1; p=none; rua=mailto:dmarc-reports@${walk.organizationalDomain}.`,
    });
  }

  // a record at the apex is a common slip: it is never looked at
  if (author !== undefined && author.dmarc.length === 0 && author.outcome !== 'failed') {
    const apex = await dns.txt(domain);
    if (apex.status === 'ok' && apex.records.some((record) => isDmarcRecord(record.text))) {
      diagnostics.push({
        severity: 'warning',
        code: 'DMARC_RECORD_AT_APEX',
        message: `${domain} has a v=DMARC1 record at the domain itself, where receivers never look: a DMARC record only works at _dmarc.${domain}`,
        requirement: 'MUST',
        rfc: 'RFC 9989 §4.5',
        fix: `Move the record to _dmarc.${domain} and delete it from ${domain}.`,
      });
    }
  }

  const rfc7489 = await discoverRfc7489(domain, dns);
  const difference = compareViews(view, rfc7489);
  if (difference !== undefined) {
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_RFC7489_DIFFERENT',
      message: `Receivers still on RFC 7489, which use the Public Suffix List instead of the tree walk, ${difference}`,
      rfc: 'RFC 9989 Appendix C.3',
      fix: 'Publish a record at the Author Domain itself (and use strict alignment) so that both kinds of receiver find the same policy.',
    });
  }

  return {
    ...view,
    domain,
    spec: 'RFC 9989',
    organizationalDomainRule: walk.rule,
    skipped: walk.skipped,
    domainExists,
    record:
      chosen === undefined
        ? null
        : {
            domain: chosen.lookup.domain,
            name: chosen.lookup.name,
            text: chosen.lookup.dmarc[0]!,
            source: chosen.source,
          },
    rfc7489,
    diagnostics,
  };
}

function lookupDiagnostics(lookup: DmarcLookup): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (lookup.outcome === 'multiple') {
    diagnostics.push({
      severity: 'error',
      code: 'DMARC_MULTIPLE_RECORDS',
      message: `${lookup.name} has ${lookup.dmarc.length} DMARC records: receivers discard all of them`,
      requirement: 'MUST',
      rfc: 'RFC 9989 §4.10',
      fix: `Keep exactly one v=DMARC1 record at ${lookup.name}.`,
    });
  }
  if (lookup.outcome === 'failed') {
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_LOOKUP_FAILED',
      message: `The lookup of ${lookup.name} failed (${lookup.dns}); receivers that get an answer may find a different policy`,
      rfc: 'RFC 9989 §4.10.1',
      fix: 'Check again in a few minutes: a failed lookup says nothing about the record.',
    });
  }
  const others = lookup.txt.filter((text) => !isDmarcRecord(text));
  const spf = others.filter((text) => /^v=spf1(?:\s|$)/i.test(text));
  if (spf.length > 0) {
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_SPF_AT_DMARC',
      message: `${lookup.name} has an SPF record (v=spf1), where a DMARC record belongs; receivers ignore it here. This is often the answer of a wildcard (*) TXT record`,
      rfc: 'RFC 9989 §4.10',
      fix: `Remove the SPF record from ${lookup.name}; publish SPF at ${lookup.domain} itself.`,
    });
  }
  if (others.length > spf.length) {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_UNRELATED_TXT',
      message: `${lookup.name} has ${others.length - spf.length} TXT record${others.length - spf.length === 1 ? '' : 's'} that ${others.length - spf.length === 1 ? 'is' : 'are'} not DMARC; receivers discard ${others.length - spf.length === 1 ? 'it' : 'them'}`,
      rfc: 'RFC 9989 §4.10',
    });
  }
  return diagnostics;
}

function policyDiagnostic(
  domain: string,
  policy: DmarcAppliedPolicy,
  walk: DmarcTreeWalk,
  exists: boolean | null,
  existsDns: string | undefined,
): Diagnostic {
  const whose =
    policy.source === 'author'
      ? `its own record at _dmarc.${domain}`
      : policy.source === 'organizational'
        ? `the record of its Organizational Domain ${policy.recordDomain}`
        : `the record of its Public Suffix Domain ${policy.recordDomain} (psd=y)`;
  const why =
    policy.source === 'author'
      ? 'p'
      : exists === false
        ? `${domain} does not exist (${existsDns ?? 'NXDOMAIN'}), so ${policy.tag === 'np' ? 'np' : `np is absent and ${policy.tag}`} applies`
        : `${domain} is a subdomain${exists === true ? ' that exists' : ''}, so ${policy.tag === 'sp' ? 'sp' : 'sp is absent and p'} applies`;
  const organizational =
    walk.rule === 'psd-n'
      ? ` (${walk.organizationalDomain} is the Organizational Domain: its record has psd=n)`
      : walk.rule === 'psd-y'
        ? ` (${walk.organizationalDomain} is the Organizational Domain: the domain below the psd=y record of ${walk.publicSuffixLookup?.domain ?? ''})`
        : '';
  const test = policy.testMode
    ? policy.applied === policy.requested
      ? '; t=y has no effect on none'
      : `; t=y (test mode) lowers it to ${policy.applied} for failing mail`
    : '';
  return {
    severity: 'info',
    code: 'DMARC_POLICY_SOURCE',
    message: `Mail from ${domain} gets ${whose}${organizational}: ${why} → ${policy.requested}${test}`,
    rfc: 'RFC 9989 §4.10.1',
  };
}

function compareViews(current: DmarcDiscoveryView, legacy: DmarcDiscoveryView): string | undefined {
  const describe = (view: DmarcDiscoveryView) =>
    view.policy === null ? 'no policy' : `${view.policy.requested} from _dmarc.${view.policy.recordDomain}`;
  if (current.result === 'temperror' || legacy.result === 'temperror') return undefined;
  const a = current.policy;
  const b = legacy.policy;
  if (a === null && b === null) return undefined;
  if (a === null || b === null || a.recordDomain !== b.recordDomain || a.requested !== b.requested) {
    return `find ${describe(legacy)} (Organizational Domain ${legacy.organizationalDomain}) where RFC 9989 receivers find ${describe(current)} (Organizational Domain ${current.organizationalDomain})`;
  }
  return undefined;
}
