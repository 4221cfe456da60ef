/**
 * The SPF linter: a domain's record (or a pasted one, as if published there) with its whole
 * include/redirect tree, the DNS lookups it costs against the limits of RFC 7208 §4.6.4, the
 * networks it authorises and a verdict. Unlike check_host() it evaluates no client address: it asks
 * what every reachable term would ask, one tree depth at a time, all names of a depth in parallel.
 */
import type { Diagnostic } from '../core/diagnostic.ts';
import { overlayResolver } from '../core/fixture-resolver.ts';
import {
  isTemporaryDnsFailure,
  type DnsRecordType,
  type DnsResult,
  type Resolver,
} from '../core/resolver.ts';
import { correctSpfRecord } from './correct.ts';
import { isCheckableDomain } from './evaluate.ts';
import { formatIp, networkAddress, parseAnswerAddress } from './ip.ts';
import { parseSpfRecord } from './parse.ts';
import {
  isLookupTerm,
  SPF_LOOKUP_LIMIT,
  SPF_MX_NAME_LIMIT,
  SPF_VOID_LOOKUP_LIMIT,
  type SpfMechanism,
  type SpfQualifier,
  type SpfRecord,
  type SpfTerm,
} from './record.ts';
import { selectSpfRecords } from './record-selection.ts';
import type { SpfVerifyResultData } from './schema.ts';

export type SpfLintResult = SpfVerifyResultData;
export type SpfLintNode = SpfLintResult['tree'][number];
export type SpfLintTerm = SpfLintNode['terms'][number];
export type SpfLintNetwork = SpfLintResult['networks']['entries'][number];

export interface SpfLintInput {
  /** Empty with a pasted record: the record is linted on its own (see `standalone` below). */
  domain: string;
  /** A record to lint as if it were the domain's only TXT record. */
  record?: string;
}

/** What a term that names the record's own domain says when no domain was given. */
export const SPF_NEEDS_DOMAIN_MESSAGE =
  'uses the domain the record is published at (RFC 7208 §4.8): enter the domain to resolve it';

export interface SpfLintOptions {
  resolver: Resolver;
  /** Time for the whole lint; lookups still open then are reported as temperror. Default 20000. */
  timeoutMs?: number;
}

/**
 * Past this many lookups the record already fails several times over; fetching further only makes
 * a hostile or broken tree cost more queries, so deeper includes are listed but not fetched.
 */
const FETCH_LOOKUP_CAP = SPF_LOOKUP_LIMIT * 4;
/** Nodes in one tree at most, for the same reason (a wide diamond of includes grows fast). */
const MAX_NODES = 120;

const STALE_NOTE =
  'A flattened record is a snapshot: providers change their networks without notice, so a flattened record goes stale and starts failing legitimate mail. Prefer include: and keep to 10 lookups, or re-flatten automatically.';

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

function cidr(ip: ReturnType<typeof parseAnswerAddress>, prefix: number): string | undefined {
  if (ip === undefined) return undefined;
  return `${formatIp(networkAddress(ip, prefix))}/${prefix}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** How a node is named in messages: its domain, or the pasted record when it was given none. */
function nameOf(node: SpfLintNode): string {
  return node.domain === '' ? 'the pasted record' : node.domain;
}

/** What a lookup yields for the lint: failure, void, or the answer. */
function isVoid(result: DnsResult): boolean {
  return (
    result.status === 'nxdomain' ||
    result.status === 'nodata' ||
    (result.status === 'ok' && result.records.length === 0)
  );
}

interface Work {
  node: SpfLintNode;
  /** Domains on the path from the root to this node, itself included (loops are per branch). */
  path: readonly string[];
}

/** Lints a domain's SPF record and everything it includes (RFC 7208 §4-§6, §4.6.4 limits). */
export async function lintSpf(input: SpfLintInput, options: SpfLintOptions): Promise<SpfLintResult> {
  const domain = normalizeName(input.domain);
  const pasted = input.record !== undefined && input.record.trim() !== '';
  // A pasted record without a domain: include, redirect, exists and a:/mx: targets name their own
  // domains and are resolved; only the terms that mean "the domain itself" are left unresolved.
  const standalone = pasted && domain === '';
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  const base =
    pasted && isCheckableDomain(domain)
      ? overlayResolver({ [domain]: { TXT: [input.record!.trim()] } }, options.resolver)
      : options.resolver;

  // One lint asks each (name, type) once, however often the tree names it.
  const asked = new Map<string, Promise<DnsResult>>();
  const ask = <T extends DnsRecordType>(name: string, type: T): Promise<DnsResult<T>> => {
    const key = `${type} ${name}`;
    let pending = asked.get(key);
    if (pending === undefined) {
      pending = queryBefore(base, name, type, deadline);
      asked.set(key, pending);
    }
    return pending as Promise<DnsResult<T>>;
  };

  const tree: SpfLintNode[] = [];
  const addressWork: Promise<void>[] = [];
  let fetchedLookups = 0;

  const newNode = (
    name: string,
    via: SpfLintNode['via'],
    parent?: SpfLintNode,
    viaTerm?: string,
  ): SpfLintNode => {
    const node: SpfLintNode = {
      id: tree.length,
      depth: parent === undefined ? 0 : parent.depth + 1,
      domain: name,
      via,
      status: 'ok',
      pasted: false,
      terms: [],
      lookups: 0,
      ownLookups: 0,
      voidLookups: 0,
      children: [],
      errors: [],
      diagnostics: [],
    };
    if (parent !== undefined) {
      node.parent = parent.id;
      parent.children.push(node.id);
    }
    if (viaTerm !== undefined) node.viaTerm = viaTerm;
    tree.push(node);
    return node;
  };

  const root = newNode(domain, 'root');
  let level: Work[] = [];
  if (standalone) {
    level = [{ node: root, path: [] }];
  } else if (!isCheckableDomain(domain)) {
    root.status = 'none';
    root.errors.push(`'${input.domain.trim()}' is not a domain name that can hold an SPF record`);
    root.diagnostics.push({
      severity: 'error',
      code: 'SPF_DOMAIN_INVALID',
      message: `'${input.domain.trim()}' is not a valid domain name (at least two labels of 1-63 octets, no spaces)`,
      rfc: 'RFC 7208 §4.3',
      fix: 'Enter a domain such as example.com.',
    });
  } else {
    level = [{ node: root, path: [domain] }];
  }

  while (level.length > 0) {
    const next: Work[][] = await Promise.all(
      level.map(async (work) => {
        const children = await fetchRecord(work, pasted && work.node.id === 0);
        return children;
      }),
    );
    level = next.flat();
  }
  await Promise.all(addressWork);

  async function fetchRecord(work: Work, isPasted: boolean): Promise<Work[]> {
    const { node } = work;
    node.pasted = isPasted;
    if (standalone && node.id === 0) return readRecords(work, [[input.record!.trim()]]);
    if (!isCheckableDomain(node.domain)) {
      node.status = 'none';
      node.errors.push(`'${node.domain}' is not a valid domain name, so it has no SPF record: permerror`);
      return [];
    }
    const txt = await ask(node.domain, 'TXT');
    if (isTemporaryDnsFailure(txt)) {
      node.status = 'temperror';
      node.errors.push(`the TXT lookup of ${node.domain} failed (${txt.message}): temperror`);
      return [];
    }
    if (txt.status === 'nxdomain') {
      node.status = 'nxdomain';
      node.voidLookups = node.via === 'root' ? 0 : 1;
      node.errors.push(
        node.via === 'root'
          ? `${node.domain} does not exist (NXDOMAIN): SPF result none`
          : `${node.domain} does not exist (NXDOMAIN): the ${node.via} is a permerror`,
      );
      return [];
    }
    if (txt.status !== 'ok' && node.via !== 'root') node.voidLookups = 1;
    return readRecords(work, txt.status === 'ok' ? txt.records.map((r) => r.strings) : []);
  }

  /** The node's TXT records (as strings): the one SPF record among them, parsed, and its terms. */
  function readRecords(work: Work, records: string[][]): Work[] {
    const { node } = work;
    const selection = selectSpfRecords(node.domain, records);
    if (selection.records.length === 0) {
      node.status = 'none';
      node.errors.push(
        node.via === 'root'
          ? `${nameOf(node)} has no SPF record: SPF result none`
          : `${node.domain} has no SPF record: the ${node.via} is a permerror (RFC 7208 §5.2, §6.1)`,
      );
      node.diagnostics.push(...selection.diagnostics);
      return [];
    }
    if (selection.records.length > 1) {
      node.status = 'multiple';
      node.errors.push(`${node.domain} has ${selection.records.length} SPF records: permerror`);
      node.diagnostics.push(...selection.diagnostics);
      return [];
    }
    const text = selection.records[0] ?? '';
    node.record = text;
    const parsed = parseSpfRecord(text);
    node.diagnostics.push(
      ...selection.diagnostics.filter((d) => d.code !== 'SPF_NO_RECORD'),
      ...parsed.diagnostics,
    );
    const record = parsed.record;
    if (record === undefined) return [];
    if (record.permerror) {
      node.status = 'invalid';
      node.errors.push(`the record of ${nameOf(node)} has a syntax error: permerror`);
    }
    return readTerms(work, record);
  }

  function readTerms(work: Work, record: SpfRecord): Work[] {
    const { node } = work;
    const children: Work[] = [];
    const reachableEnd = record.all === undefined ? record.terms.length : record.all.index + 1;
    for (const term of record.terms) {
      // redirect is used only when no all ends the record first (RFC 7208 §6.1)
      const reachable =
        term.type === 'modifier' && term.kind === 'redirect'
          ? record.all === undefined && record.redirect === term
          : term.index < reachableEnd;
      const lint = lintTerm(term, reachable);
      node.terms.push(lint);
      if (!reachable || node.status === 'invalid') continue;
      if (isLookupTerm(term)) {
        lint.lookups = 1;
        node.ownLookups += 1;
        fetchedLookups += 1;
      }
      const spec = term.type === 'invalid' ? undefined : term.domainSpec;
      const needsDomain = node.domain === '' && spec === undefined && term.type !== 'invalid';
      const target =
        spec === undefined
          ? needsDomain
            ? undefined
            : node.domain
          : spec.hasMacros
            ? undefined
            : normalizeName(spec.text);
      if (needsDomain && isLookupTerm(term)) {
        lint.message = SPF_NEEDS_DOMAIN_MESSAGE;
        node.diagnostics.push({
          severity: 'info',
          code: 'SPF_DOMAIN_NEEDED',
          message: `${term.text}: not resolved, it ${SPF_NEEDS_DOMAIN_MESSAGE}`,
          rfc: 'RFC 7208 §4.8',
          fix: 'Enter the domain the record is for to count its void lookups and list its addresses.',
          span: term.span,
        });
      }
      if (spec?.hasMacros === true) {
        lint.dynamic = true;
        lint.target = spec.text;
        if (isLookupTerm(term) || (term.type === 'modifier' && term.kind === 'redirect')) {
          lint.message =
            'the target holds macros: it is known only for a given message, so it is not fetched';
        }
      } else if (
        target !== undefined &&
        (isLookupTerm(term) || (term.type === 'modifier' && term.kind !== 'unknown'))
      ) {
        lint.target = target;
      }
      if (term.type === 'modifier' && term.kind === 'redirect') {
        children.push(...follow(work, term.text, 'redirect', target ?? spec?.text ?? '', lint));
        continue;
      }
      if (term.type !== 'mechanism') continue;
      switch (term.name) {
        case 'include':
          children.push(...follow(work, term.text, 'include', target ?? spec?.text ?? '', lint));
          break;
        case 'a':
        case 'mx':
          if (target !== undefined) addressWork.push(resolveAddresses(node, term, lint, target));
          break;
        case 'exists':
          if (target !== undefined) addressWork.push(resolveExists(node, lint, target));
          break;
        case 'ptr':
          lint.message =
            "ptr asks the client address's PTR names: it depends on each message and is slow and unreliable";
          break;
        case 'ip4':
        case 'ip6':
          if (term.network !== undefined) {
            lint.addresses = [
              `${formatIp(networkAddress(term.network.address, term.network.prefix))}/${term.network.prefix}`,
            ];
          }
          break;
        default:
          break;
      }
    }
    return children;
  }

  function follow(
    work: Work,
    termText: string,
    via: 'include' | 'redirect',
    target: string,
    lint: SpfLintTerm,
  ): Work[] {
    if (fetchedLookups > FETCH_LOOKUP_CAP || tree.length >= MAX_NODES) {
      lint.message = `not fetched: the tree already needs more than ${FETCH_LOOKUP_CAP} lookups`;
      return [];
    }
    const child = newNode(target, via, work.node, termText);
    lint.child = child.id;
    if (lint.dynamic) {
      child.status = 'dynamic';
      return [];
    }
    if (work.path.includes(target)) {
      child.status = 'loop';
      child.errors.push(
        `${target} is already on this branch (${[...work.path, target].join(' → ')}): evaluation loops until the lookup limit, permerror`,
      );
      return [];
    }
    return [{ node: child, path: [...work.path, target] }];
  }

  async function resolveAddresses(node: SpfLintNode, term: SpfMechanism, lint: SpfLintTerm, target: string) {
    const prefix4 = term.ip4Cidr ?? 32;
    const prefix6 = term.ip6Cidr ?? 128;
    let hosts = [target];
    if (term.name === 'mx') {
      const mx = await ask(target, 'MX');
      if (isTemporaryDnsFailure(mx)) {
        lint.message = `the MX lookup of ${target} failed (${mx.message}): temperror when evaluated`;
        termProblem(node, lint, 'SPF_LOOKUP_TEMPERROR', lint.message);
        return;
      }
      if (isVoid(mx) || mx.status !== 'ok') {
        lint.voidLookups += 1;
        lint.message = `${target} has no MX record: a void lookup that matches nothing`;
        return;
      }
      const exchanges = mx.records
        .filter((r) => r.exchange !== '' && r.exchange !== '.')
        .map((r) => r.exchange);
      if (exchanges.length > SPF_MX_NAME_LIMIT) {
        termProblem(
          node,
          lint,
          'SPF_MX_TOO_MANY',
          `${target} has ${exchanges.length} MX names; more than ${SPF_MX_NAME_LIMIT} is a permerror`,
        );
      }
      hosts = exchanges.slice(0, SPF_MX_NAME_LIMIT);
    }
    const found: string[] = [];
    let failed = '';
    await Promise.all(
      hosts.map(async (host) => {
        const [a, aaaa] = await Promise.all([ask(host, 'A'), ask(host, 'AAAA')]);
        let any = false;
        for (const result of [a, aaaa]) {
          if (isTemporaryDnsFailure(result)) failed ||= `${host} ${result.type}: ${result.message}`;
          if (result.status !== 'ok') continue;
          for (const record of result.records) {
            const ip = parseAnswerAddress(record.address);
            const network = cidr(ip, ip?.version === 4 ? prefix4 : prefix6);
            if (network !== undefined) {
              any = true;
              found.push(network);
            }
          }
        }
        if (!any && failed === '') lint.voidLookups += 1;
      }),
    );
    lint.addresses = [...new Set(found)];
    if (failed !== '') {
      lint.message = `a lookup failed (${failed}): temperror when evaluated`;
      termProblem(node, lint, 'SPF_LOOKUP_TEMPERROR', lint.message);
    } else if (found.length === 0) {
      lint.message = `${term.name === 'mx' ? 'the MX hosts of ' : ''}${target} ha${term.name === 'mx' ? 've' : 's'} no address: the term matches nothing`;
    }
  }

  async function resolveExists(node: SpfLintNode, lint: SpfLintTerm, target: string) {
    const a = await ask(target, 'A');
    if (isTemporaryDnsFailure(a)) {
      lint.message = `the A lookup of ${target} failed (${a.message}): temperror when evaluated`;
      termProblem(node, lint, 'SPF_LOOKUP_TEMPERROR', lint.message);
    } else if (isVoid(a)) {
      lint.voidLookups += 1;
      lint.message = `${target} has no A record: exists does not match (a void lookup)`;
    } else {
      lint.message = `${target} has an A record: exists matches every client`;
    }
  }

  return summarize(domain, tree, pasted ? input.record!.trim() : undefined);
}

const TEMPERROR_CODES = new Set(['SPF_TEMPERROR', 'SPF_INCLUDE_TEMPERROR', 'SPF_LOOKUP_TEMPERROR']);

/** A lookup problem of one term (not a tree node): an error of the node, at the term's span. */
function termProblem(node: SpfLintNode, term: SpfLintTerm, code: string, message: string): void {
  node.errors.push(`${term.text}: ${message}`);
  node.diagnostics.push({
    severity: 'error',
    code,
    message: `${term.text}: ${message}`,
    rfc: code === 'SPF_MX_TOO_MANY' ? 'RFC 7208 §4.6.4' : 'RFC 7208 §5',
    fix:
      code === 'SPF_MX_TOO_MANY'
        ? 'Point mx at a domain with at most 10 MX hosts, or list the networks with ip4/ip6.'
        : 'The name did not answer; check its name servers and try again.',
    span: term.span,
  });
}

function lintTerm(term: SpfTerm, reachable: boolean): SpfLintTerm {
  const out: SpfLintTerm = {
    index: term.index,
    text: term.text,
    span: term.span,
    kind: term.type,
    name: term.type === 'invalid' ? '' : term.name,
    lookups: 0,
    voidLookups: 0,
    reachable,
    dynamic: false,
  };
  if (term.type === 'mechanism') out.qualifier = term.qualifier;
  if (!reachable) {
    out.message =
      term.type === 'modifier' && term.kind === 'redirect'
        ? 'ignored: the record has an all mechanism, which ends evaluation first'
        : 'never evaluated: it comes after all';
  }
  return out;
}

/** A query that gives up at the deadline, and never rejects. */
async function queryBefore<T extends DnsRecordType>(
  resolver: Resolver,
  name: string,
  type: T,
  deadline: number,
): Promise<DnsResult<T>> {
  const left = deadline - Date.now();
  const timedOut = (message: string): DnsResult<T> => ({
    status: 'timeout',
    reason: 'budget',
    message,
    name,
    type,
    authenticated: false,
  });
  if (left <= 0) return timedOut('the time for the lint ran out');
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      resolver.query(name, type),
      new Promise<DnsResult<T>>((resolve) => {
        timer = setTimeout(() => resolve(timedOut('the time for the lint ran out')), left);
      }),
    ]);
  } catch (cause) {
    return {
      status: 'error',
      error: 'network',
      message: cause instanceof Error ? cause.message : 'the resolver failed',
      name,
      type,
      authenticated: false,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Totals per subtree, the verdict, the top-level diagnostics and the flattened view. */
function summarize(domain: string, tree: SpfLintNode[], pastedRecord: string | undefined): SpfLintResult {
  // children always have larger ids, so one backwards pass sums every subtree
  for (let id = tree.length - 1; id >= 0; id -= 1) {
    const node = tree[id]!;
    const own = node.terms.reduce((sum, t) => sum + t.voidLookups, 0);
    node.voidLookups += own;
    node.lookups = node.ownLookups;
    for (const childId of node.children) {
      const child = tree[childId]!;
      node.lookups += child.lookups;
      node.voidLookups += child.voidLookups;
    }
  }
  const root = tree[0]!;
  const lookups = root.lookups;
  const voidLookups = root.voidLookups;
  const diagnostics: Diagnostic[] = [];

  // The root's own diagnostics keep their spans (they point into the record shown).
  diagnostics.push(...root.diagnostics);
  if (root.status === 'temperror') {
    diagnostics.push({
      severity: 'error',
      code: 'SPF_TEMPERROR',
      message: root.errors[0] ?? `the TXT lookup of ${domain} failed: temperror`,
      rfc: 'RFC 7208 §4.4',
      fix: "Check that the domain's name servers answer; try again later.",
    });
  } else if (root.status === 'nxdomain') {
    diagnostics.push({
      severity: 'error',
      code: 'SPF_NXDOMAIN',
      message: `${domain} does not exist (NXDOMAIN), so it has no SPF record`,
      rfc: 'RFC 7208 §4.3',
      fix: 'Check the spelling of the domain.',
    });
  }
  for (const node of tree.slice(1)) {
    const where = `${node.viaTerm ?? node.domain} (${node.domain})`;
    const failure = node.status === 'ok' ? undefined : node.errors[0];
    if (failure !== undefined) {
      diagnostics.push({
        severity: 'error',
        code:
          node.status === 'loop'
            ? 'SPF_INCLUDE_LOOP'
            : node.status === 'temperror'
              ? 'SPF_INCLUDE_TEMPERROR'
              : node.status === 'none' || node.status === 'nxdomain'
                ? 'SPF_INCLUDE_NO_RECORD'
                : 'SPF_INCLUDE_ERROR',
        message: `${where}: ${failure}`,
        rfc:
          node.status === 'loop'
            ? 'RFC 7208 §4.6.4'
            : node.via === 'redirect'
              ? 'RFC 7208 §6.1'
              : 'RFC 7208 §5.2',
        fix:
          node.status === 'loop'
            ? 'Remove the include or redirect that points back up the chain.'
            : node.status === 'temperror'
              ? 'The target domain did not answer; try again later or remove the term.'
              : `Remove ${node.viaTerm ?? node.domain} or point it at a domain that publishes one SPF record.`,
      });
    }
    if (node.status === 'none' || node.status === 'nxdomain' || node.status === 'multiple') continue;
    for (const d of node.diagnostics) {
      if (d.severity === 'info') continue;
      // a provider's record: the user cannot fix its advice, but its errors break this record too
      diagnostics.push({
        severity: d.severity === 'error' ? 'error' : 'info',
        code: d.code,
        message: `in ${node.domain}: ${d.message}`,
        ...(d.rfc === undefined ? {} : { rfc: d.rfc }),
        ...(d.requirement === undefined ? {} : { requirement: d.requirement }),
        ...(d.fix === undefined ? {} : { fix: d.fix }),
      });
    }
  }
  const rootOwnOver = root.ownLookups > SPF_LOOKUP_LIMIT;
  if (lookups > SPF_LOOKUP_LIMIT && !rootOwnOver) {
    diagnostics.push({
      severity: 'error',
      code: 'SPF_TREE_LOOKUP_LIMIT',
      message: `the record and its includes need ${lookups} DNS lookups; receivers stop with permerror at the ${SPF_LOOKUP_LIMIT + 1}th (${lookupBreakdown(tree)})`,
      requirement: 'MUST',
      rfc: 'RFC 7208 §4.6.4',
      fix: 'Remove includes you no longer use, replace a and mx by ip4/ip6 networks, or ask providers for a narrower include, to stay at 10 or fewer.',
      ...overSpan(root, tree),
    });
  } else if (lookups >= SPF_LOOKUP_LIMIT - 1 && lookups <= SPF_LOOKUP_LIMIT) {
    diagnostics.push({
      severity: 'warning',
      code: 'SPF_LOOKUPS_NEAR_LIMIT',
      message: `the record and its includes need ${lookups} of the ${SPF_LOOKUP_LIMIT} DNS lookups allowed; a provider adding one include breaks it`,
      requirement: 'MUST',
      rfc: 'RFC 7208 §4.6.4',
      fix: 'Leave headroom: remove unused includes or use ip4/ip6 networks.',
    });
  }
  if (voidLookups > SPF_VOID_LOOKUP_LIMIT) {
    diagnostics.push({
      severity: 'error',
      code: 'SPF_VOID_LOOKUP_LIMIT',
      message: `${plural(voidLookups, 'lookup')} in the tree find nothing (NXDOMAIN or no records); receivers return permerror after ${SPF_VOID_LOOKUP_LIMIT}`,
      requirement: 'SHOULD',
      rfc: 'RFC 7208 §4.6.4',
      fix: 'Remove terms that point at names without records.',
    });
  } else if (voidLookups > 0) {
    diagnostics.push({
      severity: 'warning',
      code: 'SPF_VOID_LOOKUP',
      message: `${plural(voidLookups, 'lookup')} in the tree find nothing (NXDOMAIN or no records); more than ${SPF_VOID_LOOKUP_LIMIT} is a permerror`,
      requirement: 'SHOULD',
      rfc: 'RFC 7208 §4.6.4',
      fix: 'Remove terms that point at names without records.',
    });
  }

  const none = root.status === 'none' || root.status === 'nxdomain';
  const failures = diagnostics.filter((d) => d.severity === 'error');
  const permerror = failures.some((d) => !TEMPERROR_CODES.has(d.code));
  const temperror = failures.some((d) => TEMPERROR_CODES.has(d.code));
  const status: SpfLintResult['status'] = none
    ? 'none'
    : permerror
      ? 'permerror'
      : temperror
        ? 'temperror'
        : diagnostics.some((d) => d.severity === 'warning')
          ? 'warnings'
          : 'valid';

  const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
  const warnings = diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);
  const spfRecord = pastedRecord ?? root.record ?? null;
  const correctedRecord = spfRecord === null ? undefined : correctSpfRecord(spfRecord);
  return {
    domain,
    spfRecord,
    status,
    valid: status === 'valid' || status === 'warnings',
    errors,
    warnings,
    diagnostics,
    lookups,
    lookupLimit: SPF_LOOKUP_LIMIT,
    voidLookups,
    voidLookupLimit: SPF_VOID_LOOKUP_LIMIT,
    tree,
    networks: flatten(tree, lookups),
    ...(correctedRecord === undefined ? {} : { correctedRecord }),
  };
}

/** "include:a 3, include:b 5 …" — where the lookups of the root's terms go. */
function lookupBreakdown(tree: SpfLintNode[]): string {
  const root = tree[0]!;
  return root.terms
    .filter((t) => t.lookups > 0)
    .map((t) => `${t.text} ${t.lookups + (t.child === undefined ? 0 : tree[t.child]!.lookups)}`)
    .join(', ');
}

/** The span of the root term whose lookups take the running total past the limit. */
function overSpan(root: SpfLintNode, tree: SpfLintNode[]): { span?: SpfLintTerm['span'] } {
  let total = 0;
  for (const term of root.terms) {
    total += term.lookups + (term.child === undefined ? 0 : tree[term.child]!.lookups);
    if (total > SPF_LOOKUP_LIMIT) return root.pasted || root.record !== undefined ? { span: term.span } : {};
  }
  return {};
}

/** The networks the tree authorises, deduplicated in evaluation order, and a flattened record. */
function flatten(tree: SpfLintNode[], lookups: number): SpfLintResult['networks'] {
  const entries: SpfLintNetwork[] = [];
  const byKey = new Map<string, SpfLintNetwork>();
  const incomplete = new Set<string>();
  let effectiveAll: SpfQualifier | undefined;

  const visit = (node: SpfLintNode, inInclude: boolean) => {
    if (node.status !== 'ok') {
      if (node.id !== 0 || node.status !== 'none') incomplete.add(`${nameOf(node)}: ${node.status}`);
      return;
    }
    for (const term of node.terms) {
      if (!term.reachable) continue;
      if (term.dynamic) incomplete.add(`${term.text} depends on each message (macros)`);
      if (term.name === 'ptr' || term.name === 'exists')
        incomplete.add(`${term.text} cannot be written as networks`);
      if (term.kind === 'mechanism' && term.name === 'all') {
        if (!inInclude) effectiveAll = term.qualifier;
        continue;
      }
      if (
        inInclude &&
        term.qualifier !== undefined &&
        term.qualifier !== '+' &&
        (term.addresses?.length ?? 0) > 0
      ) {
        incomplete.add(`${term.text} in ${node.domain} excludes networks, which depends on term order`);
      }
      for (const network of term.addresses ?? []) {
        const qualifier = term.qualifier ?? '+';
        const key = `${qualifier}${network}`;
        const source = { domain: node.domain, term: term.text };
        const seen = byKey.get(key);
        if (seen !== undefined) {
          seen.sources.push(source);
          continue;
        }
        const entry: SpfLintNetwork = {
          network,
          family: network.includes(':') ? 'ip6' : 'ip4',
          qualifier,
          sources: [source],
        };
        byKey.set(key, entry);
        entries.push(entry);
      }
      if (term.child !== undefined) {
        const child = tree[term.child]!;
        // only a pass from an include matches; a redirect stands in for the record itself
        visit(child, inInclude || child.via === 'include');
      }
    }
  };
  visit(tree[0]!, false);
  if (lookups > SPF_LOOKUP_LIMIT)
    incomplete.add(`the tree needs ${lookups} lookups, so receivers never reach some networks`);

  const pass = entries.filter((e) => e.qualifier === '+');
  const terms = [
    'v=spf1',
    ...pass.map(
      (e) =>
        `${e.family}:${e.network.replace(/\/(32|128)$/, (m, p: string) => ((p === '32' && e.family === 'ip4') || (p === '128' && e.family === 'ip6') ? '' : m))}`,
    ),
  ];
  if (effectiveAll !== undefined) terms.push(`${effectiveAll === '+' ? '' : effectiveAll}all`);
  return {
    entries,
    flattened: terms.join(' '),
    complete: incomplete.size === 0,
    incomplete: [...incomplete],
    note: STALE_NOTE,
  };
}
