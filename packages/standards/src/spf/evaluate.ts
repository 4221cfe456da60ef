/**
 * check_host() (RFC 7208 §4-§6) with an injected Resolver: the seven results, the deciding term,
 * the `exp=` explanation, the processing limits of §4.6.4 and a step-by-step trace.
 */
import type { Span } from '../core/diagnostic.ts';
import {
  isTemporaryDnsFailure,
  type DnsRecordType,
  type DnsResult,
  type DnsStatus,
  type Resolver,
} from '../core/resolver.ts';
import {
  formatIp,
  ipInNetwork,
  parseAnswerAddress,
  parseClientIp,
  reverseName,
  type IpAddress,
} from './ip.ts';
import {
  expandMacroTokens,
  parseMacroString,
  senderParts,
  truncateDomain,
  type MacroValues,
} from './macros.ts';
import { parseSpfRecord } from './parse.ts';
import {
  octets,
  qualifierResults,
  SPF_LOOKUP_LIMIT,
  SPF_MX_NAME_LIMIT,
  SPF_PTR_NAME_LIMIT,
  SPF_VOID_LOOKUP_LIMIT,
  type SpfDomainSpec,
  type SpfMechanism,
  type SpfModifier,
  type SpfResult,
} from './record.ts';
import { isSpfRecord } from './record-selection.ts';

export interface CheckHostInput {
  /** The SMTP client's address, IPv4 or IPv6 (IPv4-mapped IPv6 counts as IPv4). */
  ip: string;
  /** MAIL FROM; empty or absent for the null reverse-path, when `postmaster@<helo>` is checked. */
  sender?: string;
  /** The HELO/EHLO name. */
  helo?: string;
  /** `<domain>`: by default the sender's domain, or the HELO name for a null sender (RFC 7208 §4.1). */
  domain?: string | undefined;
}

export interface CheckHostOptions {
  resolver: Resolver;
  /** Milliseconds since the Epoch for the `%{t}` macro; the clock by default. */
  now?: number;
  /** The checking host's name for the `%{r}` macro; "unknown" by default (RFC 7208 §7.3). */
  receivingHost?: string;
  /** Time for the whole check before it ends in temperror (RFC 7208 §4.6.4: at least 20 s). Default 20000. */
  timeoutMs?: number;
  /** Void lookups allowed (RFC 7208 §4.6.4 recommends 2, the default). */
  voidLookupLimit?: number;
}

/** One DNS query made during the check and what came back. */
export interface SpfTraceQuery {
  name: string;
  type: DnsRecordType;
  status: DnsStatus;
  /** The answer in presentation form: addresses, "10 mx.example.com", TXT text, PTR names. */
  answers: string[];
  /** NXDOMAIN or NOERROR without records: a void lookup (RFC 7208 §4.6.4). */
  void: boolean;
  /** Why the query failed, for servfail, timeout and error. */
  message?: string;
}

/** One step of the check, in order, for a UI to show. */
export interface SpfTraceStep {
  /** 0 for the checked domain's record, 1 inside its include or redirect, and so on. */
  depth: number;
  /** The `<domain>` whose record is being evaluated. */
  domain: string;
  /**
   * `record`: the TXT lookup and record selection; `term`: a mechanism or `redirect` evaluated;
   * `default`: no mechanism matched; `explanation`: the `exp=` lookup after a fail; `macro`: the
   * lookups for the `%{p}` macro.
   */
  kind: 'record' | 'term' | 'default' | 'explanation' | 'macro';
  /** The term as written, with its index and position in its record. */
  term?: string;
  termIndex?: number;
  span?: Span;
  /** The record found (kind `record`). */
  record?: string;
  /** The target name after macro expansion. */
  target?: string;
  queries: SpfTraceQuery[];
  outcome: 'match' | 'no-match' | 'found' | 'result' | 'error' | 'ignored';
  /** The result this step decided, when it decided one. */
  result?: SpfResult;
  message: string;
  /** DNS-querying terms and void lookups counted so far. */
  lookups: number;
  voidLookups: number;
}

/** The term that decided the result and the domain whose record holds it. */
export interface SpfDecidingTerm {
  term: string;
  domain: string;
  index: number;
  span: Span;
  /** The qualifier, for a mechanism. */
  qualifier?: string;
}

export interface CheckHostResult {
  result: SpfResult;
  /** The `exp=` text after a fail, when the domain publishes one that could be fetched (RFC 7208 §6.2). */
  explanation?: string;
  /** The deciding term; absent for none, for the default neutral and for errors outside a term. */
  mechanism?: SpfDecidingTerm;
  /** One sentence on why. */
  reason: string;
  /** The `<domain>` checked and the `<sender>` used. */
  domain: string;
  sender: string;
  lookups: number;
  voidLookups: number;
  trace: SpfTraceStep[];
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** Ends the check with permerror or temperror from anywhere inside it. */
// Not an Error: it is control flow, caught in checkHost(), and a stack trace per throw is costly
class Abort {
  readonly result: 'permerror' | 'temperror';
  readonly message: string;
  readonly term: SpfDecidingTerm | undefined;
  constructor(result: 'permerror' | 'temperror', message: string, term?: SpfDecidingTerm) {
    this.message = message;
    this.result = result;
    this.term = term;
  }
}

interface Outcome {
  result: SpfResult;
  reason: string;
  mechanism?: SpfDecidingTerm;
  explanation?: string;
}

/**
 * Whether a `<domain>` can be checked at all (RFC 7208 §4.3): labels of 1 to 63 octets, at most
 * 253 characters, at least two labels, no spaces or control characters, not a domain literal.
 */
export function isCheckableDomain(domain: string): boolean {
  const name = domain.endsWith('.') ? domain.slice(0, -1) : domain;
  if (name === '' || name.length > 253 || name.startsWith('[')) return false;
  if (/[\p{Cc} ]/u.test(name)) return false;
  const labels = name.split('.');
  return labels.length >= 2 && labels.every((label) => label.length > 0 && octets(label) <= 63);
}

function describeAnswers(result: DnsResult): string[] {
  if (result.status !== 'ok') return [];
  return result.records.map((record) => {
    switch (record.type) {
      case 'A':
      case 'AAAA':
        return record.address;
      case 'MX':
        return `${record.preference} ${record.exchange}`;
      case 'TXT':
        return record.text;
      case 'PTR':
      case 'CNAME':
        return record.target;
      default:
        return record.type;
    }
  });
}

function lower(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

class Evaluation {
  readonly trace: SpfTraceStep[] = [];
  lookups = 0;
  voidLookups = 0;
  private readonly deadline: number;
  private readonly resolver: Resolver;
  private readonly voidLimit: number;
  private validated: Promise<string[]> | undefined;
  private expiry: Promise<'expired'> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly values: Omit<MacroValues, 'domain'>;
  private readonly ip: IpAddress;
  private readonly ipText: string;

  constructor(ip: IpAddress, sender: string, helo: string, options: CheckHostOptions) {
    this.ip = ip;
    this.ipText = formatIp(ip);
    this.resolver = options.resolver;
    this.deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.voidLimit = options.voidLookupLimit ?? SPF_VOID_LOOKUP_LIMIT;
    this.values = {
      sender,
      ip,
      helo,
      ...(options.receivingHost === undefined ? {} : { receivingHost: options.receivingHost }),
      ...(options.now === undefined ? {} : { now: options.now }),
      validatedDomain: () => Promise.resolve('unknown'),
    };
  }

  private step(
    partial: Omit<SpfTraceStep, 'lookups' | 'voidLookups' | 'queries'> & { queries?: SpfTraceQuery[] },
  ) {
    const step: SpfTraceStep = {
      ...partial,
      queries: partial.queries ?? [],
      lookups: this.lookups,
      voidLookups: this.voidLookups,
    };
    this.trace.push(step);
    return step;
  }

  /** Settles when the time for the check runs out; one timer for the whole check. */
  private expiring(): Promise<'expired'> {
    this.expiry ??= new Promise((resolve) => {
      this.timer = setTimeout(() => resolve('expired'), Math.max(0, this.deadline - Date.now()));
    });
    return this.expiry;
  }

  /** Stops the check's timer. */
  finish() {
    clearTimeout(this.timer);
  }

  /** Asks the resolver within the time left; a resolver that throws or hangs gives a failure result. */
  async ask<T extends DnsRecordType>(name: string, type: T, into: SpfTraceQuery[]): Promise<DnsResult<T>> {
    const base = { name, type, authenticated: false } as const;
    const outOfTime: DnsResult<T> = {
      ...base,
      status: 'timeout',
      reason: 'budget',
      message: 'the time for the SPF check ran out',
    };
    let result: DnsResult<T>;
    if (Date.now() >= this.deadline) {
      result = outOfTime;
    } else {
      try {
        const answer = await Promise.race([this.resolver.query(name, type), this.expiring()]);
        result = answer === 'expired' ? outOfTime : answer;
      } catch (cause) {
        result = {
          ...base,
          status: 'error',
          error: 'network',
          message: cause instanceof Error ? cause.message : 'the resolver failed',
        };
      }
    }
    const entry: SpfTraceQuery = {
      name,
      type,
      status: result.status,
      answers: describeAnswers(result),
      void: result.status === 'nxdomain' || result.status === 'nodata',
    };
    if ('message' in result) entry.message = result.message;
    into.push(entry);
    return result;
  }

  /** Counts a DNS-querying term; a message when it is one too many (RFC 7208 §4.6.4). */
  private countLookup(): string | undefined {
    this.lookups++;
    if (this.lookups <= SPF_LOOKUP_LIMIT) return undefined;
    return `this is the ${this.lookups}th term that queries the DNS; the limit is ${SPF_LOOKUP_LIMIT}`;
  }

  /** Counts a void answer (NXDOMAIN or no records); a message when it is one too many. */
  private countVoid(result: DnsResult): string | undefined {
    if (result.status !== 'nxdomain' && result.status !== 'nodata') return undefined;
    this.voidLookups++;
    if (this.voidLookups <= this.voidLimit) return undefined;
    return `${result.name} ${result.type} found nothing, the ${this.voidLookups}th such lookup; the limit is ${this.voidLimit}`;
  }

  private macroValues(domain: string, depth: number): MacroValues {
    return { ...this.values, domain, validatedDomain: () => this.validatedDomain(domain, depth) };
  }

  /** A domain-spec expanded into the name to query (RFC 7208 §4.8, §7.3); the current domain when absent. */
  async target(spec: SpfDomainSpec | undefined, domain: string, depth: number): Promise<string> {
    if (spec === undefined) return domain;
    const expanded = spec.hasMacros
      ? await expandMacroTokens(spec.tokens, this.macroValues(domain, depth))
      : spec.text;
    return truncateDomain(expanded);
  }

  /** The names the client's address maps back to and forward again (RFC 7208 §5.5), at most 10. */
  private validatedNames(domain: string, depth: number): Promise<string[]> {
    this.validated ??= (async () => {
      const queries: SpfTraceQuery[] = [];
      const ptr = await this.ask(reverseName(this.ip), 'PTR', queries);
      const names =
        ptr.status === 'ok' ? ptr.records.slice(0, SPF_PTR_NAME_LIMIT).map((r) => lower(r.target)) : [];
      const checks = await Promise.all(names.map((name) => this.resolvesTo(name, queries)));
      const validated = names.filter((_, i) => checks[i] === true);
      this.step({
        depth,
        domain,
        kind: 'macro',
        queries,
        outcome: 'found',
        message:
          validated.length === 0
            ? `%{p}: no name of ${this.ipText} maps back to it`
            : `%{p}: ${this.ipText} has the validated names ${validated.join(', ')}`,
      });
      return validated;
    })();
    return this.validated;
  }

  /** `%{p}` (RFC 7208 §7.3): the domain itself, else a subdomain of it, else any validated name. */
  private async validatedDomain(domain: string, depth: number): Promise<string> {
    const names = await this.validatedNames(domain, depth);
    const d = lower(domain);
    return names.find((n) => n === d) ?? names.find((n) => n.endsWith(`.${d}`)) ?? names[0] ?? 'unknown';
  }

  /** Whether `name` has an address record equal to the client's; DNS errors count as no (RFC 7208 §5.5). */
  private async resolvesTo(name: string, queries: SpfTraceQuery[]): Promise<boolean> {
    const result = await this.ask(name, this.ip.version === 4 ? 'A' : 'AAAA', queries);
    if (result.status !== 'ok') return false;
    return result.records.some((r) => {
      const address = parseAnswerAddress(r.address);
      return address !== undefined && ipInNetwork(this.ip, address, this.ip.version === 4 ? 32 : 128);
    });
  }

  /**
   * check_host(<ip>, <domain>, <sender>) for one domain. `chain` holds the domains being evaluated
   * above this one (to catch loops); `explain` is false inside include, whose exp= is never used.
   */
  async checkHost(
    domain: string,
    depth: number,
    chain: readonly string[],
    explain: boolean,
  ): Promise<Outcome> {
    if (!isCheckableDomain(domain)) {
      this.step({
        depth,
        domain,
        kind: 'record',
        outcome: 'result',
        result: 'none',
        message: `'${domain}' is not a domain name that can be checked (empty or over-long label, single label, or a literal)`,
      });
      return { result: 'none', reason: `'${domain}' is not a valid multi-label domain name` };
    }
    const queries: SpfTraceQuery[] = [];
    const txt = await this.ask(domain, 'TXT', queries);
    if (isTemporaryDnsFailure(txt) && !invalidName(txt)) {
      const message = `the TXT lookup of ${domain} failed: ${txt.message}`;
      this.step({ depth, domain, kind: 'record', queries, outcome: 'error', result: 'temperror', message });
      throw new Abort('temperror', message);
    }
    // RFC 7208 §4.5; the linter's selectSpfRecords adds the diagnostics, not needed here
    const records = txt.status === 'ok' ? txt.records.map((r) => r.text).filter(isSpfRecord) : [];
    if (records.length === 0) {
      const message =
        txt.status === 'nxdomain'
          ? `${domain} does not exist`
          : txt.status === 'ok'
            ? `${domain} has no TXT record starting with 'v=spf1'`
            : `${domain} has no TXT records`;
      this.step({ depth, domain, kind: 'record', queries, outcome: 'result', result: 'none', message });
      return { result: 'none', reason: message };
    }
    if (records.length > 1) {
      const message = `${domain} has ${records.length} SPF records`;
      this.step({ depth, domain, kind: 'record', queries, outcome: 'error', result: 'permerror', message });
      throw new Abort('permerror', message);
    }
    const text = records[0] ?? '';
    const parsed = parseSpfRecord(text);
    const record = parsed.record;
    if (record === undefined || record.permerror) {
      const first = parsed.diagnostics.find((d) => d.severity === 'error');
      const message = `the record of ${domain} has an error: ${first?.message ?? 'syntax error'}`;
      this.step({
        depth,
        domain,
        kind: 'record',
        record: text,
        queries,
        outcome: 'error',
        result: 'permerror',
        message,
      });
      const bad = record?.terms.find(
        (t) => first?.span !== undefined && t.span.start <= first.span.start && first.span.start < t.span.end,
      );
      throw new Abort(
        'permerror',
        message,
        bad === undefined ? undefined : { term: bad.text, domain, index: bad.index, span: bad.span },
      );
    }
    this.step({
      depth,
      domain,
      kind: 'record',
      record: text,
      queries,
      outcome: 'found',
      message: `${domain}: ${text}`,
    });
    const nextChain = [...chain, lower(domain)];

    for (const mechanism of record.mechanisms) {
      const term: SpfDecidingTerm = {
        term: mechanism.text,
        domain,
        index: mechanism.index,
        span: mechanism.span,
        qualifier: mechanism.qualifier,
      };
      const matched = await this.mechanism(mechanism, term, domain, depth, nextChain);
      if (!matched) continue;
      const result = qualifierResults[mechanism.qualifier];
      const outcome: Outcome = {
        result,
        mechanism: term,
        reason: `${this.ipText} matched '${mechanism.text}' in the record of ${domain}`,
      };
      if (result === 'fail' && explain && record.exp !== undefined) {
        const explanation = await this.explanation(record.exp, domain, depth);
        if (explanation !== undefined) outcome.explanation = explanation;
      }
      return outcome;
    }

    if (record.redirect !== undefined)
      return this.redirect(record.redirect, domain, depth, nextChain, explain);
    this.step({
      depth,
      domain,
      kind: 'default',
      outcome: 'result',
      result: 'neutral',
      message: `no mechanism of ${domain} matched and there is no redirect: the default result is neutral`,
    });
    return {
      result: 'neutral',
      reason: `no mechanism in the record of ${domain} matched ${this.ipText}`,
    };
  }

  private async redirect(
    modifier: SpfModifier,
    domain: string,
    depth: number,
    chain: readonly string[],
    explain: boolean,
  ): Promise<Outcome> {
    const term: SpfDecidingTerm = { term: modifier.text, domain, index: modifier.index, span: modifier.span };
    const overLimit = this.countLookup();
    if (overLimit !== undefined) {
      const place = { depth, domain, kind: 'term' as const, term: modifier.text, termIndex: modifier.index };
      this.step({
        ...place,
        span: modifier.span,
        queries: [],
        outcome: 'error',
        result: 'permerror',
        message: overLimit,
      });
      throw new Abort('permerror', `'${modifier.text}' in ${domain}: ${overLimit}`, term);
    }
    const target = await this.target(modifier.domainSpec, domain, depth);
    const base = {
      depth,
      domain,
      kind: 'term' as const,
      term: modifier.text,
      termIndex: modifier.index,
      span: modifier.span,
      target,
    };
    if (chain.includes(lower(target))) {
      const message = `redirect loop: ${[...chain, lower(target)].join(' → ')}`;
      this.step({ ...base, outcome: 'error', result: 'permerror', message });
      throw new Abort('permerror', message, term);
    }
    this.step({
      ...base,
      outcome: 'match',
      message: `no mechanism matched: the check continues at ${target}`,
    });
    const outcome = await this.checkHost(target, depth + 1, chain, explain);
    if (outcome.result === 'none') {
      const message = `the redirect target ${target} has no SPF record`;
      this.step({ ...base, outcome: 'error', result: 'permerror', message });
      throw new Abort('permerror', message, term);
    }
    return outcome;
  }

  /** Evaluates one mechanism: true for a match; limits and DNS failures end the check. */
  private async mechanism(
    mechanism: SpfMechanism,
    term: SpfDecidingTerm,
    domain: string,
    depth: number,
    chain: readonly string[],
  ): Promise<boolean> {
    const base = {
      depth,
      domain,
      kind: 'term' as const,
      term: mechanism.text,
      termIndex: mechanism.index,
      span: mechanism.span,
    };
    const ipText = this.ipText;
    switch (mechanism.name) {
      case 'all':
        this.step({
          ...base,
          outcome: 'match',
          result: qualifierResults[mechanism.qualifier],
          message: "'all' matches every address",
        });
        return true;
      case 'ip4':
      case 'ip6': {
        const network = mechanism.network;
        const matched = network !== undefined && ipInNetwork(this.ip, network.address, network.prefix);
        const family = this.ip.version === (mechanism.name === 'ip4' ? 4 : 6);
        this.step({
          ...base,
          outcome: matched ? 'match' : 'no-match',
          ...(matched ? { result: qualifierResults[mechanism.qualifier] } : {}),
          message: matched
            ? `${ipText} is in ${mechanism.network?.text ?? ''}`
            : family
              ? `${ipText} is not in ${mechanism.network?.text ?? ''}`
              : `${ipText} is an IPv${this.ip.version} address; ${mechanism.name} only matches IPv${mechanism.name === 'ip4' ? 4 : 6}`,
        });
        return matched;
      }
      default:
        break;
    }

    const queries: SpfTraceQuery[] = [];
    /** Ends the check in an error, with the term's step in the trace. */
    const stop = (result: 'permerror' | 'temperror', message: string, target?: string): never => {
      this.step({
        ...base,
        ...(target === undefined ? {} : { target }),
        queries,
        outcome: 'error',
        result,
        message,
      });
      throw new Abort(result, `'${mechanism.text}' in ${domain}: ${message}`, term);
    };
    const overLimit = this.countLookup();
    if (overLimit !== undefined) stop('permerror', overLimit);
    const target = await this.target(mechanism.domainSpec, domain, depth);
    const record = (matched: boolean, message: string) => {
      this.step({
        ...base,
        target,
        queries,
        outcome: matched ? 'match' : 'no-match',
        ...(matched ? { result: qualifierResults[mechanism.qualifier] } : {}),
        message,
      });
      return matched;
    };
    const failed = (answer: DnsResult) =>
      `the ${answer.type} lookup of ${answer.name} failed: ${'message' in answer ? answer.message : answer.status}`;
    const checkVoid = (answer: DnsResult) => {
      const overVoid = this.countVoid(answer);
      if (overVoid !== undefined) stop('permerror', overVoid, target);
    };
    if (!isQueryableName(target)) {
      // RFC 7208 leaves a target that cannot be a DNS name undefined; like §4.3, it matches nothing
      return record(
        false,
        `'${target}' cannot be looked up (empty or over-long label), so it matches nothing`,
      );
    }
    const addressType = this.ip.version === 4 ? 'A' : 'AAAA';
    const cidr = this.ip.version === 4 ? (mechanism.ip4Cidr ?? 32) : (mechanism.ip6Cidr ?? 128);

    switch (mechanism.name) {
      case 'a': {
        const result = await this.ask(target, addressType, queries);
        if (isTemporaryDnsFailure(result) && !invalidName(result)) stop('temperror', failed(result), target);
        checkVoid(result);
        if (result.status !== 'ok') return record(false, `${target} has no ${addressType} record`);
        const matched = this.inAnswer(result, cidr);
        return record(
          matched,
          matched
            ? `${ipText} is within /${cidr} of an ${addressType} record of ${target}`
            : `${ipText} is not within /${cidr} of the ${addressType} records of ${target}`,
        );
      }
      case 'mx': {
        const mx = await this.ask(target, 'MX', queries);
        if (isTemporaryDnsFailure(mx) && !invalidName(mx)) stop('temperror', failed(mx), target);
        checkVoid(mx);
        if (mx.status !== 'ok') return record(false, `${target} has no MX record`);
        if (mx.records.length > SPF_MX_NAME_LIMIT) {
          stop(
            'permerror',
            `${target} has ${mx.records.length} MX records; at most ${SPF_MX_NAME_LIMIT} may be looked up`,
            target,
          );
        }
        // a null MX (RFC 7505) names no host
        const exchanges = mx.records
          .slice()
          .sort((x, y) => x.preference - y.preference)
          .map((r) => r.exchange)
          .filter((name) => name !== '.' && name !== '');
        const answers = await Promise.all(exchanges.map((name) => this.ask(name, addressType, queries)));
        if (answers.some((a) => this.inAnswer(a, cidr))) {
          return record(true, `${ipText} is within /${cidr} of an address of an MX host of ${target}`);
        }
        const broken = answers.find((a) => isTemporaryDnsFailure(a) && !invalidName(a));
        if (broken !== undefined) stop('temperror', failed(broken), target);
        return record(
          false,
          exchanges.length === 0
            ? `${target} has a null MX: no mail hosts`
            : `${ipText} is not within /${cidr} of the addresses of ${target}'s MX hosts`,
        );
      }
      case 'ptr': {
        const ptr = await this.ask(reverseName(this.ip), 'PTR', queries);
        checkVoid(ptr);
        // a DNS error in the PTR lookup makes the mechanism not match (RFC 7208 §5.5)
        if (ptr.status !== 'ok') return record(false, `${ipText} has no usable PTR record`);
        const suffix = lower(target);
        const names = ptr.records.slice(0, SPF_PTR_NAME_LIMIT).map((r) => lower(r.target));
        const candidates = names.filter((name) => name === suffix || name.endsWith(`.${suffix}`));
        const checks = await Promise.all(candidates.map((name) => this.resolvesTo(name, queries)));
        const validated = candidates.find((_, i) => checks[i] === true);
        return record(
          validated !== undefined,
          validated !== undefined
            ? `${ipText} maps to ${validated}, which maps back to it and is within ${suffix}`
            : candidates.length === 0
              ? `no PTR name of ${ipText} is within ${suffix}`
              : `no PTR name of ${ipText} within ${suffix} maps back to ${ipText}`,
        );
      }
      case 'exists': {
        const result = await this.ask(target, 'A', queries);
        if (isTemporaryDnsFailure(result) && !invalidName(result)) stop('temperror', failed(result), target);
        checkVoid(result);
        const matched = result.status === 'ok' && result.records.length > 0;
        return record(matched, matched ? `${target} has an A record` : `${target} has no A record`);
      }
      case 'include':
        return this.include(mechanism, term, domain, depth, chain, target, queries);
    }
    return false;
  }

  private async include(
    mechanism: SpfMechanism,
    term: SpfDecidingTerm,
    domain: string,
    depth: number,
    chain: readonly string[],
    target: string,
    queries: SpfTraceQuery[],
  ): Promise<boolean> {
    const base = {
      depth,
      domain,
      kind: 'term' as const,
      term: mechanism.text,
      termIndex: mechanism.index,
      span: mechanism.span,
      target,
      queries,
    };
    if (chain.includes(lower(target))) {
      const message = `include loop: ${[...chain, lower(target)].join(' → ')}`;
      this.step({ ...base, outcome: 'error', result: 'permerror', message });
      throw new Abort('permerror', message, term);
    }
    // the include's step comes before the included record's steps and is completed after them
    const step = this.step({ ...base, outcome: 'no-match', message: `evaluating ${target}` });
    let inner: Outcome;
    try {
      inner = await this.checkHost(target, depth + 1, chain, false);
    } catch (caught) {
      if (caught instanceof Abort) {
        Object.assign(step, {
          outcome: 'error',
          result: caught.result,
          message: `${target} gave ${caught.result}, so the include gives ${caught.result}`,
        });
      }
      throw caught;
    }
    switch (inner.result) {
      case 'pass':
        Object.assign(step, {
          outcome: 'match',
          result: qualifierResults[mechanism.qualifier],
          message: `${target} gave pass, so the include matches`,
        });
        return true;
      case 'fail':
      case 'softfail':
      case 'neutral':
        step.message = `${target} gave ${inner.result}, so the include does not match`;
        return false;
      default: {
        const message = `the included domain ${target} has no SPF record`;
        Object.assign(step, { outcome: 'error', result: 'permerror', message });
        throw new Abort('permerror', message, term);
      }
    }
  }

  private inAnswer(result: DnsResult, cidr: number): boolean {
    if (result.status !== 'ok') return false;
    return result.records.some((r) => {
      if (r.type !== 'A' && r.type !== 'AAAA') return false;
      const address = parseAnswerAddress(r.address);
      return address !== undefined && ipInNetwork(this.ip, address, cidr);
    });
  }

  /** The `exp=` text (RFC 7208 §6.2); any failure means no explanation. Not counted in the limits. */
  private async explanation(exp: SpfModifier, domain: string, depth: number): Promise<string | undefined> {
    const queries: SpfTraceQuery[] = [];
    const target = await this.target(exp.domainSpec, domain, depth);
    const base = {
      depth,
      domain,
      kind: 'explanation' as const,
      term: exp.text,
      termIndex: exp.index,
      span: exp.span,
      target,
      queries,
    };
    if (!isQueryableName(target)) {
      this.step({ ...base, outcome: 'ignored', message: `'${target}' cannot be looked up: no explanation` });
      return undefined;
    }
    const txt = await this.ask(target, 'TXT', queries);
    if (txt.status !== 'ok' || txt.records.length !== 1) {
      const message =
        txt.status === 'ok'
          ? `${target} has ${txt.records.length} TXT records; exactly one is needed, so there is no explanation`
          : `no explanation: ${target} TXT gave ${txt.status}`;
      this.step({ ...base, outcome: 'ignored', message });
      return undefined;
    }
    const text = txt.records[0]?.text ?? '';
    const parsed = parseMacroString(text, 'explanation');
    if (parsed.diagnostics.length > 0) {
      this.step({
        ...base,
        outcome: 'ignored',
        message: `the explanation text is not valid: ${parsed.diagnostics[0]?.message ?? ''}`,
      });
      return undefined;
    }
    const explanation = await expandMacroTokens(parsed.tokens, this.macroValues(domain, depth));
    this.step({ ...base, outcome: 'found', message: `explanation: ${explanation}` });
    return explanation;
  }
}

function invalidName(result: DnsResult): boolean {
  return result.status === 'error' && result.error === 'invalid-name';
}

/** Whether a target name can be put in a query: no empty label, labels up to 63 octets, 253 characters. */
function isQueryableName(name: string): boolean {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  if (trimmed === '' || octets(trimmed) > 253) return false;
  return trimmed.split('.').every((label) => label.length > 0 && octets(label) <= 63);
}

/**
 * check_host() of RFC 7208 §4: whether `ip` may send mail for `domain` (by default the sender's
 * domain, or the HELO name for a null sender). Never throws for a record or a DNS answer, however
 * broken; throws a TypeError when `ip` is not an IP address.
 */
export async function checkHost(input: CheckHostInput, options: CheckHostOptions): Promise<CheckHostResult> {
  const ip = parseClientIp(input.ip);
  if (ip === undefined) throw new TypeError(`'${input.ip}' is not an IPv4 or IPv6 address`);
  const helo = input.helo ?? '';
  const rawSender = input.sender ?? '';
  // RFC 7208 §4.3: a null sender is postmaster@<helo>; a missing local-part is "postmaster"
  const parts = rawSender === '' ? { localPart: 'postmaster', domain: helo } : senderParts(rawSender);
  const sender = `${parts.localPart}@${parts.domain}`;
  const domain = input.domain ?? parts.domain;
  const evaluation = new Evaluation(ip, sender, helo, options);
  let outcome: Outcome;
  try {
    outcome = await evaluation.checkHost(domain, 0, [], true);
  } catch (caught) {
    if (!(caught instanceof Abort)) throw caught;
    outcome = {
      result: caught.result,
      reason: caught.message,
      ...(caught.term === undefined ? {} : { mechanism: caught.term }),
    };
  } finally {
    evaluation.finish();
  }
  return {
    result: outcome.result,
    ...(outcome.explanation === undefined ? {} : { explanation: outcome.explanation }),
    ...(outcome.mechanism === undefined ? {} : { mechanism: outcome.mechanism }),
    reason: outcome.reason,
    domain,
    sender,
    lookups: evaluation.lookups,
    voidLookups: evaluation.voidLookups,
    trace: evaluation.trace,
  };
}
