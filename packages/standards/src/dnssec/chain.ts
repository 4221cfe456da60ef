/**
 * The chain of trust from the root down to one RRset, as a validating stub resolver builds it
 * (RFC 4035 §5): the root's DNSKEY set authenticated by a trust anchor, then for each ancestor of
 * the name a DS set (a secure delegation), a proof that there is none (an insecure delegation or
 * no zone cut), or a proof that the name does not exist; then the answer, its CNAMEs and its
 * denials checked with the keys of the zones they sit in. Every step says what it found, and a
 * failure says why and how to fix it. DNS trouble never throws: it makes the result indeterminate.
 */
import type { CryptoProvider } from '../core/crypto.ts';
import type { Diagnostic, RequirementLevel } from '../core/diagnostic.ts';
import { maxLabelOctets } from '../core/dns-name.ts';
import type {
  DnsDnskeyRecord,
  DnsDsRecord,
  DnsRecord,
  DnsRecordType,
  DnsResult,
  DnsRrsigRecord,
  DnsSoaRecord,
  Resolver,
} from '../core/resolver.ts';
import { isTemporaryDnsFailure } from '../core/resolver.ts';
import { endSentence } from '../core/sentences.ts';
import { dsDigestAlgorithms, findDnssecAlgorithm } from './algorithms.ts';
import { ianaRootTrustAnchors, type TrustAnchors } from './anchors.ts';
import { denialView, proveDenial, type DenialResult } from './denial.ts';
import { matchDs, type DsMatch } from './ds.ts';
import { dnskeyKeySize, keyTagOf } from './key-tag.ts';
import type {
  ChainAnswer,
  ChainFailureCode,
  DnssecChain,
  DsView,
  KeyView,
  SecurityStatus,
  SignatureView,
  ZoneStep,
} from './schema.ts';
import { signatureView, verifyRrset, type RrsetVerification, type SignatureCheck } from './verify.ts';
import { presentRecord } from './wire.ts';

export interface ChainOptions {
  /** Queried with `{ dnssec: true }`. */
  resolver: Resolver;
  /** With `verify`. */
  crypto: CryptoProvider;
  trustAnchors: TrustAnchors;
  /** Seconds since the epoch; default now. */
  now?: number;
  signal?: AbortSignal;
}

/** RFC 1034 §3.6.2 lets resolvers bound CNAME chains; 8 is what our DNS client follows. */
const MAX_CNAMES = 8;
/** RFC 1035 §2.3.4: 255 octets in wire form, so 253 characters written without the trailing dot. */
const MAX_NAME_CHARACTERS = 253;
const EXPIRY_WARNING_SECONDS = 7 * 24 * 3600;
const ZONE_KEY = 0x0100;
const SEP = 0x0001;
const REVOKE = 0x0080;
/** RFC 8624 §3.1: the algorithms a validator MUST (or is recommended to) support, which we verify. */
const VALIDATED_ALGORITHMS = new Set([5, 7, 8, 10, 13, 14, 15, 16]);
const RSA_ALGORITHMS = new Set([5, 7, 8, 10]);

interface Failure {
  code: ChainFailureCode;
  zone: string;
  message: string;
  /** A fix for this case in particular, where the code's general one would say too little. */
  fix?: string;
}

/** Where the walk from the root stands at a name. */
type ZoneState =
  | { kind: 'secure'; zone: string; keys: DnsDnskeyRecord[] }
  | { kind: 'insecure'; zone: string }
  | { kind: 'failed'; status: 'bogus' | 'indeterminate'; failure: Failure }
  /** An ancestor of the name was proven not to exist while looking for its DS. */
  | { kind: 'nxdomain'; zone: string; keys: DnsDnskeyRecord[]; denial: DenialResult };

const fixes: Record<ChainFailureCode, { fix: string; rfc: string }> = {
  'expired-signature': {
    fix: 'Re-sign the zone and make sure automatic re-signing runs well before signatures expire (check the signer, or your DNS provider), then reload it on every name server.',
    rfc: 'RFC 4035 §5.3.1',
  },
  'signature-not-yet-valid': {
    fix: "Check the signing host's clock: its signatures start in the future. Re-sign with a correct clock.",
    rfc: 'RFC 4035 §5.3.1',
  },
  'bad-signature': {
    fix: 'Re-sign the zone with its published keys: a signature that does not verify means the records changed after signing or were signed with a key not in the DNSKEY set.',
    rfc: 'RFC 4035 §5.3.3',
  },
  'wrong-signer': {
    fix: 'Sign the records with the keys of the zone that holds them: the RRSIG names another zone as its signer, so a copy of records signed in the parent or another zone was published here.',
    rfc: 'RFC 4035 §5.3.1',
  },
  'missing-signature': {
    fix: 'Sign the zone (or re-sign it): every authoritative RRset of a signed zone needs an RRSIG, and the name servers must return them to queries with the DO bit.',
    rfc: 'RFC 4035 §2.2',
  },
  'no-matching-ds': {
    fix: "Publish at the parent (through your registrar) a DS for the zone's current KSK (dnssec-dsfromkey -2 writes it), or put the key the DS refers to back into the DNSKEY set.",
    rfc: 'RFC 4035 §5.2',
  },
  'wrong-digest': {
    fix: "Replace the DS at the parent with one computed from the zone's current KSK (dnssec-dsfromkey -2 <key file>); the key was probably regenerated with the same tag or the digest was mistyped.",
    rfc: 'RFC 4034 §5.1.4',
  },
  'missing-dnskey': {
    fix: 'Publish the DNSKEY set that the DS records and RRSIGs refer to on every name server of the zone.',
    rfc: 'RFC 4035 §5.2',
  },
  'algorithm-mismatch': {
    fix: 'Sign the zone with every algorithm that has a DS at the parent, or remove the DS of the algorithm you no longer sign with (a rollover adds signatures first and the DS last, RFC 6781 §4.1.4).',
    rfc: 'RFC 4035 §2.2; RFC 6840 §5.11',
  },
  'unsupported-algorithm': {
    fix: 'Sign the zone with a current algorithm: ECDSAP256SHA256 (13) or ED25519 (15), or RSASHA256 (8) with 2048-bit keys.',
    rfc: 'RFC 8624 §3.1',
  },
  'bad-denial-proof': {
    fix: 'Re-sign the zone so that its NSEC or NSEC3 chain is complete and signed, and make sure the name servers send the records that prove a name or type does not exist.',
    rfc: 'RFC 4035 §5.4; RFC 5155 §8',
  },
  'missing-denial-proof': {
    fix: 'The name servers must return the NSEC or NSEC3 records (with their RRSIGs) that prove the denial; re-sign the zone and check that every server answers with them.',
    rfc: 'RFC 4035 §3.1.3',
  },
  'no-trust-anchor': {
    fix: "Configure a trust anchor for the root: DNSSEC_TRUST_ANCHORS names a file of '. IN DS' or '. IN DNSKEY' records.",
    rfc: 'RFC 4035 §4.4',
  },
  'dns-failure': {
    fix: 'Check that every name server of the zone answers DNSSEC queries (dig +dnssec <name> DNSKEY @<server>) and try again.',
    rfc: 'RFC 4035 §4.3',
  },
  'cname-loop': {
    fix: 'Break the loop: point one of the CNAMEs at a name that has the records.',
    rfc: 'RFC 1034 §3.6.2',
  },
  'too-many-cnames': {
    fix: 'Point the CNAME straight at the final name instead of through a long chain of aliases.',
    rfc: 'RFC 1034 §3.6.2',
  },
  'invalid-name': {
    fix: 'Enter a domain name of at most 253 characters whose labels have 1 to 63 characters each.',
    rfc: 'RFC 1035 §2.3.4',
  },
};

function displayZone(zone: string): string {
  return zone === '' || zone === '.' ? '.' : zone;
}

/** A zone as a sentence names it: the root's '.' would read as a stray full stop. */
function zoneInText(zone: string): string {
  return zone === '' || zone === '.' ? 'the root zone' : zone;
}

function parentOf(name: string): string {
  const dot = name.indexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1);
}

/** The name lower-cased without the trailing dot, or why it cannot be looked up (RFC 1035 §2.3.4). */
function normalizeName(input: string): { name: string } | { error: string } {
  const name = input.trim().replace(/\.$/, '').toLowerCase();
  if (name === '') return { name: '' };
  if (name.length > MAX_NAME_CHARACTERS)
    return { error: `the name has ${name.length} characters; a domain name has at most 253` };
  const labels = name.split('.');
  if (labels.some((label) => label === ''))
    return { error: 'the name has an empty label (two dots in a row)' };
  const long = labels.find((label) => label.length > maxLabelOctets);
  if (long !== undefined)
    return {
      error: `the label '${long.slice(0, 20)}…' has ${long.length} characters; a label has at most 63`,
    };
  return { name };
}

/** Root first: '' then the TLD down to the name. */
function ancestorsOf(name: string): string[] {
  if (name === '') return [''];
  const labels = name.split('.');
  return ['', ...labels.map((_, i) => labels.slice(labels.length - 1 - i).join('.'))];
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function dnsFailureMessage(result: DnsResult): string {
  return 'message' in result ? result.message : `${result.name} ${result.type}: ${result.status}`;
}

function authorityOf(result: DnsResult): DnsRecord[] {
  return 'sections' in result && result.sections ? result.sections.authority : [];
}

function rrsigsFor(records: readonly DnsRecord[], owner: string, type: string): DnsRrsigRecord[] {
  return records.filter(
    (r): r is DnsRrsigRecord => r.type === 'RRSIG' && r.name === owner && r.typeCovered === type,
  );
}

/** Groups records other than RRSIG by owner and type. */
function rrsets(records: readonly DnsRecord[]): DnsRecord[][] {
  const sets = new Map<string, DnsRecord[]>();
  for (const r of records) {
    if (r.type === 'RRSIG') continue;
    const key = `${r.name} ${r.type}`;
    sets.set(key, [...(sets.get(key) ?? []), r]);
  }
  return [...sets.values()];
}

/** The failure a set of RRSIG checks comes to when none is valid, the most telling outcome first. */
function signatureFailure(
  checks: readonly SignatureCheck[],
  what: string,
  zone: string,
): { code: ChainFailureCode; message: string } {
  if (checks.length === 0)
    return { code: 'missing-signature', message: `${what} has no RRSIG from ${zoneInText(zone)}.` };
  const order: [SignatureCheck['outcome'], ChainFailureCode][] = [
    ['expired', 'expired-signature'],
    ['not-yet-valid', 'signature-not-yet-valid'],
    ['bad-signature', 'bad-signature'],
    ['no-key', 'missing-dnskey'],
    ['signer-mismatch', 'wrong-signer'],
    ['labels-mismatch', 'bad-signature'],
    ['malformed', 'bad-signature'],
    ['unsupported-algorithm', 'unsupported-algorithm'],
  ];
  for (const [outcome, code] of order) {
    const check = checks.find((c) => c.outcome === outcome);
    if (check) return { code, message: endSentence(`${what}: ${check.message}`) };
  }
  return { code: 'bad-signature', message: `${what} has no valid RRSIG.` };
}

interface Walker {
  ask<T extends DnsRecordType>(name: string, type: T): Promise<DnsResult<T>>;
  readonly count: number;
}

function walker(options: ChainOptions): Walker {
  const answers = new Map<string, Promise<DnsResult>>();
  let count = 0;
  return {
    get count() {
      return count;
    },
    ask<T extends DnsRecordType>(name: string, type: T): Promise<DnsResult<T>> {
      const key = `${name} ${type}`;
      let answer = answers.get(key);
      if (answer === undefined) {
        const asked = name === '' ? '.' : name;
        if (options.signal?.aborted === true) {
          answer = Promise.resolve({
            name,
            type,
            authenticated: false,
            status: 'timeout',
            reason: 'budget',
            message: `${asked} ${type}: the check was stopped`,
          } as DnsResult);
        } else {
          count++;
          answer = options.resolver
            .query(asked, type, { dnssec: true })
            .catch((error: unknown): DnsResult => ({
              name,
              type,
              authenticated: false,
              status: 'error',
              error: 'network',
              message: `${asked} ${type}: ${error instanceof Error ? error.message : String(error)}`,
            }));
        }
        answers.set(key, answer);
      }
      return answer as Promise<DnsResult<T>>;
    },
  };
}

class ChainBuilder {
  private readonly steps = new Map<string, ZoneStep>();
  private readonly warnings = new Map<string, Diagnostic>();
  private readonly states = new Map<string, Promise<ZoneState>>();
  readonly dns: Walker;

  private readonly options: ChainOptions;
  private readonly now: number;

  constructor(options: ChainOptions, now: number) {
    this.options = options;
    this.now = now;
    this.dns = walker(options);
  }

  get crypto(): CryptoProvider {
    return this.options.crypto;
  }

  zones(): ZoneStep[] {
    return [...this.steps.values()];
  }

  warningList(): Diagnostic[] {
    return [...this.warnings.values()];
  }

  private warn(
    key: string,
    code: string,
    message: string,
    rfc: string,
    fix: string,
    requirement?: RequirementLevel,
  ): void {
    if (this.warnings.has(key)) return;
    this.warnings.set(key, {
      severity: 'warning',
      code,
      message,
      rfc,
      fix,
      ...(requirement ? { requirement } : {}),
    });
  }

  /** Sends every query the walk to `name` needs at once, so that the levels' round trips overlap. */
  prefetch(name: string): void {
    const ancestors = ancestorsOf(name);
    void this.dns.ask('', 'DNSKEY');
    for (const ancestor of ancestors.slice(1)) {
      void this.dns.ask(ancestor, 'DS');
      void this.dns.ask(ancestor, 'DNSKEY');
    }
  }

  /** The state of the walk from the root at `name`, each ancestor's state computed once. */
  stateAt(name: string): Promise<ZoneState> {
    let state = this.states.get(name);
    if (state === undefined) {
      state = name === '' ? this.rootState() : this.stateAt(parentOf(name)).then((p) => this.below(p, name));
      this.states.set(name, state);
    }
    return state;
  }

  private step(zone: string): ZoneStep {
    const key = displayZone(zone);
    let step = this.steps.get(key);
    if (step === undefined) {
      step = {
        zone: key,
        status: 'indeterminate',
        ds: [],
        dsDenial: null,
        keys: [],
        keySetSignatures: [],
        dsSignatures: [],
        failure: null,
      };
      this.steps.set(key, step);
    }
    return step;
  }

  private fail(
    zone: string,
    status: 'bogus' | 'indeterminate',
    code: ChainFailureCode,
    message: string,
    fix: string = fixes[code].fix,
  ): ZoneState {
    const step = this.step(zone);
    step.status = status;
    step.failure = { code, message, fix };
    return { kind: 'failed', status, failure: { code, zone: displayZone(zone), message, fix } };
  }

  private dnsFailure(zone: string, result: DnsResult): ZoneState {
    return this.fail(
      zone,
      'indeterminate',
      'dns-failure',
      `The ${result.type} query for ${displayZone(result.name || zone)} failed: ${dnsFailureMessage(result)}.`,
    );
  }

  private async rootState(): Promise<ZoneState> {
    const anchors = this.options.trustAnchors;
    if (anchors.ds.length === 0 && anchors.dnskey.length === 0)
      return this.fail('', 'bogus', 'no-trust-anchor', 'No trust anchor for the root is configured.');
    const anchoredKeys = (keys: readonly DnsDnskeyRecord[]) =>
      keys.filter((key) =>
        anchors.dnskey.some(
          (anchor) =>
            anchor.algorithm === key.algorithm &&
            anchor.key.replace(/\s/g, '') === key.key.replace(/\s/g, '') &&
            (anchor.flags & ZONE_KEY) === (key.flags & ZONE_KEY),
        ),
      );
    return this.secureZone('', anchors.ds, 'trust-anchor', anchoredKeys);
  }

  /** The walk one label further down, from the state at the parent. */
  private async below(parent: ZoneState, name: string): Promise<ZoneState> {
    if (parent.kind !== 'secure') return parent;
    const ds = await this.dns.ask(name, 'DS');
    if (isTemporaryDnsFailure(ds)) return this.dnsFailure(name, ds);
    const alias = ds.cnames[0];
    if (alias !== undefined) {
      // a CNAME owner is no zone cut (RFC 1034 §3.6.2): its CNAME must be signed by the parent zone
      const sigs = rrsigsFor(ds.sections?.answer ?? [], alias.name, 'CNAME');
      const verification = await this.verify([alias], sigs, parent.keys, parent.zone);
      if (verification.valid) return parent;
      const failure = signatureFailure(verification.checks, `The CNAME at ${name}`, parent.zone);
      return this.fail(parent.zone, 'bogus', failure.code, failure.message);
    }
    if (ds.status === 'ok' && ds.records.length > 0) {
      const verification = await this.verify(ds.records, ds.signatures, parent.keys, parent.zone);
      const step = this.step(name);
      step.dsSignatures = verification.checks.map(signatureView);
      if (!verification.valid) {
        const failure = signatureFailure(verification.checks, `The DS set of ${name}`, parent.zone);
        return this.fail(name, 'bogus', failure.code, failure.message);
      }
      return this.secureZone(name, ds.records, 'parent', () => []);
    }
    if (ds.status === 'ok') return parent;
    return this.dsDenial(parent, name, ds);
  }

  /** The parent answered "no DS": an insecure delegation, no zone cut at all, or no such name. */
  private async dsDenial(
    parent: Extract<ZoneState, { kind: 'secure' }>,
    name: string,
    answer: DnsResult<'DS'>,
  ): Promise<ZoneState> {
    const authority = authorityOf(answer);
    const soa = authority.find((r): r is DnsSoaRecord => r.type === 'SOA');
    const parentZone = displayZone(parent.zone);
    if (soa !== undefined && displayZone(soa.name) !== parentZone) {
      return this.fail(
        parent.zone,
        'bogus',
        'bad-denial-proof',
        `The answer that ${name} has no DS came from zone ${displayZone(soa.name)}, not from its parent ${zoneInText(parentZone)}.`,
      );
    }
    const checked = await this.checkDenialRecords(authority, parent, `The proof that ${name} has no DS`);
    if ('failure' in checked)
      return this.fail(parent.zone, 'bogus', checked.failure.code, checked.failure.message);
    const proofs = checked.records;
    const question = { name, type: 'DS' as const };
    const prove = (proves: DenialResult['proves']) =>
      proveDenial(question, proves, proofs, { zone: parentZone, crypto: this.options.crypto });
    if (answer.status === 'nxdomain') {
      const denial = await prove('nxdomain');
      if (denial.proven) return { kind: 'nxdomain', zone: parent.zone, keys: parent.keys, denial };
      return this.fail(
        parent.zone,
        'bogus',
        'bad-denial-proof',
        `${name} is said not to exist, but ${denial.message}`,
      );
    }
    const delegation = await prove('insecure-delegation');
    if (delegation.proven) {
      const step = this.step(name);
      step.status = 'insecure';
      step.dsDenial = denialView(delegation);
      return { kind: 'insecure', zone: name };
    }
    const nodata = await prove('nodata');
    if (nodata.proven) return parent;
    return this.fail(
      name,
      'bogus',
      'bad-denial-proof',
      `${name} is said to have no DS, but ${nodata.message}`,
    );
  }

  /** Verifies the NSEC/NSEC3 sets of an authority section with the zone's keys. */
  async checkDenialRecords(
    authority: readonly DnsRecord[],
    state: { zone: string; keys: DnsDnskeyRecord[] },
    what: string,
  ): Promise<{ records: DnsRecord[] } | { failure: { code: ChainFailureCode; message: string } }> {
    const records = authority.filter((r) => r.type === 'NSEC' || r.type === 'NSEC3');
    if (records.length === 0)
      return {
        failure: {
          code: 'missing-denial-proof',
          message: `${what} holds no NSEC or NSEC3 record from ${zoneInText(state.zone)}.`,
        },
      };
    for (const set of rrsets(records)) {
      const first = set[0] as DnsRecord;
      const sigs = rrsigsFor(authority, first.name, first.type);
      const verification = await this.verify(set, sigs, state.keys, state.zone);
      if (!verification.valid) {
        const failure = signatureFailure(
          verification.checks,
          `${what}: the ${first.type} at ${first.name}`,
          state.zone,
        );
        return { failure };
      }
    }
    this.nsec3Warnings(records, state.zone);
    return { records };
  }

  private nsec3Warnings(records: readonly DnsRecord[], zone: string): void {
    const nsec3 = records.find((r) => r.type === 'NSEC3');
    if (nsec3 === undefined || nsec3.type !== 'NSEC3') return;
    const where = displayZone(zone);
    if (nsec3.iterations > 0)
      this.warn(
        `iterations ${where}`,
        'DNSSEC_NSEC3_ITERATIONS',
        `${where} uses NSEC3 with ${nsec3.iterations} additional iterations; validators may treat such zones as insecure or bogus.`,
        'RFC 9276 §3.1',
        'Set the NSEC3 iterations to 0 (dnssec-signzone -3 - -H 0, or NSEC3PARAM 1 0 0 -).',
        'MUST',
      );
    if (nsec3.salt !== '')
      this.warn(
        `salt ${where}`,
        'DNSSEC_NSEC3_SALT',
        `${where} uses an NSEC3 salt (${nsec3.salt}); a salt adds no protection.`,
        'RFC 9276 §3.1',
        'Sign with an empty salt (NSEC3PARAM 1 0 0 -).',
        'SHOULD NOT',
      );
  }

  async verify(
    rrset: readonly DnsRecord[],
    signatures: readonly DnsRrsigRecord[],
    keys: readonly DnsDnskeyRecord[],
    zone: string,
  ): Promise<RrsetVerification> {
    const verification = await verifyRrset(rrset, signatures, keys, {
      zone: displayZone(zone),
      now: this.now,
      crypto: this.options.crypto,
    });
    const first = rrset[0];
    for (const check of verification.checks) {
      if (check.outcome !== 'valid' || first === undefined) continue;
      const sig = check.signature;
      if (sig.expiration - this.now < EXPIRY_WARNING_SECONDS)
        this.warn(
          `expiry ${first.name} ${first.type} ${sig.keyTag}`,
          'DNSSEC_SIGNATURE_EXPIRING',
          `The RRSIG over ${displayZone(first.name)} ${first.type} by key ${sig.keyTag} expires on ${iso(sig.expiration)}, within 7 days.`,
          'RFC 4034 §3.1.5',
          'Re-sign the zone now and check that automatic re-signing runs (signatures are usually refreshed when a quarter of their validity is left).',
        );
      if (first.type !== 'DNSKEY') this.markSigner(zone, sig, first.type);
    }
    return verification;
  }

  private markSigner(zone: string, sig: DnsRrsigRecord, type: string): void {
    const view = this.steps
      .get(displayZone(zone))
      ?.keys.find((k) => k.keyTag === sig.keyTag && k.algorithm === sig.algorithm);
    if (view && !view.signs.includes(type)) view.signs.push(type);
  }

  /**
   * A zone whose DS set (or trust anchor) is known: its DNSKEY set must hold a key a DS designates
   * that signs the set (RFC 4035 §5.2). Every DS of an unsupported algorithm or digest makes the
   * zone insecure rather than bogus.
   */
  private async secureZone(
    zone: string,
    dsSet: readonly DnsDsRecord[],
    source: DsView['source'],
    anchoredKeys: (keys: readonly DnsDnskeyRecord[]) => DnsDnskeyRecord[],
  ): Promise<ZoneState> {
    const answer = await this.dns.ask(zone, 'DNSKEY');
    if (isTemporaryDnsFailure(answer)) return this.dnsFailure(zone, answer);
    const keys = answer.status === 'ok' ? answer.records : [];
    const signatures = answer.status === 'ok' ? answer.signatures : [];
    const step = this.step(zone);
    const where = displayZone(zone);
    const matches = await Promise.all(
      dsSet.map(async (ds) => ({ ds, ...(await matchDs(ds, keys, where, this.options.crypto)) })),
    );
    step.ds = matches.map(({ ds, status, expectedDigest }) => dsView(ds, status, source, expectedDigest));
    this.dsWarnings(where, matches);
    const usable = matches.filter(
      (m) => VALIDATED_ALGORITHMS.has(m.ds.algorithm) && m.status !== 'unsupported-digest',
    );
    const anchored = anchoredKeys(keys);
    if (usable.length === 0 && anchored.length === 0 && dsSet.length > 0) {
      step.status = 'insecure';
      this.warn(
        `unsupported ${where}`,
        'DNSSEC_UNSUPPORTED_ALGORITHM',
        `Every DS of ${where} uses an algorithm or digest this validator does not support (${dsSet.map((d) => `${d.algorithm}/${d.digestType}`).join(', ')}), so the zone is treated as unsigned.`,
        'RFC 4035 §5.2',
        fixes['unsupported-algorithm'].fix,
      );
      return { kind: 'insecure', zone };
    }
    if (keys.length === 0)
      return this.fail(
        zone,
        'bogus',
        'missing-dnskey',
        answer.status === 'ok'
          ? `${where} has no DNSKEY records.`
          : `${where} answered that it has no DNSKEY records (${answer.status}), yet ${source === 'parent' ? 'its parent publishes a DS' : 'a trust anchor names it'}.`,
      );
    const designated = [
      ...new Set([...usable.flatMap((m) => (m.status === 'match' && m.key ? [m.key] : [])), ...anchored]),
    ];
    // every signature over the set is checked with every key of the zone, even with no key vouched
    // for, so the screen shows whether the zone itself is signed right; only one by a key the DS or
    // anchor designates makes the zone secure (RFC 4035 §5.2)
    const verification = await this.verify(keys, signatures, keys, zone);
    const isDesignated = (key: DnsDnskeyRecord) =>
      designated.some((d) => d.key === key.key && d.algorithm === key.algorithm && d.flags === key.flags);
    const designatedChecks = verification.checks.filter((c) =>
      c.key
        ? isDesignated(c.key)
        : designated.some((d) => keyTagOf(d) === c.signature.keyTag && d.algorithm === c.signature.algorithm),
    );
    step.keySetSignatures = verification.checks.map(signatureView);
    const signers = new Set(
      verification.checks.flatMap((c) => (c.outcome === 'valid' && c.key ? [keyTagOf(c.key)] : [])),
    );
    step.keys = keys.map((key) => keyView(key, designated.includes(key), signers.has(keyTagOf(key))));
    this.keyWarnings(where, keys, signatures, dsSet);
    if (designated.length === 0) {
      const wrong = usable.find((m) => m.status === 'wrong-digest');
      if (wrong)
        return this.fail(
          zone,
          'bogus',
          'wrong-digest',
          `The DS ${wrong.ds.keyTag} ${wrong.ds.algorithm} ${wrong.ds.digestType} names key ${wrong.ds.keyTag} of ${where}, but its digest does not match that key.`,
        );
      return this.fail(
        zone,
        'bogus',
        'no-matching-ds',
        `No DNSKEY of ${where} matches a ${source === 'parent' ? 'DS at the parent' : 'trust anchor'} (key tags ${usable.map((m) => m.ds.keyTag).join(', ')}; the zone has ${keys.map(keyTagOf).join(', ')}).`,
      );
    }
    if (!designatedChecks.some((c) => c.outcome === 'valid')) {
      const checks = designatedChecks;
      // RFC 4035 §5.2: a validator that cannot verify the zone's algorithm treats it as unsigned
      if (checks.length > 0 && checks.every((c) => c.outcome === 'unsupported-algorithm')) {
        step.status = 'insecure';
        this.warn(
          `unsupported ${where}`,
          'DNSSEC_UNSUPPORTED_ALGORITHM',
          `${where} is signed with algorithm ${[...new Set(checks.map((c) => c.signature.algorithm))].join(', ')}, which this validator cannot verify here, so the zone is treated as unsigned.`,
          'RFC 4035 §5.2',
          fixes['unsupported-algorithm'].fix,
        );
        return { kind: 'insecure', zone };
      }
      const algorithms = new Set(designated.map((k) => k.algorithm));
      if (signatures.length > 0 && !signatures.some((s) => algorithms.has(s.algorithm)))
        return this.fail(
          zone,
          'bogus',
          'algorithm-mismatch',
          `The DS points at ${where}'s key of algorithm ${[...algorithms].join(', ')}, but its DNSKEY set is signed only with algorithm ${[...new Set(signatures.map((s) => s.algorithm))].join(', ')}.`,
        );
      if (checks.length === 0)
        return this.fail(
          zone,
          'bogus',
          'missing-signature',
          `The DNSKEY set of ${where} carries no RRSIG by key ${designated.map(keyTagOf).join(', ')}, which the ${source === 'parent' ? 'DS at the parent' : 'trust anchor'} names.`,
          `Sign the DNSKEY set of ${where} with the key ${designated.map(keyTagOf).join(', ')} that the ${source === 'parent' ? 'DS' : 'trust anchor'} names (the KSK): a signer given only the ZSK signs the set with it alone (dnssec-signzone -k <KSK file>, or keep the KSK's private key where the signer finds it).`,
        );
      const failure = signatureFailure(checks, `The DNSKEY set of ${where}`, zone);
      return this.fail(zone, 'bogus', failure.code, failure.message);
    }
    step.status = 'secure';
    const zoneKeys = keys.filter((k) => (k.flags & ZONE_KEY) !== 0 && (k.flags & REVOKE) === 0);
    return { kind: 'secure', zone, keys: zoneKeys };
  }

  private dsWarnings(where: string, matches: readonly { ds: DnsDsRecord; status: DsMatch }[]): void {
    for (const { ds, status } of matches) {
      if (ds.digestType === 1)
        this.warn(
          `sha1 ${where} ${ds.keyTag}`,
          'DNSSEC_DS_SHA1',
          `The DS ${ds.keyTag} of ${where} uses a SHA-1 digest.`,
          'RFC 8624 §3.3',
          'Publish a SHA-256 DS (digest type 2) instead and remove the SHA-1 one.',
          'MUST NOT',
        );
      if (status === 'no-key' && matches.some((m) => m.status === 'match'))
        this.warn(
          `ds-no-key ${where} ${ds.keyTag}`,
          'DNSSEC_DS_NO_KEY',
          `The DS ${ds.keyTag} (algorithm ${ds.algorithm}) of ${where} refers to no key in the zone's DNSKEY set.`,
          'RFC 6781 §4.1.2',
          'Remove the stale DS at the parent, or publish the key it refers to if a key rollover is under way.',
        );
    }
  }

  private keyWarnings(
    where: string,
    keys: readonly DnsDnskeyRecord[],
    signatures: readonly DnsRrsigRecord[],
    dsSet: readonly DnsDsRecord[],
  ): void {
    for (const key of keys) {
      const size = dnskeyKeySize(key);
      if (RSA_ALGORITHMS.has(key.algorithm) && size !== null && size < 2048)
        this.warn(
          `rsa ${where} ${keyTagOf(key)}`,
          'DNSSEC_RSA_KEY_SMALL',
          `Key ${keyTagOf(key)} of ${where} is a ${size}-bit RSA key.`,
          'RFC 8624 §3.1; NIST SP 800-57 Part 1',
          'Roll to a 2048-bit RSA key, or better to ECDSAP256SHA256 (13) or ED25519 (15).',
        );
      if (key.algorithm === 5 || key.algorithm === 7)
        this.warn(
          `deprecated ${where} ${key.algorithm}`,
          'DNSSEC_ALGORITHM_DEPRECATED',
          `${where} is signed with ${findDnssecAlgorithm(key.algorithm)?.mnemonic ?? key.algorithm}, an algorithm that must no longer be used for signing.`,
          'RFC 8624 §3.1; RFC 9905 §2',
          'Roll the zone to ECDSAP256SHA256 (13) or ED25519 (15) (an algorithm rollover, RFC 6781 §4.1.4).',
          'MUST NOT',
        );
    }
    const keyAlgorithms = new Set(keys.filter((k) => (k.flags & ZONE_KEY) !== 0).map((k) => k.algorithm));
    const signed = new Set(signatures.map((s) => s.algorithm));
    // with no signatures at all the zone is unsigned or stripped, which is a failure, not a rollover
    const unsigned =
      signed.size === 0 ? [] : [...new Set(dsSet.map((d) => d.algorithm))].filter((a) => !signed.has(a));
    if (keyAlgorithms.size > 1 || unsigned.length > 0)
      this.warn(
        `rollover ${where}`,
        'DNSSEC_ALGORITHM_ROLLOVER',
        keyAlgorithms.size > 1
          ? `${where} publishes keys of ${keyAlgorithms.size} algorithms (${[...keyAlgorithms].join(', ')}): an algorithm rollover seems to be in progress.`
          : `The DS set of ${where} names algorithm ${unsigned.join(', ')}, which signs nothing in the zone: an algorithm rollover seems to be in progress.`,
        'RFC 6781 §4.1.4; RFC 6840 §5.11',
        'Finish the rollover in order: sign with both algorithms, then change the DS, then remove the old keys and signatures.',
      );
  }
}

function keyView(key: DnsDnskeyRecord, matchedByDs: boolean, signsKeySet: boolean): KeyView {
  return {
    keyTag: keyTagOf(key),
    flags: key.flags,
    role: (key.flags & ZONE_KEY) === 0 ? 'Non-zone key' : (key.flags & SEP) !== 0 ? 'KSK' : 'ZSK',
    revoked: (key.flags & REVOKE) !== 0,
    algorithm: key.algorithm,
    algorithmName: findDnssecAlgorithm(key.algorithm)?.mnemonic ?? `algorithm ${key.algorithm}`,
    keySize: dnskeyKeySize(key),
    matchedByDs,
    signsKeySet,
    signs: [],
    record: presentRecord(key),
  };
}

function dsView(
  ds: DnsDsRecord,
  status: DsMatch,
  source: DsView['source'],
  expectedDigest: string | undefined,
): DsView {
  return {
    keyTag: ds.keyTag,
    algorithm: ds.algorithm,
    digestType: ds.digestType,
    digestName:
      dsDigestAlgorithms.find((d) => d.type === ds.digestType)?.name ?? `digest type ${ds.digestType}`,
    digest: ds.digest.toUpperCase(),
    status,
    expectedDigest: status === 'wrong-digest' ? (expectedDigest ?? null) : null,
    source,
    record: presentRecord(ds),
  };
}

const rank: Record<SecurityStatus, number> = { secure: 0, insecure: 1, indeterminate: 2, bogus: 3 };

function worst(a: SecurityStatus, b: SecurityStatus): SecurityStatus {
  return rank[a] >= rank[b] ? a : b;
}

/** Builds the chain of trust for `name` and `type` (RFC 4035 §5). Never throws for DNS trouble. */
export async function buildChain(
  input: string,
  type: DnsRecordType,
  options: ChainOptions,
): Promise<DnssecChain> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const anchors = options.trustAnchors;
  const base = {
    type,
    trustAnchors: {
      source: anchors.source,
      origin: anchors.source === ianaRootTrustAnchors.source ? ('iana' as const) : ('configured' as const),
      keyTags: [...new Set([...anchors.ds.map((d) => d.keyTag), ...anchors.dnskey.map(keyTagOf)])],
    },
    checkedAt: iso(now),
  };
  const normalized = normalizeName(input);
  if ('error' in normalized) {
    const failure = {
      code: 'invalid-name' as const,
      zone: '',
      message: `${normalized.error}.`,
      ...fixes['invalid-name'],
    };
    return {
      ...base,
      name: input.slice(0, 300),
      status: 'indeterminate',
      failure,
      zones: [],
      answer: emptyAnswer(input.slice(0, 300), type, 'indeterminate'),
      warnings: [],
      queries: 0,
    };
  }
  const name = normalized.name;
  const builder = new ChainBuilder(options, now);
  builder.prefetch(name);
  const final = builder.dns.ask(name, type);
  const answer = await answerOf(builder, name, type, final);
  const failure = answer.failure
    ? {
        ...answer.failure,
        fix: answer.failure.fix ?? fixes[answer.failure.code].fix,
        rfc: fixes[answer.failure.code].rfc,
      }
    : null;
  return {
    ...base,
    name: displayZone(name),
    status: answer.view.security,
    failure,
    zones: builder.zones(),
    answer: answer.view,
    warnings: builder.warningList(),
    queries: builder.dns.count,
  };
}

function emptyAnswer(owner: string, type: string, security: SecurityStatus): ChainAnswer {
  return {
    owner: displayZone(owner),
    type,
    status: 'failed',
    records: [],
    signatures: [],
    denial: null,
    wildcard: null,
    zone: null,
    security,
  };
}

interface AnswerOutcome {
  view: ChainAnswer;
  failure: Failure | null;
}

/** Follows CNAMEs one query at a time to tell a loop or an overlong chain from other failures. */
async function cnameTrouble(builder: ChainBuilder, name: string): Promise<Failure | null> {
  const seen = new Set<string>([name]);
  let current = name;
  for (let hop = 0; hop <= MAX_CNAMES; hop++) {
    const step = await builder.dns.ask(current, 'CNAME');
    if (step.status !== 'ok') return null;
    const target = step.records[0]?.target;
    if (target === undefined) return null;
    if (seen.has(target))
      return {
        code: 'cname-loop',
        zone: current,
        message: `The CNAMEs from ${name} loop back to ${target}.`,
      };
    seen.add(target);
    current = target;
  }
  return {
    code: 'too-many-cnames',
    zone: current,
    message: `${name} leads through more than ${MAX_CNAMES} CNAMEs.`,
  };
}

async function answerOf(
  builder: ChainBuilder,
  name: string,
  type: DnsRecordType,
  pending: Promise<DnsResult>,
): Promise<AnswerOutcome> {
  const result = await pending;
  // a CNAME loop makes every query of the name fail, the walk's DS query included
  const trouble = isTemporaryDnsFailure(result) ? await cnameTrouble(builder, name) : null;
  if (trouble !== null) return { view: emptyAnswer(name, type, 'indeterminate'), failure: trouble };
  // a DS set is the parent's data (RFC 4035 §3.1.4.1): a broken child does not make it bogus
  const nameState = await builder.stateAt(type === 'DS' && name !== '' ? parentOf(name) : name);
  if (nameState.kind === 'failed') {
    return { view: emptyAnswer(name, type, nameState.status), failure: nameState.failure };
  }
  if (isTemporaryDnsFailure(result)) {
    const failure = {
      code: 'dns-failure' as const,
      zone: displayZone(name),
      message: `The ${type} query for ${displayZone(name)} failed: ${dnsFailureMessage(result)}.`,
    };
    return { view: emptyAnswer(name, type, 'indeterminate'), failure };
  }
  const cnames = result.cnames;
  const targets = new Set([name, ...cnames.map((c) => c.target)]);
  if (targets.size < cnames.length + 1)
    return {
      view: emptyAnswer(name, type, 'indeterminate'),
      failure: { code: 'cname-loop', zone: displayZone(name), message: `The CNAMEs from ${name} loop.` },
    };
  if (cnames.length > MAX_CNAMES)
    return {
      view: emptyAnswer(name, type, 'indeterminate'),
      failure: {
        code: 'too-many-cnames',
        zone: displayZone(name),
        message: `${name} leads through ${cnames.length} CNAMEs; at most ${MAX_CNAMES} are followed.`,
      },
    };
  const answerSection = result.sections?.answer ?? [];
  const records: string[] = cnames.map(presentRecord);
  const signatures: SignatureView[] = [];
  let security: SecurityStatus = 'secure';
  let failure: Failure | null = null;
  const owner = result.canonicalName;
  for (const cname of cnames) builder.prefetch(cname.target);

  // each CNAME is checked in the zone it sits in
  for (const cname of cnames) {
    const state = await builder.stateAt(cname.name);
    const checked = await checkRrset(builder, state, [cname], rrsigsFor(answerSection, cname.name, 'CNAME'));
    signatures.push(...checked.signatures);
    security = worst(security, checked.security);
    failure ??= checked.failure;
  }
  const zoneName = type === 'DS' ? parentOf(owner) : owner;
  const state = await builder.stateAt(zoneName);
  const view: ChainAnswer = {
    owner: displayZone(owner),
    type,
    status: result.status,
    records,
    signatures,
    denial: null,
    wildcard: null,
    zone: state.kind === 'failed' ? null : displayZone(state.zone),
    security,
  };
  if (state.kind === 'nxdomain') {
    view.status = 'nxdomain';
    view.denial = denialView(state.denial);
    return { view, failure };
  }
  if (result.status === 'ok') {
    view.records.push(...result.records.map(presentRecord));
    const checked = await checkRrset(builder, state, result.records, result.signatures);
    view.signatures.push(...checked.signatures);
    view.security = worst(view.security, checked.security);
    failure ??= checked.failure;
    if (checked.wildcard !== null && state.kind === 'secure') {
      view.wildcard = displayZone(checked.wildcard);
      const proof = await proveNegative(
        builder,
        state,
        owner,
        type,
        'no-closer-match',
        result,
        checked.wildcard,
      );
      view.denial = proof.denial;
      view.security = worst(view.security, proof.security);
      failure ??= proof.failure;
    }
    return { view, failure };
  }
  if (state.kind !== 'secure') {
    view.security = worst(view.security, state.kind === 'failed' ? state.status : 'insecure');
    if (state.kind === 'failed') failure ??= state.failure;
    return { view, failure };
  }
  const proof = await proveNegative(builder, state, owner, type, result.status, result, null);
  view.denial = proof.denial;
  view.security = worst(view.security, proof.security);
  failure ??= proof.failure;
  return { view, failure };
}

interface RrsetOutcome {
  security: SecurityStatus;
  signatures: SignatureView[];
  failure: Failure | null;
  wildcard: string | null;
}

async function checkRrset(
  builder: ChainBuilder,
  state: ZoneState,
  rrset: readonly DnsRecord[],
  sigs: readonly DnsRrsigRecord[],
): Promise<RrsetOutcome> {
  if (state.kind === 'failed')
    return { security: state.status, signatures: [], failure: state.failure, wildcard: null };
  if (state.kind === 'insecure')
    return { security: 'insecure', signatures: [], failure: null, wildcard: null };
  const first = rrset[0] as DnsRecord;
  const verification = await builder.verify(rrset, sigs, state.keys, state.zone);
  const signatures = verification.checks.map(signatureView);
  if (verification.valid)
    return { security: 'secure', signatures, failure: null, wildcard: verification.wildcard };
  const failure = signatureFailure(
    verification.checks,
    `${displayZone(first.name)} ${first.type}`,
    state.zone,
  );
  return {
    security: 'bogus',
    signatures,
    failure: { ...failure, zone: displayZone(state.zone) },
    wildcard: null,
  };
}

async function proveNegative(
  builder: ChainBuilder,
  state: Extract<ZoneState, { kind: 'secure' | 'nxdomain' }>,
  owner: string,
  type: DnsRecordType,
  proves: DenialResult['proves'],
  result: DnsResult,
  wildcard: string | null,
): Promise<{ denial: ChainAnswer['denial']; security: SecurityStatus; failure: Failure | null }> {
  const zone = displayZone(state.zone);
  const what =
    proves === 'no-closer-match'
      ? `The proof that no closer name than the wildcard ${wildcard ?? ''} matches ${owner}`
      : `The proof that ${displayZone(owner)} ${proves === 'nxdomain' ? 'does not exist' : `has no ${type} record`}`;
  const authority = authorityOf(result);
  const soa = authority.find((r) => r.type === 'SOA');
  if (proves !== 'no-closer-match' && soa !== undefined && displayZone(soa.name) !== zone)
    return {
      denial: null,
      security: 'bogus',
      failure: {
        code: 'bad-denial-proof',
        zone,
        message: `${what} came from zone ${displayZone(soa.name)}, not from ${zoneInText(zone)}.`,
      },
    };
  const checked = await builder.checkDenialRecords(authority, state, what);
  if ('failure' in checked) return { denial: null, security: 'bogus', failure: { ...checked.failure, zone } };
  const denial = await proveDenial({ name: owner, type }, proves, checked.records, {
    zone,
    crypto: builder.crypto,
    ...(wildcard !== null ? { wildcardOf: parentOf(wildcard) } : {}),
  });
  if (denial.proven) return { denial: denialView(denial), security: 'secure', failure: null };
  return {
    denial: denialView(denial),
    security: 'bogus',
    failure: { code: 'bad-denial-proof', zone, message: `${what} fails: ${denial.message}` },
  };
}
