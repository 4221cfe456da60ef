// A signed DNS hierarchy for tests: a lab root, the TLD `test.` and domains beneath it, good and
// broken, signed at run time by BIND's dnssec-keygen and dnssec-signzone (Debian's bind9-utils).
// Where those are not installed (and not in CI), the zones recorded by
// scripts/record-dnssec-lab.ts from the same tools are served instead.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { hasProgram } from './tls-servers.ts';

const run = promisify(execFile);

/** The domains of the lab, by the case each stands for. */
export const dnssecLabNames = {
  root: '.',
  tld: 'test',
  /** NSEC, ECDSA P-256 (algorithm 13), separate KSK and ZSK. */
  secure: 'secure.test',
  /** NSEC3 with no salt and no extra iterations (RFC 9276), algorithm 13. */
  nsec3: 'nsec3.test',
  /** RSA/SHA-256 (algorithm 8) with a 2048-bit key, NSEC, and the wildcard `*.wild.rsa.test`. */
  rsa: 'rsa.test',
  /** A name the wildcard of rsa.test answers for. */
  wildcard: 'host.wild.rsa.test',
  /** NSEC3 with opt-out, over the unsigned delegation `child.optout.test`. */
  optout: 'optout.test',
  /** Delegated from optout.test without DS: insecure. */
  optoutChild: 'child.optout.test',
  /** Delegated from test. with NS and no DS: insecure. */
  unsigned: 'unsigned.test',
  /** Every RRSIG expired a day ago. */
  expired: 'expired.test',
  /** The DS in test. has a digest that matches no key. */
  wrongDs: 'wrongds.test',
  /** The DS in test. is of a key the zone does not publish. */
  missingKey: 'missingkey.test',
  /** The zone's RRSIGs are removed after signing. */
  stripped: 'stripped.test',
} as const;

export interface DnssecLabOptions {
  /**
   * Records added to a zone before it is signed, by zone (`'secure.test'`), one zone-file line
   * each with absolute names: `'_25._tcp.mx.secure.test. 300 IN TLSA 3 1 1 ab12…'`.
   */
  extraRecords?: Readonly<Record<string, readonly string[]>>;
}

export interface DnssecLab {
  /** The zones in presentation format, one record per line: `startDnsServer({ signedZones })`. */
  zones: string[];
  /** The lab root's DS records as `DNSSEC_TRUST_ANCHORS` reads them (`. IN DS …` lines). */
  trustAnchors: string;
  /** A file holding `trustAnchors`, for DNSSEC_TRUST_ANCHORS. */
  trustAnchorFile: string;
  names: typeof dnssecLabNames;
  /** Signed just now, or the recordings of packages/testlab/fixtures/dnssec-lab. */
  source: 'signed' | 'recorded';
}

export const DNSSEC_LAB_FIXTURES = fileURLToPath(new URL('../fixtures/dnssec-lab/', import.meta.url));
const TRUST_ANCHOR_FILE = 'trust-anchors.txt';
/** Ten years: recordings stay valid for as long as the repository is likely to be used. */
const VALIDITY_SECONDS = 315_360_000;
const DAY = 86_400;
const INSTALL = 'apt-get install bind9-utils';

/** `YYYYMMDDHHmmSS` in UTC, as dnssec-signzone takes absolute times. */
function stamp(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function fqdn(zone: string): string {
  return zone === '.' ? '.' : `${zone}.`;
}

interface ZonePlan {
  zone: string;
  keys: 'ksk+zsk' | 'csk' | 'none';
  algorithm?: 'ECDSAP256SHA256' | 'RSASHA256';
  denial?: 'nsec' | 'nsec3' | 'nsec3-optout';
  validity?: { start: number; end: number };
  records: string[];
}

/** The records every lab domain holds, so that the usual questions have answers. */
function domainRecords(zone: string): string[] {
  const z = fqdn(zone);
  return [
    `${z} 300 IN A 127.0.0.1`,
    `${z} 300 IN MX 10 mx.${z}`,
    `${z} 300 IN TXT "v=spf1 -all"`,
    `www.${z} 300 IN A 127.0.0.1`,
    `www.${z} 300 IN AAAA ::1`,
    `mx.${z} 300 IN A 127.0.0.1`,
    `alias.${z} 300 IN CNAME www.${z}`,
  ];
}

function apexRecords(zone: string): string[] {
  const z = fqdn(zone);
  const hostmaster = zone === '.' ? 'hostmaster.test.' : `hostmaster.${z}`;
  return [`${z} 300 IN SOA ns.test. ${hostmaster} 1 3600 900 604800 300`, `${z} 300 IN NS ns.test.`];
}

async function keygen(dir: string, zone: string, algorithm: string, ksk: boolean): Promise<string> {
  const args = ['-q', '-K', dir, '-a', algorithm, '-n', 'ZONE'];
  if (algorithm === 'RSASHA256') args.push('-b', '2048');
  if (ksk) args.push('-f', 'KSK');
  const { stdout } = await run('dnssec-keygen', [...args, fqdn(zone)]);
  return path.join(dir, stdout.trim());
}

async function dsOf(keyFile: string): Promise<string> {
  const { stdout } = await run('dnssec-dsfromkey', ['-2', `${keyFile}.key`]);
  return stdout.trim();
}

/** Signs one zone; returns its signed text and the DS of its key-signing key. */
async function signZone(
  dir: string,
  plan: ZonePlan,
  now: number,
): Promise<{ text: string; ds?: string; spareDs?: string }> {
  const file = path.join(dir, `${plan.zone === '.' ? 'root' : plan.zone}.zone`);
  const lines = [...apexRecords(plan.zone), ...plan.records];
  if (plan.keys === 'none') {
    await writeFile(file, `${lines.join('\n')}\n`);
    // the unsigned zone goes through no signer: the lab reads the same one-record-per-line form
    return { text: `${lines.join('\n')}\n` };
  }
  const algorithm = plan.algorithm ?? 'ECDSAP256SHA256';
  const ksk = await keygen(dir, plan.zone, algorithm, true);
  const zsk = plan.keys === 'ksk+zsk' ? await keygen(dir, plan.zone, algorithm, false) : undefined;
  const keyRecords = await Promise.all(
    [ksk, zsk].filter((key): key is string => key !== undefined).map((key) => readFile(`${key}.key`, 'utf8')),
  );
  await writeFile(
    file,
    `${[...lines, ...keyRecords.map((k) => k.replace(/^;.*$/gm, '').trim())].join('\n')}\n`,
  );
  const validity = plan.validity ?? { start: now - 3600, end: now + VALIDITY_SECONDS };
  const args = ['-q', '-K', dir, '-d', dir, '-O', 'full', '-o', fqdn(plan.zone), '-f', `${file}.signed`];
  args.push('-s', stamp(validity.start), '-e', stamp(validity.end));
  if (plan.denial === 'nsec3' || plan.denial === 'nsec3-optout') args.push('-3', '-', '-H', '0');
  if (plan.denial === 'nsec3-optout') args.push('-A');
  // an expired zone fails the signer's own check, which is the point of it
  if (validity.end < now) args.push('-P');
  if (zsk === undefined) args.push('-z');
  await run('dnssec-signzone', [...args, file, ksk, ...(zsk ? [zsk] : [])]);
  const text = await readFile(`${file}.signed`, 'utf8');
  return { text, ds: await dsOf(ksk) };
}

/** Changes the last digit of a DS record's digest, so that it matches no key. */
function alterDigest(ds: string): string {
  const last = ds.at(-1)!;
  return `${ds.slice(0, -1)}${last === '0' ? '1' : '0'}`;
}

/** Only the records, one per line: the signer's comments and blank lines go. */
function recordsOnly(text: string): string {
  return `${text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith(';'))
    .join('\n')}\n`;
}

/** Builds and signs the hierarchy in a temporary folder; `now` in seconds. */
export async function signDnssecLab(
  options: DnssecLabOptions = {},
  now = Math.floor(Date.now() / 1000),
): Promise<DnssecLab> {
  const n = dnssecLabNames;
  const extra = (zone: string) => [...(options.extraRecords?.[zone] ?? [])];
  const dir = await mkdtemp(path.join(tmpdir(), 'rfckit-dnssec-lab-'));
  try {
    const domain = (zone: string, plan: Partial<ZonePlan>): ZonePlan => ({
      zone,
      keys: 'csk',
      denial: 'nsec',
      ...plan,
      records: [...domainRecords(zone), ...(plan.records ?? []), ...extra(zone)],
    });
    const plans = [
      domain(n.secure, { keys: 'ksk+zsk' }),
      domain(n.nsec3, { denial: 'nsec3' }),
      domain(n.rsa, {
        algorithm: 'RSASHA256',
        records: [`*.wild.${n.rsa}. 300 IN A 127.0.0.1`, `*.wild.${n.rsa}. 300 IN TXT "wildcard"`],
      }),
      domain(n.optout, { denial: 'nsec3-optout', records: [`${n.optoutChild}. 300 IN NS ns.test.`] }),
      domain(n.optoutChild, { keys: 'none' }),
      domain(n.unsigned, { keys: 'none' }),
      domain(n.expired, { validity: { start: now - 30 * DAY, end: now - DAY } }),
      domain(n.wrongDs, {}),
      domain(n.missingKey, {}),
      domain(n.stripped, {}),
    ];
    const signed = new Map<string, { text: string; ds?: string }>();
    // two at a time: the machine's cores are shared
    for (let i = 0; i < plans.length; i += 2) {
      const pair = plans.slice(i, i + 2);
      const results = await Promise.all(pair.map((plan) => signZone(dir, plan, now)));
      pair.forEach((plan, j) => signed.set(plan.zone, results[j]!));
    }
    const stripped = signed.get(n.stripped)!;
    stripped.text = stripped.text
      .split('\n')
      .filter((line) => !/\sIN\s+RRSIG\s/.test(line))
      .join('\n');
    const spare = await keygen(dir, n.missingKey, 'ECDSAP256SHA256', true);
    const delegations = plans
      .filter((plan) => plan.zone !== n.optoutChild)
      .flatMap((plan) => {
        const lines = [`${plan.zone}. 300 IN NS ns.test.`];
        const ds = signed.get(plan.zone)?.ds;
        if (plan.zone === n.wrongDs && ds) lines.push(alterDigest(ds));
        else if (plan.zone !== n.missingKey && ds) lines.push(ds);
        return lines;
      });
    delegations.push(await dsOf(spare));
    const tld = await signZone(
      dir,
      {
        zone: n.tld,
        keys: 'csk',
        denial: 'nsec',
        records: ['ns.test. 300 IN A 127.0.0.1', ...delegations, ...extra(n.tld)],
      },
      now,
    );
    const root = await signZone(
      dir,
      {
        zone: '.',
        keys: 'ksk+zsk',
        denial: 'nsec',
        records: ['test. 300 IN NS ns.test.', tld.ds!, ...extra('.')],
      },
      now,
    );
    const trustAnchors = `; the lab root's key-signing key, by dnssec-dsfromkey -2\n${root.ds!}\n`;
    const zones = [root.text, tld.text, ...plans.map((plan) => signed.get(plan.zone)!.text)].map(recordsOnly);
    const trustAnchorFile = await keepTrustAnchors(trustAnchors);
    return { zones, trustAnchors, trustAnchorFile, names: dnssecLabNames, source: 'signed' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Writes the anchors where they outlive the signing folder: the app reads DNSSEC_TRUST_ANCHORS
 * for as long as it runs. One folder for every run, named by content, emptied of files older
 * than a day, so that runs do not pile up files.
 */
async function keepTrustAnchors(trustAnchors: string): Promise<string> {
  const folder = path.join(tmpdir(), 'rfckit-dnssec-anchors');
  await mkdir(folder, { recursive: true });
  for (const entry of await readdir(folder)) {
    const file = path.join(folder, entry);
    const stats = await stat(file).catch(() => undefined);
    if (stats && Date.now() - stats.mtimeMs > DAY * 1000) await rm(file, { force: true });
  }
  const digest = createHash('sha256').update(trustAnchors).digest('hex').slice(0, 16);
  const file = path.join(folder, `${digest}.txt`);
  await writeFile(file, trustAnchors);
  return file;
}

/** The zones recorded by scripts/record-dnssec-lab.ts. */
export async function recordedDnssecLab(): Promise<DnssecLab> {
  const files = (await readdir(DNSSEC_LAB_FIXTURES)).filter((file) => file.endsWith('.zone')).sort();
  const zones = await Promise.all(
    files.map((file) => readFile(path.join(DNSSEC_LAB_FIXTURES, file), 'utf8')),
  );
  const trustAnchorFile = path.join(DNSSEC_LAB_FIXTURES, TRUST_ANCHOR_FILE);
  const trustAnchors = await readFile(trustAnchorFile, 'utf8');
  return { zones, trustAnchors, trustAnchorFile, names: dnssecLabNames, source: 'recorded' };
}

const built = new Map<string, Promise<DnssecLab>>();

/**
 * The signed lab hierarchy, signed once per process for each set of `extraRecords`. Serve it and
 * point the app at its root:
 *
 * ```ts
 * const lab = await buildDnssecLab({ extraRecords: { 'secure.test': ['_25._tcp.mx.secure.test. 300 IN TLSA 3 1 1 …'] } });
 * const dns = await startDnsServer({ zones: {}, signedZones: lab.zones });
 * const env = { ...labEnv({ dns }), DNSSEC_TRUST_ANCHORS: lab.trustAnchorFile };
 * ```
 *
 * Without dnssec-signzone: in CI (`CI=true`) this throws with the command that installs it;
 * elsewhere the recorded zones are served, and `extraRecords` (which would need signing) throw.
 */
export function buildDnssecLab(options: DnssecLabOptions = {}): Promise<DnssecLab> {
  const key = JSON.stringify(options.extraRecords ?? {});
  let lab = built.get(key);
  if (lab === undefined) {
    lab = buildOnce(options);
    built.set(key, lab);
    lab.catch(() => built.delete(key));
  }
  return lab;
}

async function buildOnce(options: DnssecLabOptions): Promise<DnssecLab> {
  if (hasProgram('dnssec-signzone')) return signDnssecLab(options);
  if (process.env.CI === 'true') {
    throw new Error(`the DNSSEC lab needs dnssec-signzone and dnssec-keygen: ${INSTALL}`);
  }
  if (Object.keys(options.extraRecords ?? {}).length > 0) {
    throw new Error(`extra records must be signed, which needs dnssec-signzone: ${INSTALL}`);
  }
  return recordedDnssecLab();
}
