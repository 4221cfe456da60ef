import type { Diagnostic } from '../core/diagnostic.ts';
import type { DnsStatus, DnsTxtRecord, Resolver } from '../core/resolver.ts';
import { normaliseDkimName } from './generate.ts';
import { dkimCommonSelectors } from './selectors.ts';
import { validateDkimRecord, type DkimValidationResult } from './validate.ts';

/** What a key lookup concluded: the record's own status, or why there is no record to judge. */
export type DkimDnsStatus = 'valid' | 'invalid' | 'revoked' | 'not-found' | 'error';

export interface DkimDnsCname {
  name: string;
  target: string;
  ttl: number;
}

/** The result of looking up one key record (`POST /v1/dkim/dns`). */
export interface DkimDnsResult {
  /** `selector._domainkey.domain`. */
  dnsName: string;
  /** Seconds the key record may be cached (the smallest TTL of the record and the CNAMEs followed); `null` when no record was found. */
  ttl: number | null;
  /** The key record's TXT data, its character-strings joined; `null` when none was found. */
  record: string | null;
  /** The character-strings of that record as served. */
  strings: string[];
  /** Every TXT record at the name, joined, in the order served. */
  txtRecords: string[];
  /** Where the record lives: `dnsName` unless CNAMEs delegate it (to a mail provider, usually). */
  canonicalName: string;
  /** The CNAME chain followed from `dnsName`. */
  cnames: DkimDnsCname[];
  /** The DNS outcome: `ok`, `nxdomain`, `nodata`, `servfail`, `timeout` or `error`. */
  lookup: DnsStatus;
  /** The key record's validation; `null` when there was no single record to validate. */
  validation: DkimValidationResult | null;
  status: DkimDnsStatus;
  valid: boolean;
  /** Findings of the lookup followed by those of the record's validation. */
  issues: Diagnostic[];
}

export type DkimDnsOutcome = { ok: true; result: DkimDnsResult } | { ok: false; error: string };

/** A TXT record that looks like a DKIM key record rather than site verification or SPF text. */
export function looksLikeDkimKeyRecord(text: string): boolean {
  return /^\s*v\s*=\s*DKIM1\b/i.test(text) || /(^|;)\s*[kp]\s*=/.test(text);
}

/** A TXT record beside the key record at a selector name (RFC 6376 §3.6.2.2). */
export function otherTxtDiagnostic(name: string, text: string): Diagnostic {
  return {
    severity: 'warning',
    code: 'DKIM_DNS_OTHER_TXT',
    message: `${name} has another TXT record beside the key record: '${text.slice(0, 60)}${text.length > 60 ? '…' : ''}'. Verifiers that take the first record served fail when it comes first`,
    requirement: 'MUST',
    rfc: 'RFC 6376 §3.6.2.2',
    fix: 'Keep only the key record at this name; publish other TXT data elsewhere.',
  };
}

/** The strings written as zone-file character-strings, so the validator counts and joins them as DNS did. */
function presentation(strings: readonly string[]): string {
  return strings.map((s) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(' ');
}

/** Checks the domain and selector a caller typed; the message names the bad one. */
export function dkimDnsName(
  domainInput: string,
  selectorInput: string,
): { ok: true; domain: string; selector: string; dnsName: string } | { ok: false; error: string } {
  const domain = normaliseDkimName(domainInput);
  if (!domain) return { ok: false, error: `'${domainInput.trim().slice(0, 80)}' is not a valid domain name` };
  // a pasted full name (`s1._domainkey.example.com`) keeps only the selector part
  const selectorText = selectorInput.trim().replace(/\._domainkey(\..*)?$/i, '');
  const selector = normaliseDkimName(selectorText);
  if (!selector) {
    return {
      ok: false,
      error: `'${selectorInput.trim().slice(0, 80)}' is not a valid selector: use letters, digits, hyphens and dots`,
    };
  }
  const dnsName = `${selector}._domainkey.${domain}`;
  if (dnsName.length > 253)
    return { ok: false, error: `${dnsName.slice(0, 40)}… is longer than 253 characters` };
  return { ok: true, domain, selector, dnsName };
}

/**
 * Looks up the key record at `selector._domainkey.domain` (RFC 6376 §3.6.2.1) and validates it.
 * Tells a name that does not exist from one without TXT data and from a failed lookup, follows and
 * reports CNAME delegation, ignores TXT records that are not key records (with a note), and treats
 * several key records at one name as an error: verifiers may pick any of them (RFC 6376 §3.6.2.2).
 */
export async function lookupDkimKey(
  input: { domain: string; selector: string },
  resolver: Resolver,
): Promise<DkimDnsOutcome> {
  const name = dkimDnsName(input.domain, input.selector);
  if (!name.ok) return name;
  const { dnsName } = name;
  const answer = await resolver.query(dnsName, 'TXT');
  const issues: Diagnostic[] = [];
  const cnames =
    'cnames' in answer
      ? answer.cnames.map(({ name: from, target, ttl }) => ({ name: from, target, ttl }))
      : [];
  const canonicalName = 'canonicalName' in answer ? answer.canonicalName : dnsName;
  if (cnames.length > 0) {
    issues.push({
      severity: 'info',
      code: 'DKIM_DNS_CNAME',
      message: `${dnsName} is delegated by CNAME to ${canonicalName}: whoever runs that name publishes and rotates the key`,
      rfc: 'RFC 6376 §3.6.2.1',
    });
  }
  const base = {
    dnsName,
    canonicalName,
    cnames,
    lookup: answer.status,
    strings: [] as string[],
    txtRecords: [] as string[],
  };

  // no record, so no TTL: a negative answer's caching time (RFC 2308 §5) is not the key's
  const empty = (status: DkimDnsStatus, issue: Diagnostic): DkimDnsResult => ({
    ...base,
    ttl: null,
    record: null,
    validation: null,
    status,
    valid: false,
    issues: [...issues, issue],
  });

  switch (answer.status) {
    case 'nxdomain':
      return {
        ok: true,
        result: empty('not-found', {
          severity: 'error',
          code: 'DKIM_DNS_NXDOMAIN',
          message: `${answer.cnames.length > 0 ? canonicalName : dnsName} does not exist (NXDOMAIN): no key is published under this selector`,
          rfc: 'RFC 6376 §6.1.2',
          fix: 'Check the selector against the s= tag of a signed message, and publish the key record at this name.',
        }),
      };
    case 'nodata':
      return {
        ok: true,
        result: empty('not-found', {
          severity: 'error',
          code: 'DKIM_DNS_NODATA',
          message: `${canonicalName} exists but has no TXT record: no key is published under this selector`,
          rfc: 'RFC 6376 §6.1.2',
          fix: 'Publish the key record as a TXT record at this name.',
        }),
      };
    case 'servfail':
    case 'timeout':
    case 'error':
      return {
        ok: true,
        result: empty('error', {
          severity: 'error',
          code:
            answer.status === 'servfail'
              ? 'DKIM_DNS_SERVFAIL'
              : answer.status === 'timeout'
                ? 'DKIM_DNS_TIMEOUT'
                : 'DKIM_DNS_ERROR',
          message: `The lookup of ${dnsName} failed: ${answer.message}. Verifiers treat this as a temporary failure`,
          rfc: 'RFC 6376 §6.1.2',
          fix: "Try again later; if it persists, check the domain's name servers.",
        }),
      };
    case 'ok':
      // the TXT records are read below
      break;
  }

  const txt: DnsTxtRecord[] = answer.records;
  const txtRecords = txt.map((record) => record.text);
  const keyRecords = txt.filter((record) => looksLikeDkimKeyRecord(record.text));
  const ignored = keyRecords.length > 0 ? txt.filter((record) => !keyRecords.includes(record)) : [];
  // RFC 6376 §3.6.2.2: TXT records at a selector name MUST be unique, or the result is undefined;
  // dkimpy and mailauth take the first record served, and DNS does not keep the order
  for (const record of ignored) issues.push(otherTxtDiagnostic(canonicalName, record.text));
  const candidates = keyRecords.length > 0 ? keyRecords : txt;
  if (candidates.length > 1) {
    return {
      ok: true,
      result: {
        ...base,
        txtRecords,
        ttl: answer.ttl,
        record: null,
        validation: null,
        status: 'invalid',
        valid: false,
        issues: [
          ...issues,
          {
            severity: 'error',
            code: 'DKIM_DNS_MULTIPLE_RECORDS',
            message: `${canonicalName} has ${candidates.length} key records: verifiers may use any one of them, so signatures fail unpredictably`,
            rfc: 'RFC 6376 §3.6.2.2',
            fix: 'Publish one key record per selector; put a new key under a new selector.',
          },
        ],
      },
    };
  }
  const [chosen] = candidates as [DnsTxtRecord];
  const validation = validateDkimRecord(
    chosen.strings.length === 1 && !/["\\]/.test(chosen.text) ? chosen.text : presentation(chosen.strings),
  );
  const status: DkimDnsStatus = validation.parsed?.status ?? 'invalid';
  return {
    ok: true,
    result: {
      ...base,
      strings: chosen.strings,
      txtRecords,
      ttl: answer.ttl,
      record: chosen.text,
      validation,
      status,
      valid: status === 'valid',
      issues: [...issues, ...validation.diagnostics],
    },
  };
}

/** One selector that has a key record. */
export interface DkimSelectorFound {
  selector: string;
  dnsName: string;
  /** Where the common-selector list says the name comes from. */
  source: string;
  status: 'valid' | 'invalid' | 'revoked';
  /** k= of the record (rsa unless given). */
  keyType: string | null;
  /** RSA modulus bits, or 256 for Ed25519; `null` when unreadable or revoked. */
  keySize: number | null;
  /** Where a CNAME delegated the name, or `null`. */
  delegatedTo: string | null;
}

/** The result of probing the common selectors (`POST /v1/dkim/selectors`). */
export interface DkimSelectorDiscovery {
  domain: string;
  /** How many selectors were asked for. */
  probed: number;
  found: DkimSelectorFound[];
  /** Lookups that failed (SERVFAIL, timeout …): the selector may or may not exist. */
  failed: { selector: string; message: string }[];
  /** Selectors left unasked when the time budget ran out. */
  unchecked: string[];
}

export interface DkimSelectorDiscoveryOptions {
  /** Selectors to probe; default {@link dkimCommonSelectors}. */
  selectors?: readonly { selector: string; source: string }[];
  /** Lookups in flight at once; default 8. */
  concurrency?: number;
  /** Overall time after which no further lookup starts and the result is returned; default 8000 ms. */
  budgetMs?: number;
}

/**
 * Probes a list of selectors under `domain` in parallel (bounded concurrency, overall budget) and
 * lists those that publish a key record, with key type and size. Only a guess: DKIM has no way to
 * enumerate a domain's selectors, so a key under any other name is not found.
 */
export async function discoverDkimSelectors(
  domainInput: string,
  resolver: Resolver,
  options: DkimSelectorDiscoveryOptions = {},
): Promise<{ ok: true; result: DkimSelectorDiscovery } | { ok: false; error: string }> {
  const domain = normaliseDkimName(domainInput);
  if (!domain) return { ok: false, error: `'${domainInput.trim().slice(0, 80)}' is not a valid domain name` };
  const list = options.selectors ?? dkimCommonSelectors;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const budgetMs = options.budgetMs ?? 8000;

  const found: (DkimSelectorFound | undefined)[] = [];
  const failed: (DkimSelectorDiscovery['failed'][number] | undefined)[] = [];
  const done = new Set<number>();
  let next = 0;
  let expired = false;

  const probe = async (index: number): Promise<void> => {
    const entry = list[index]!;
    const outcome = await lookupDkimKey({ domain, selector: entry.selector }, resolver);
    if (expired) return;
    done.add(index);
    if (!outcome.ok) {
      failed[index] = { selector: entry.selector, message: outcome.error };
      return;
    }
    const { result } = outcome;
    if (result.status === 'error') {
      failed[index] = { selector: entry.selector, message: result.issues.at(-1)?.message ?? 'lookup failed' };
    } else if (result.status !== 'not-found') {
      const parsed = result.validation?.parsed;
      found[index] = {
        selector: entry.selector,
        dnsName: result.dnsName,
        source: entry.source,
        status: result.status,
        keyType: parsed?.keyType ?? null,
        keySize: parsed?.keySize ?? null,
        delegatedTo: result.cnames.length > 0 ? result.canonicalName : null,
      };
    }
  };
  const worker = async (): Promise<void> => {
    while (!expired && next < list.length) await probe(next++);
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      expired = true;
      resolve();
    }, budgetMs);
  });
  const workers = Array.from({ length: Math.min(concurrency, list.length) }, worker);
  await Promise.race([Promise.all(workers), deadline]);
  clearTimeout(timer);
  expired = true;

  return {
    ok: true,
    result: {
      domain,
      probed: list.length,
      found: found.filter((entry) => entry !== undefined),
      failed: failed.filter((entry) => entry !== undefined),
      unchecked: list.filter((_, index) => !done.has(index)).map((entry) => entry.selector),
    },
  };
}
