// The TLS scanner: which protocol versions and suites a server accepts (offer a bundle, read
// the choice, remove it, repeat, as testssl.sh does), its preference, groups, extensions,
// certificate and the vulnerability facts — through the guarded outbound layer only.
import { createECDH, generateKeyPairSync } from 'node:crypto';
import {
  type CertificateScan,
  type ClientHelloOptions,
  type FeatureScan,
  type ScannedSuite,
  type ScannedVersion,
  type ServerKeyType,
  type TlsScanProgress,
  type TlsScanReport,
  type TlsVersionName,
  type TriState,
  type VersionScan,
  alertDescriptions,
  buildClientHello,
  buildSsl2ClientHello,
  cipherSuites,
  formatSuiteHex,
  groupName,
  namedGroups,
  protocolLabel,
  protocolVersions,
  ssl2CipherKinds,
  signatureSchemeName,
  signatureSchemes,
  starttlsHint,
  suiteByCode,
  versionName,
} from '@rfckit/standards';
import { NetError } from '../net/errors.ts';
import type { NetSession } from '../net/layer.ts';
import { type CheckedTarget, connectFailure, tlsHandshakeFailure } from '../net/target.ts';
import type { StarttlsProtocol } from '../net/starttls.ts';
import type { HandshakeRestriction } from '../net/http.ts';
import type { TlsHandshakeResult } from '../net/probe.ts';
import {
  certificateFromHandshake,
  certificateFromProbe,
  certificateRequests,
  completeChain,
  issuerCertificateOf,
  keyTypeOf,
  keyTypeOfDer,
  type IssuerFetcher,
} from './certificate.ts';
import {
  ConnectionSlots,
  type ExchangeSettings,
  type ProbeAnswer,
  exchange,
  exchangeSsl2,
  openConnection,
} from './exchange.ts';
import { type EarlyCcsProbe, vulnerabilities } from './findings.ts';

export interface TlsScanTarget {
  host: string;
  port: number;
  starttls?: StarttlsProtocol;
}

export interface TlsScanOptions {
  onProgress?: (progress: TlsScanProgress) => void;
  signal?: AbortSignal;
  /** The whole scan; what is found by then is reported with `incomplete`. Default 60 s. */
  budgetMs?: number;
  /** Connections open to the target at once. Default 6. */
  maxConnections?: number;
  /** Each probe's wait for an answer. Default 5 s. */
  timeoutMs?: number;
}

/** testssl.sh's and internet.nl's bundle size: servers choke on much longer suite lists. */
const BUNDLE_SIZE = 128;
/**
 * SSL 3.0 hellos carry no extensions, so no padding steps around servers that hang on a hello of
 * 256-511 bytes (RFC 7685 §1): bundles this size keep an SSL 3.0 hello under 256 bytes.
 */
/** SSL 2.0 silence that outlasted a probe on its own: read as SSL 2.0 not spoken (see `retry`). */
const SSL2_SILENCE = 'no answer to an SSL 2.0 hello, even on its own: not spoken';
const SSL3_BUNDLE_SIZE = 100;
const DEFAULTS = { budgetMs: 60_000, maxConnections: 6, timeoutMs: 5_000 };

const LEGACY_VERSIONS: readonly TlsVersionName[] = ['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2'];
/** testssl.sh's order for the early ChangeCipherSpec probe; TLS 1.3 has no such step to inject into. */
const CCS_PROBE_VERSIONS: readonly TlsVersionName[] = ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'SSLv3'];
const TLS13_SUITES = cipherSuites
  .filter((suite) => suite.versions.includes('TLSv1.3'))
  .map((suite) => suite.code);
const LEGACY_SUITES = cipherSuites
  .filter((suite) => !suite.versions.includes('TLSv1.3'))
  .map((suite) => suite.code);
/** Every elliptic-curve group of TLS 1.2 and below (RFC 8422 §5.1.1, RFC 7027, RFC 8734 excluded). */
const EC_GROUPS: readonly number[] = [
  namedGroups.x25519,
  namedGroups.secp256r1,
  namedGroups.x448,
  namedGroups.secp384r1,
  namedGroups.secp521r1,
  namedGroups.brainpoolP256r1,
  namedGroups.brainpoolP384r1,
  namedGroups.brainpoolP512r1,
  ...Array.from({ length: 22 }, (_, index) => index + 1),
];
const FFDHE_GROUPS: readonly number[] = [
  namedGroups.ffdhe2048,
  namedGroups.ffdhe3072,
  namedGroups.ffdhe4096,
  namedGroups.ffdhe6144,
  namedGroups.ffdhe8192,
];
const TLS13_GROUPS: readonly number[] = [
  namedGroups.X25519MLKEM768,
  namedGroups.SecP256r1MLKEM768,
  namedGroups.SecP384r1MLKEM1024,
  namedGroups.x25519,
  namedGroups.secp256r1,
  namedGroups.x448,
  namedGroups.secp384r1,
  namedGroups.secp521r1,
  namedGroups.brainpoolP256r1tls13,
  namedGroups.brainpoolP384r1tls13,
  namedGroups.brainpoolP512r1tls13,
  ...FFDHE_GROUPS,
];

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function x25519Share(): Uint8Array {
  const { publicKey } = generateKeyPairSync('x25519');
  return new Uint8Array(Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url'));
}

function scannedSuite(code: number): ScannedSuite {
  const suite = suiteByCode(code);
  return { code, hex: formatSuiteHex(code), name: suite?.iana ?? 'UNKNOWN', openssl: suite?.openssl ?? null };
}

function describeRefusal(answer: ProbeAnswer): string {
  switch (answer.kind) {
    case 'alert':
      return `alert ${answer.alert.descriptionName ?? answer.alert.description}`;
    case 'silent':
      return answer.end === 'timeout' ? 'no answer in time' : 'connection closed';
    case 'hello':
      return `answered with ${versionName(answer.hello.version) ?? `version 0x${answer.hello.version.toString(16)}`}`;
    case 'ssl2':
      return 'SSL 2.0 answer';
    case 'not-tls':
      return `not TLS: ${answer.sample}`;
  }
}

/** What the early ChangeCipherSpec probe learnt, or why it got no ServerHelloDone to send it after. */
function earlyCcsProbe(version: TlsVersionName, answer: ProbeAnswer | undefined): EarlyCcsProbe {
  if (answer?.kind === 'hello' && answer.earlyCcs !== undefined) return { version, verdict: answer.earlyCcs };
  return {
    version,
    problem:
      answer === undefined
        ? 'the connection failed'
        : answer.kind === 'hello'
          ? 'the server sent no ServerHelloDone'
          : describeRefusal(answer),
  };
}

/** A probe that proves nothing either way: the server said nothing before the time ran out. */
function unanswered(answer: ProbeAnswer): boolean {
  return answer.kind === 'silent' && answer.end === 'timeout';
}

/** The server turned the offer down: an alert, or a close without a word. */
function refused(answer: ProbeAnswer): boolean {
  return answer.kind === 'alert' || (answer.kind === 'silent' && answer.end === 'closed');
}

/** Groups learnt, and whether the list is whole (the server refused an offer of the rest). */
interface GroupList {
  found: string[];
  complete: boolean;
}

interface BundleResult {
  suites: ScannedSuite[];
  refusal?: string;
  /** The suites still to ask about when a probe got no answer. */
  unanswered?: number[];
}

/** A version as scanned so far, with the suite lists whose probes got no answer. */
interface VersionAttempt {
  scan: VersionScan;
  unanswered: number[][];
}

function versionAttempt(
  version: TlsVersionName,
  found: readonly ScannedSuite[],
  results: readonly BundleResult[],
): VersionAttempt {
  const suites = [...found, ...results.flatMap((result) => result.suites)];
  const unansweredBundles = results.flatMap((result) =>
    result.unanswered === undefined ? [] : [result.unanswered],
  );
  const refusal = results.find((result) => result.refusal !== undefined)?.refusal;
  return {
    scan: {
      version,
      supported: suites.length > 0,
      suites,
      ...(suites.length === 0 && unansweredBundles.length === 0 && refusal !== undefined ? { refusal } : {}),
      ...(unansweredBundles.length > 0 ? { tested: false } : {}),
    },
    unanswered: unansweredBundles,
  };
}

const phaseWords: Record<TlsScanProgress['phase'], string> = {
  versions: 'Checking the protocol versions',
  suites: 'Listing the cipher suites',
  preference: "Reading the server's suite order",
  groups: 'Listing the key exchange groups',
  features: 'Checking the extensions',
  certificate: 'Reading the certificate',
  done: 'Finishing the scan',
};

/**
 * A probe's failure as a scan note in plain words: our NetErrors already name only what the user
 * typed; anything else (an errno, OpenSSL's error text) is put in words here, never quoted.
 */
function scanNote(
  target: CheckedTarget,
  phase: TlsScanProgress['phase'],
  version: ScannedVersion | undefined,
  error: unknown,
): string {
  const what = `${phaseWords[phase]}${version === undefined ? '' : ` (${version})`}`;
  if (error instanceof NetError) return `${what}: ${error.message}`;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return `${what}: ${connectFailure(target, code)}`;
  if (typeof code === 'string' && code.startsWith('ERR_SSL_'))
    return `${what}: ${tlsHandshakeFailure(target, error as { code: string; reason?: unknown })}`;
  return `${what}: the probe of ${target.host} on port ${target.urlPort} failed`;
}

class Scan {
  connections = 0;
  done = 0;
  total = 0;
  readonly notes: string[] = [];
  readonly slots: ConnectionSlots;
  readonly settings: ExchangeSettings;
  readonly share = x25519Share();
  readonly p256Share = new Uint8Array(createECDH('prime256v1').generateKeys());
  /** Facts from every legacy ServerHello seen, by version. */
  readonly helloFacts = new Map<
    TlsVersionName,
    { renegotiation: boolean; ticket: boolean; heartbeat: boolean; ems: boolean; status: boolean }
  >();
  /** The first Certificate message a probe read for each kind of suite authentication (RSA, ECDSA...). */
  readonly probeChains = new Map<string, Uint8Array[]>();
  readonly dhPrimeBits = new Set<number>();

  readonly serverName: string | undefined;
  private readonly progress: ((progress: TlsScanProgress) => void) | undefined;

  constructor(
    settings: Omit<ExchangeSettings, 'onConnection'>,
    serverName: string | undefined,
    maxConnections: number,
    progress: ((progress: TlsScanProgress) => void) | undefined,
  ) {
    this.settings = {
      ...settings,
      onConnection: () => {
        this.connections++;
      },
    };
    this.serverName = serverName;
    this.progress = progress;
    this.slots = new ConnectionSlots(maxConnections);
  }

  report(phase: TlsScanProgress['phase'], version?: ScannedVersion): void {
    this.progress?.({
      phase,
      ...(version === undefined ? {} : { version }),
      done: this.done,
      total: this.total,
    });
  }

  hello(options: Omit<ClientHelloOptions, 'serverName'>): Uint8Array {
    const built = buildClientHello({
      ...options,
      ...(this.serverName === undefined ? {} : { serverName: this.serverName }),
    });
    if (!built.ok) throw new Error(built.error);
    return built.result;
  }

  /** One probe through a connection slot; a probe that fails to connect mid-scan is a note, not an end. */
  async probe(
    phase: TlsScanProgress['phase'],
    version: ScannedVersion | undefined,
    send: () => Promise<ProbeAnswer>,
  ): Promise<ProbeAnswer | undefined> {
    this.total++;
    this.report(phase, version);
    try {
      return await this.slots.run(async () => {
        if (this.settings.signal.aborted) return undefined;
        return await send();
      });
    } catch (error) {
      if (this.settings.signal.aborted) return undefined;
      this.notes.push(scanNote(this.settings.target, phase, version, error));
      return undefined;
    } finally {
      this.done++;
      this.report(phase, version);
    }
  }

  legacyHello(
    version: TlsVersionName,
    suites: readonly number[],
    extra: Partial<ClientHelloOptions> = {},
  ): Uint8Array {
    return this.hello({
      version,
      cipherSuites: suites,
      groups: [...EC_GROUPS, ...FFDHE_GROUPS],
      statusRequest: true,
      sessionTicket: true,
      heartbeat: true,
      ...extra,
    });
  }

  tls13Hello(suites: readonly number[], extra: Partial<ClientHelloOptions> = {}): Uint8Array {
    return this.hello({
      version: 'TLSv1.3',
      cipherSuites: suites,
      supportedVersions: [protocolVersions['TLSv1.3']],
      groups: TLS13_GROUPS,
      keyShares: [{ group: namedGroups.x25519, keyExchange: this.share }],
      ...extra,
    });
  }

  remember(version: TlsVersionName, answer: ProbeAnswer & { kind: 'hello' }): ScannedSuite {
    const { hello } = answer;
    const facts = this.helloFacts.get(version) ?? {
      renegotiation: false,
      ticket: false,
      heartbeat: false,
      ems: false,
      status: false,
    };
    if (version !== 'TLSv1.3') {
      facts.renegotiation ||= hello.renegotiationInfo !== undefined;
      facts.ticket ||= hello.sessionTicket;
      facts.heartbeat ||= hello.heartbeat !== undefined;
      facts.ems ||= hello.extendedMasterSecret;
      facts.status ||= hello.statusRequest;
      this.helloFacts.set(version, facts);
      const authentication = suiteByCode(hello.cipherSuite)?.authentication ?? '';
      if (answer.certificates !== undefined && !this.probeChains.has(authentication))
        this.probeChains.set(authentication, answer.certificates);
    }
    const suite = scannedSuite(hello.cipherSuite);
    const ske = answer.keyExchange;
    if (ske?.kind === 'dhe') {
      suite.keyExchange = { dhBits: ske.primeBits };
      this.dhPrimeBits.add(ske.primeBits);
    } else if (ske?.kind === 'ecdhe' && ske.group !== undefined)
      suite.keyExchange = { group: groupName(ske.group) ?? `0x${ske.group.toString(16)}` };
    else if (ske?.kind === 'rsa') suite.keyExchange = { rsaExportBits: ske.modulusBits };
    else if (version === 'TLSv1.3' && hello.keyShare !== undefined)
      suite.keyExchange = {
        group: groupName(hello.keyShare.group) ?? `0x${hello.keyShare.group.toString(16)}`,
      };
    return suite;
  }

  /**
   * Offer, read the choice, remove it, repeat — within one bundle. A probe that got no answer in
   * time (or could not connect) proves nothing: the suites still to ask about are `unanswered`.
   */
  async enumerateBundle(version: TlsVersionName, bundle: readonly number[]): Promise<BundleResult> {
    const remaining = [...bundle];
    const found: ScannedSuite[] = [];
    const wanted = protocolVersions[version];
    while (remaining.length > 0) {
      if (this.settings.signal.aborted) return { suites: found, unanswered: remaining };
      const hello = version === 'TLSv1.3' ? this.tls13Hello(remaining) : this.legacyHello(version, remaining);
      const answer = await this.probe('suites', version, () =>
        exchange(this.settings, hello, { stop: version === 'TLSv1.3' ? 'server-hello' : 'hello-done' }),
      );
      if (answer === undefined || unanswered(answer)) return { suites: found, unanswered: remaining };
      if (
        answer.kind !== 'hello' ||
        answer.hello.version !== wanted ||
        !remaining.includes(answer.hello.cipherSuite)
      ) {
        return { suites: found, refusal: describeRefusal(answer) };
      }
      found.push(this.remember(version, answer));
      remaining.splice(remaining.indexOf(answer.hello.cipherSuite), 1);
    }
    return { suites: found };
  }

  async scanVersion(version: TlsVersionName): Promise<VersionAttempt> {
    const bundles = chunks(
      version === 'TLSv1.3' ? TLS13_SUITES : LEGACY_SUITES,
      version === 'SSLv3' ? SSL3_BUNDLE_SIZE : BUNDLE_SIZE,
    );
    const results = await Promise.all(bundles.map((bundle) => this.enumerateBundle(version, bundle)));
    return versionAttempt(version, [], results);
  }

  async scanSsl2(): Promise<VersionAttempt> {
    const kinds = Object.values(ssl2CipherKinds);
    const built = buildSsl2ClientHello({ cipherKinds: kinds });
    if (!built.ok) throw new Error(built.error);
    const answer = await this.probe('versions', 'SSLv2', () => exchangeSsl2(this.settings, built.result));
    if (answer === undefined || unanswered(answer))
      return { scan: { version: 'SSLv2', supported: false, suites: [], tested: false }, unanswered: [kinds] };
    if (
      answer.kind !== 'ssl2' ||
      answer.message.kind !== 'server-hello' ||
      answer.message.cipherKinds.length === 0
    )
      return {
        scan: { version: 'SSLv2', supported: false, suites: [], refusal: describeRefusal(answer) },
        unanswered: [],
      };
    const message = answer.message;
    return {
      scan: {
        version: 'SSLv2',
        supported: true,
        suites: message.cipherKinds.map((kind, index) => ({
          code: kind,
          hex: `0x${[kind >> 16, (kind >> 8) & 0xff, kind & 0xff].map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join(',0x')}`,
          name: message.cipherNames[index] ?? 'UNKNOWN',
          openssl: null,
        })),
      },
      unanswered: [],
    };
  }

  /**
   * Asks again, one probe at a time, what got no answer while several connections were open: a
   * server that handles one connection at a time (openssl s_server) or is overloaded leaves
   * probes waiting past their time, and that silence must not read as a refusal.
   */
  async retry(attempt: VersionAttempt): Promise<VersionAttempt> {
    if (attempt.unanswered.length === 0) return attempt;
    const { version } = attempt.scan;
    if (version === 'SSLv2') {
      const again = await this.scanSsl2();
      // silence to an SSL 2.0 hello even on its own is a server that does not speak it (it reads
      // the two-byte header as something else and waits): sslscan and testssl.sh read it as
      // "not offered" too, and a TLS-only server must not go ungraded for ignoring SSL 2.0
      return again.unanswered.length === 0
        ? again
        : {
            scan: {
              version: 'SSLv2',
              supported: false,
              suites: [],
              refusal: SSL2_SILENCE,
            },
            unanswered: [],
          };
    }
    const results: BundleResult[] = [];
    for (const [index, bundle] of attempt.unanswered.entries()) {
      const result = await this.enumerateBundle(version, bundle);
      results.push(result);
      // still silent on its own: the other bundles of this version would be too
      if (result.unanswered !== undefined) {
        results.push(
          ...attempt.unanswered.slice(index + 1).map((rest) => ({ suites: [], unanswered: rest })),
        );
        break;
      }
    }
    return versionAttempt(version, attempt.scan.suites, results);
  }

  /** Which suite the server picks from `codes`, or undefined. */
  async pick(version: TlsVersionName, codes: readonly number[]): Promise<number | undefined> {
    const hello = version === 'TLSv1.3' ? this.tls13Hello(codes) : this.legacyHello(version, codes);
    const answer = await this.probe('preference', version, () =>
      exchange(this.settings, hello, { stop: 'server-hello' }),
    );
    return answer?.kind === 'hello' && codes.includes(answer.hello.cipherSuite)
      ? answer.hello.cipherSuite
      : undefined;
  }

  /** Forward and reversed lists pick the same suite: the server's order rules; then read that order whole. */
  async preference(scan: VersionScan): Promise<VersionScan> {
    if (scan.version === 'SSLv2' || scan.suites.length < 2) return scan;
    const version = scan.version;
    const codes = scan.suites.map((suite) => suite.code).slice(0, BUNDLE_SIZE);
    const [forward, reversed] = await Promise.all([
      this.pick(version, codes),
      this.pick(version, [...codes].reverse()),
    ]);
    if (forward === undefined || reversed === undefined) return scan;
    if (forward !== reversed) return { ...scan, preference: 'client' };
    const order = [forward];
    const remaining = codes.filter((code) => code !== forward);
    while (remaining.length > 1 && !this.settings.signal.aborted) {
      const next = await this.pick(version, remaining);
      if (next === undefined) break;
      order.push(next);
      remaining.splice(remaining.indexOf(next), 1);
    }
    order.push(...remaining);
    const byCode = new Map(scan.suites.map((suite) => [suite.code, suite]));
    const ordered = order.map((code) => byCode.get(code)).filter((suite) => suite !== undefined);
    const rest = scan.suites.filter((suite) => !order.includes(suite.code));
    return { ...scan, preference: 'server', suites: [...ordered, ...rest] };
  }

  /**
   * One full handshake by Node for the certificate, its verification, ALPN and OCSP stapling;
   * `restriction` asks for the certificate of one key type. A failure is the error, for a note.
   */
  async certificateHandshake(
    restriction?: HandshakeRestriction,
  ): Promise<{ result: TlsHandshakeResult } | { error: unknown }> {
    return this.slots.run(async () => {
      this.total++;
      this.report('certificate');
      try {
        const connection = await openConnection(this.settings);
        const result = await connection.handshake({
          ...(this.serverName === undefined ? {} : { servername: this.serverName }),
          alpn: ['h2', 'http/1.1'],
          ...(restriction === undefined ? {} : { restriction }),
          timeoutMs: this.settings.timeoutMs,
        });
        return { result };
      } catch (error) {
        return { error };
      } finally {
        this.done++;
        this.report('certificate');
      }
    });
  }

  /**
   * The certificates of the other key types the server serves, beside `primary`: from a handshake
   * that asks for each type, or else from a probe's Certificate message of a suite of that type.
   */
  async otherCertificates(
    primary: CertificateScan,
    requests: ReadonlyMap<ServerKeyType, HandshakeRestriction>,
    anchors: readonly string[],
  ): Promise<CertificateScan[]> {
    const found: CertificateScan[] = [];
    const known = (certificate: CertificateScan) =>
      [primary, ...found].some(
        (other) => other.chain[0]?.fingerprint256 === certificate.chain[0]?.fingerprint256,
      );
    for (const [type, restriction] of requests) {
      if (this.settings.signal.aborted) break;
      if (keyTypeOf(primary) === type) continue;
      const handshake = await this.certificateHandshake(restriction);
      const fromHandshake =
        'result' in handshake ? certificateFromHandshake(handshake.result.report) : undefined;
      const probeChain = [...this.probeChains.values()].find(
        (chain) => chain[0] !== undefined && keyTypeOfDer(chain[0]) === type,
      );
      const certificate =
        fromHandshake !== undefined && keyTypeOf(fromHandshake) === type
          ? fromHandshake
          : probeChain === undefined
            ? undefined
            : certificateFromProbe(probeChain, this.settings.target.host, anchors);
      if (certificate !== undefined && !known(certificate)) found.push(certificate);
      else if (certificate === undefined && 'error' in handshake)
        this.notes.push(scanNote(this.settings.target, 'certificate', undefined, handshake.error));
    }
    return found;
  }

  /**
   * ECDHE groups in TLS 1.2 and below, read from ServerKeyExchange, offering fewer each time.
   * `complete` only when the server refused the last offer (an alert or a close): a probe with
   * no answer or no ServerKeyExchange in time leaves the rest not learnt.
   */
  async legacyGroups(version: TlsVersionName, ecdheSuites: readonly number[]): Promise<GroupList> {
    const remaining = [...EC_GROUPS];
    const found: string[] = [];
    while (remaining.length > 0) {
      if (this.settings.signal.aborted) return { found, complete: false };
      const hello = this.legacyHello(version, ecdheSuites, { groups: remaining });
      const answer = await this.probe('groups', version, () =>
        exchange(this.settings, hello, { stop: 'hello-done' }),
      );
      const ske = answer?.kind === 'hello' ? answer.keyExchange : undefined;
      if (ske?.kind !== 'ecdhe' || ske.group === undefined || !remaining.includes(ske.group))
        return { found, complete: answer !== undefined && refused(answer) };
      found.push(groupName(ske.group) ?? `0x${ske.group.toString(16)}`);
      remaining.splice(remaining.indexOf(ske.group), 1);
    }
    return { found, complete: true };
  }

  /**
   * The signature schemes a TLS 1.2 server signs its ServerKeyExchange with (RFC 5246
   * §7.4.1.4.1), offering fewer each time until it signs with none of those left. Undefined when
   * the first probe's answer showed no signature and refused nothing.
   */
  async signatureSchemes(signedSuites: readonly number[]): Promise<string[] | undefined> {
    const remaining = Object.values(signatureSchemes) as number[];
    const found: string[] = [];
    while (remaining.length > 0 && !this.settings.signal.aborted) {
      const hello = this.legacyHello('TLSv1.2', signedSuites, { signatureAlgorithms: remaining });
      const answer = await this.probe('features', 'TLSv1.2', () =>
        exchange(this.settings, hello, { stop: 'hello-done' }),
      );
      const scheme = answer?.kind === 'hello' ? answer.keyExchange?.signature?.scheme : undefined;
      // nothing learnt and nothing refused (no answer, no ServerKeyExchange in time): not "none"
      if (scheme === undefined && found.length === 0 && (answer === undefined || !refused(answer)))
        return undefined;
      if (scheme === undefined || !remaining.includes(scheme)) break;
      found.push(signatureSchemeName(scheme) ?? `0x${scheme.toString(16).padStart(4, '0')}`);
      remaining.splice(remaining.indexOf(scheme), 1);
    }
    return found;
  }

  /**
   * The signature schemes a TLS 1.3 server can sign its CertificateVerify with. It picks the
   * scheme while reading the ClientHello (RFC 8446 §4.2.3, §4.4.3), so a hello offering one scheme
   * is answered with a ServerHello when it can sign with it and with a handshake_failure alert
   * when not — as testssl.sh asks. The hello offers only the groups it holds shares for, so that
   * no HelloRetryRequest (whose place before or after the choice is up to the server) blurs the
   * answer. Undefined when the answers cannot tell: a HelloRetryRequest or no answer at all.
   */
  async tls13SignatureSchemes(suites: readonly number[]): Promise<string[] | undefined> {
    const schemes = Object.values(signatureSchemes) as number[];
    const answers = await Promise.all(
      schemes.map((scheme) =>
        this.probe('features', 'TLSv1.3', () =>
          exchange(
            this.settings,
            this.tls13Hello(suites, {
              signatureAlgorithms: [scheme],
              groups: [namedGroups.x25519, namedGroups.secp256r1],
              keyShares: [
                { group: namedGroups.x25519, keyExchange: this.share },
                { group: namedGroups.secp256r1, keyExchange: this.p256Share },
              ],
            }),
            { stop: 'server-hello' },
          ),
        ),
      ),
    );
    const unclear = answers.some(
      (answer) => answer === undefined || (answer.kind === 'hello' && answer.hello.helloRetryRequest),
    );
    if (unclear || !answers.some((answer) => answer?.kind === 'alert' || answer?.kind === 'hello'))
      return undefined;
    return schemes
      .filter((_, index) => {
        const answer = answers[index];
        return (
          answer?.kind === 'hello' &&
          !answer.hello.helloRetryRequest &&
          answer.hello.version === protocolVersions['TLSv1.3']
        );
      })
      .map((scheme) => signatureSchemeName(scheme) ?? `0x${scheme.toString(16).padStart(4, '0')}`);
  }

  /** TLS 1.3 groups: with no key share the server must name its choice in a HelloRetryRequest. */
  async tls13Groups(suites: readonly number[]): Promise<GroupList> {
    const remaining = [...TLS13_GROUPS];
    const found: string[] = [];
    while (remaining.length > 0) {
      if (this.settings.signal.aborted) return { found, complete: false };
      const hello = this.tls13Hello(suites, { groups: remaining, keyShares: [] });
      const answer = await this.probe('groups', 'TLSv1.3', () =>
        exchange(this.settings, hello, { stop: 'server-hello' }),
      );
      const group = answer?.kind === 'hello' ? answer.hello.keyShare?.group : undefined;
      if (group === undefined || !remaining.includes(group))
        return { found, complete: answer !== undefined && refused(answer) };
      found.push(groupName(group) ?? `0x${group.toString(16)}`);
      remaining.splice(remaining.indexOf(group), 1);
    }
    return { found, complete: true };
  }
}

function tri(value: boolean | undefined): TriState {
  return value === undefined ? 'unknown' : value ? 'yes' : 'no';
}

/** What a caIssuers fetch may take: a certificate is a few KB, its server a CA's. */
const ISSUER_FETCH_LIMITS = { maxBodyBytes: 64 * 1024, totalTimeoutMs: 5000, maxRedirects: 3 };

/** Fetches a missing intermediate through the guarded outbound layer, as a browser would. */
async function fetchIssuer(net: NetSession, url: string, signal: AbortSignal): ReturnType<IssuerFetcher> {
  if (!/^https?:\/\//i.test(url)) return { failure: `${url} is not an http or https address` };
  try {
    const response = await net.fetch(url, { limits: ISSUER_FETCH_LIMITS, signal });
    if (response.status !== 200) return { failure: `${url} answered HTTP ${response.status}` };
    const certificate = issuerCertificateOf(response.body);
    return certificate === undefined
      ? { failure: `${url} did not answer with a certificate (DER or PEM)` }
      : { certificate };
  } catch (error) {
    return { failure: error instanceof NetError ? error.message : `${url} could not be fetched` };
  }
}

/**
 * Scans one TLS server (optionally behind STARTTLS) through `net`, within the budget and the
 * connection cap. Throws a NetError when the target is refused, unreachable or does not speak
 * TLS at all; otherwise returns a report, marked incomplete when the budget ran out.
 */
export async function scanTls(
  net: NetSession,
  target: TlsScanTarget,
  options: TlsScanOptions = {},
): Promise<TlsScanReport> {
  const started = performance.now();
  const budgetMs = options.budgetMs ?? DEFAULTS.budgetMs;
  const budget = AbortSignal.timeout(budgetMs);
  const signal = options.signal === undefined ? budget : AbortSignal.any([budget, options.signal]);
  const checked = await net.probe.target(target.host, target.port, signal);
  const scan = new Scan(
    {
      probe: net.probe,
      target: checked,
      starttls: target.starttls,
      host: checked.host,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      signal,
    },
    checked.isName ? checked.host : undefined,
    options.maxConnections ?? DEFAULTS.maxConnections,
    options.onProgress,
  );

  // the first probe alone: a closed port, a server that is not TLS or never answers ends the scan here
  const settings = scan.settings;
  const first = await exchange(
    settings,
    scan.tls13Hello([...TLS13_SUITES, ...LEGACY_SUITES.slice(0, BUNDLE_SIZE - TLS13_SUITES.length)], {
      supportedVersions: [
        protocolVersions['TLSv1.3'],
        protocolVersions['TLSv1.2'],
        protocolVersions['TLSv1.1'],
        protocolVersions['TLSv1.0'],
      ],
    }),
    { stop: 'server-hello' },
  ).catch((error: unknown) => {
    if (signal.aborted && !(error instanceof NetError))
      throw new NetError(
        'TIMEOUT',
        `The scan of ${checked.host}:${target.port} took longer than its ${budgetMs} ms budget`,
      );
    throw error;
  });
  if (first.kind === 'not-tls') {
    const hint = target.starttls === undefined ? starttlsHint(first.sample) : undefined;
    throw new NetError(
      'PROTOCOL_ERROR',
      `${checked.host}:${target.port} does not speak TLS: it answered "${first.sample}"${hint === undefined ? '' : `; ${hint}`}`,
    );
  }
  if (first.kind === 'silent' && first.end === 'timeout')
    throw new NetError(
      'FIRST_BYTE_TIMEOUT',
      `${checked.host}:${target.port} sent no answer to a TLS ClientHello within ${settings.timeoutMs} ms`,
    );

  scan.report('versions');
  const firstAttempts = await Promise.all([
    scan.scanSsl2(),
    ...LEGACY_VERSIONS.map((version) => scan.scanVersion(version)),
    scan.scanVersion('TLSv1.3'),
  ]);
  const attempts: VersionAttempt[] = [];
  for (const attempt of firstAttempts) attempts.push(await scan.retry(attempt));
  const recovered = firstAttempts.some(
    (attempt, index) =>
      attempt.unanswered.length > (attempts[index]?.unanswered.length ?? 0) &&
      attempts[index]?.scan.refusal !== SSL2_SILENCE,
  );
  if (recovered) {
    // it answered alone what it left unanswered beside other connections: one at a time from here
    scan.slots.narrow(1);
    scan.notes.push(
      `${checked.host} left some probes unanswered while several connections were open and answered them one at a time, so the rest of the scan used one connection at a time.`,
    );
  }
  const untested = attempts.filter((attempt) => attempt.unanswered.length > 0).map((attempt) => attempt.scan);
  const silentVersions = untested.filter((version) => !version.supported).map((version) => version.version);
  const partialVersions = untested.filter((version) => version.supported).map((version) => version.version);
  // at the budget the scan's own time ran out, not the server's: the budget note says so
  if (silentVersions.length > 0 && !signal.aborted)
    scan.notes.push(
      `${silentVersions.map(protocolLabel).join(', ')} could not be tested: the server sent no answer within ${settings.timeoutMs} ms, even to a probe on its own, so whether ${silentVersions.length === 1 ? 'it is' : 'they are'} accepted is unknown.`,
    );
  if (partialVersions.length > 0 && !signal.aborted)
    scan.notes.push(
      `Some cipher suites of ${partialVersions.map(protocolLabel).join(', ')} could not be tested: the server sent no answer within ${settings.timeoutMs} ms, even to a probe on its own, so it may accept more suites than listed.`,
    );
  const versions = await Promise.all(attempts.map((attempt) => scan.preference(attempt.scan)));
  const supported = (name: string) =>
    versions.find((version) => version.version === name && version.supported);
  const bestLegacy = [...LEGACY_VERSIONS].reverse().find((name) => supported(name) !== undefined);
  const legacySuites =
    bestLegacy === undefined ? [] : (supported(bestLegacy)?.suites ?? []).map((suite) => suite.code);
  const tls13 = supported('TLSv1.3');

  // groups, compression, fallback, heartbeat and the certificate, side by side
  const ecdhe = legacySuites.filter((code) => suiteByCode(code)?.keyExchange === 'ECDHE');
  const tlsVersionsSupported = [...LEGACY_VERSIONS, 'TLSv1.3' as const].filter(
    (name) => supported(name) !== undefined,
  );
  const fallbackVersion = tlsVersionsSupported.length >= 2 ? tlsVersionsSupported.at(-2) : undefined;
  const facts = [...scan.helloFacts.values()];
  const heartbeatVersion = LEGACY_VERSIONS.find((name) => scan.helloFacts.get(name)?.heartbeat);
  const ccsVersion = CCS_PROBE_VERSIONS.find((name) => supported(name) !== undefined);

  // suites whose ServerKeyExchange is signed: ECDHE and DHE with a certificate
  const signed = (supported('TLSv1.2')?.suites ?? [])
    .map((suite) => suite.code)
    .filter((code) => {
      const suite = suiteByCode(code);
      return (
        suite !== undefined &&
        /^(ECDHE|DHE)$/.test(suite.keyExchange) &&
        /^(RSA|ECDSA|DSS)$/.test(suite.authentication)
      );
    });

  const [
    tls12GroupList,
    tls13GroupList,
    schemes,
    tls13Schemes,
    compression,
    fallback,
    heartbleed,
    earlyCcs,
    certificate,
  ] = await Promise.all([
    bestLegacy !== undefined && ecdhe.length > 0
      ? scan.legacyGroups(bestLegacy, ecdhe)
      : Promise.resolve<GroupList>({ found: [], complete: true }),
    tls13
      ? scan.tls13Groups(tls13.suites.map((suite) => suite.code))
      : Promise.resolve<GroupList>({ found: [], complete: true }),
    signed.length > 0 ? scan.signatureSchemes(signed) : Promise.resolve(undefined),
    tls13 ? scan.tls13SignatureSchemes(tls13.suites.map((suite) => suite.code)) : Promise.resolve(undefined),
    bestLegacy !== undefined
      ? scan
          .probe('features', bestLegacy, () =>
            exchange(settings, scan.legacyHello(bestLegacy, legacySuites, { compressionMethods: [1, 0] }), {
              stop: 'server-hello',
            }),
          )
          .then((answer) => (answer?.kind === 'hello' ? answer.hello.compressionMethod !== 0 : undefined))
      : Promise.resolve(false),
    fallbackVersion !== undefined && fallbackVersion !== 'TLSv1.3'
      ? scan
          .probe('features', fallbackVersion, () =>
            exchange(
              settings,
              scan.legacyHello(
                fallbackVersion,
                (supported(fallbackVersion)?.suites ?? []).map((suite) => suite.code),
                { fallbackScsv: true },
              ),
              { stop: 'server-hello' },
            ),
          )
          .then((answer): TriState => {
            if (answer?.kind === 'alert')
              return answer.alert.description === alertDescriptions.inappropriate_fallback
                ? 'yes'
                : 'unknown';
            if (answer?.kind === 'hello') return 'no';
            return 'unknown';
          })
      : Promise.resolve<TriState>('not-applicable'),
    heartbeatVersion !== undefined
      ? scan
          .probe('features', heartbeatVersion, () =>
            exchange(
              settings,
              scan.legacyHello(
                heartbeatVersion,
                (supported(heartbeatVersion)?.suites ?? []).map((suite) => suite.code),
              ),
              { stop: 'hello-done', heartbeat: true },
            ),
          )
          .then((answer) => (answer?.kind === 'hello' ? answer.heartbleed : undefined))
      : Promise.resolve(undefined),
    ccsVersion !== undefined
      ? scan
          .probe('features', ccsVersion, () =>
            exchange(
              settings,
              scan.legacyHello(
                ccsVersion,
                (supported(ccsVersion)?.suites ?? []).map((suite) => suite.code),
              ),
              { stop: 'hello-done', earlyCcs: true },
            ),
          )
          .then((answer) => earlyCcsProbe(ccsVersion, answer))
      : Promise.resolve(undefined),
    scan.certificateHandshake().then((handshake) => {
      if ('result' in handshake) return handshake.result;
      scan.notes.push(scanNote(checked, 'certificate', undefined, handshake.error));
      return undefined;
    }),
  ]);

  const legacySupported = bestLegacy !== undefined;
  const features: FeatureScan = {
    alpn: certificate?.report.alpnProtocol ?? null,
    ocspStapling:
      certificate !== undefined
        ? tri(certificate.ocspResponse !== undefined)
        : facts.some((fact) => fact.status)
          ? 'yes'
          : 'unknown',
    secureRenegotiation: legacySupported
      ? tri(facts.every((fact) => fact.renegotiation))
      : tls13
        ? 'not-applicable'
        : 'unknown',
    fallbackScsv: fallback,
    compression: legacySupported ? tri(compression) : tls13 ? 'not-applicable' : 'unknown',
    sessionTickets:
      facts.some((fact) => fact.ticket) || certificate?.sessionTicket === true
        ? 'yes'
        : legacySupported || certificate !== undefined
          ? 'no'
          : 'unknown',
    heartbeat: legacySupported
      ? tri(facts.some((fact) => fact.heartbeat))
      : tls13
        ? 'not-applicable'
        : 'unknown',
    extendedMasterSecret: legacySupported
      ? tri(facts.every((fact) => fact.ems))
      : tls13
        ? 'not-applicable'
        : 'unknown',
  };
  const probeChain = scan.probeChains.values().next().value;
  const readCertificate =
    certificate !== undefined
      ? certificateFromHandshake(certificate.report)
      : probeChain !== undefined
        ? certificateFromProbe(probeChain, checked.host, net.probe.trustAnchors)
        : undefined;
  // a server with RSA and ECDSA certificates: each is read, checked and graded
  const readCertificates =
    readCertificate === undefined
      ? []
      : [
          readCertificate,
          ...(await scan.otherCertificates(
            readCertificate,
            certificateRequests(versions, tls13Schemes),
            net.probe.trustAnchors,
          )),
        ];
  const certificateScans: CertificateScan[] = [];
  for (const read of readCertificates) {
    const completed = await completeChain(read, net.probe.trustAnchors, (url) =>
      fetchIssuer(net, url, signal),
    );
    scan.notes.push(...completed.notes);
    certificateScans.push(completed.scan);
  }
  const certificateScan = certificateScans[0];
  const dhPrimeBits = [...scan.dhPrimeBits].sort((a, b) => a - b);
  scan.report('done');
  if (budget.aborted)
    scan.notes.push(`The scan stopped at its ${budgetMs} ms budget; the results are incomplete.`);
  const unansweredGroups = [
    ...(tls12GroupList.complete ? [] : (['tls12'] as const)),
    ...(tls13GroupList.complete ? [] : (['tls13'] as const)),
  ];
  if (unansweredGroups.length > 0 && !signal.aborted)
    scan.notes.push(
      `The key exchange groups of ${unansweredGroups.map((list) => (list === 'tls12' ? 'TLS 1.2 and below' : 'TLS 1.3')).join(' and of ')} were not all learnt: the server did not show the group it chose for a probe within ${settings.timeoutMs} ms.`,
    );
  return {
    host: checked.host,
    port: target.port,
    ...(target.starttls === undefined ? {} : { starttls: target.starttls }),
    address: checked.addresses[0] ?? '',
    versions,
    groups: {
      tls12: tls12GroupList.found,
      tls13: tls13GroupList.found,
      dhPrimeBits,
      ...(unansweredGroups.length > 0 ? { unanswered: unansweredGroups } : {}),
    },
    ...(schemes === undefined ? {} : { signatureAlgorithms: schemes }),
    ...(tls13Schemes === undefined ? {} : { tls13SignatureAlgorithms: tls13Schemes }),
    features,
    ...(certificateScan === undefined ? {} : { certificate: certificateScan }),
    certificates: certificateScans,
    vulnerabilities: vulnerabilities({
      versions,
      features,
      dhPrimeBits,
      heartbleed,
      earlyCcs,
      certificates: certificateScans,
    }),
    notes: scan.notes,
    incomplete: signal.aborted || untested.length > 0 || unansweredGroups.length > 0,
    stats: { connections: scan.connections, durationMs: Math.round(performance.now() - started) },
  };
}
