// The lab configurations the scanner's (version, suite) sets are compared on, the peers that
// report the same sets (`openssl ciphers -V`, `sslscan --xml`, `testssl.sh --jsonfile`), and
// their recordings under test/fixtures/tls-peers/ for developers without the peers. Shared by
// tls-scan-peers.test.ts and scripts/record-tls-peers.ts, which writes the recordings.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  type IssuedCertificate,
  type LabTlsServer,
  type NodeTlsServerOptions,
  type ScriptedTlsOptions,
  hasProgram,
  startNodeTlsServer,
  startOpensslServer,
  startScriptedTlsServer,
} from '@rfckit/testlab';
import { suiteByCode, suiteByName } from '@rfckit/standards';
import { LAB_TLS_HOST } from './tls-lab.ts';

const run = promisify(execFile);

export type Version = 'SSLv2' | 'SSLv3' | 'TLSv1.0' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
export type Peer = 'sslscan' | 'testssl';

/** `TLSv1.2 0xC02F`, `SSLv2 0x010080` … */
export function suiteEntry(version: string, code: number): string {
  return `${version} 0x${code
    .toString(16)
    .toUpperCase()
    .padStart(version === 'SSLv2' ? 6 : 4, '0')}`;
}

/** How the lab server is started: plain data, so a recording can tell it was made on the same server. */
export type LabServerSpec =
  | { kind: 'node'; options: Omit<NodeTlsServerOptions, 'certificate' | 'host'> }
  | { kind: 'openssl'; args: string[]; dhparam1024?: boolean }
  | { kind: 'scripted'; options: Omit<ScriptedTlsOptions, 'certificate'> };

/** A suite set a peer does not report, with why (the test asserts the scanner does report them). */
export interface Disagreement {
  entries: string[];
  reason: string;
}

export interface LabConfig {
  /** File name of its recording. */
  id: string;
  name: string;
  certificate: 'rsa' | 'ecdsa';
  server: LabServerSpec;
  /** Versions it serves, SSL 2.0 aside. */
  versions: Exclude<Version, 'SSLv2'>[];
  /** OpenSSL cipher string of TLS 1.2 and below, as given to the server (no oracle when absent and scripted). */
  ciphers?: string;
  ciphersuites?: string;
  preference?: 'server' | 'client';
  disagreements?: Partial<Record<Peer, Disagreement>>;
}

const rsaAead =
  'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:AES128-GCM-SHA256';
const ecdsaMix =
  'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-SHA384:ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-CHACHA20-POLY1305';
const cbcSha1 =
  'AES128-SHA:AES256-SHA:ECDHE-RSA-AES128-SHA:AES128-SHA256:ECDHE-RSA-AES256-GCM-SHA384:@SECLEVEL=0';
const camelliaAria = 'CAMELLIA128-SHA:CAMELLIA256-SHA256:ARIA256-GCM-SHA384:ECDHE-ARIA128-GCM-SHA256';
const clientChooses = 'AES256-SHA:AES128-SHA:ECDHE-RSA-AES128-GCM-SHA256';
const dhe1024 = 'DHE-RSA-AES128-SHA:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305:@SECLEVEL=0';
const legacyOnly = 'AES128-SHA:ECDHE-RSA-AES256-SHA:DHE-RSA-AES128-SHA:@SECLEVEL=0';

export const labConfigs: LabConfig[] = [
  {
    id: 'node-tls12-tls13-rsa-aead',
    name: 'Node, TLS 1.2 + 1.3, ECDHE-RSA AEAD',
    certificate: 'rsa',
    server: { kind: 'node', options: { minVersion: 'TLSv1.2', ciphers: rsaAead } },
    versions: ['TLSv1.2', 'TLSv1.3'],
    ciphers: rsaAead,
    preference: 'server',
  },
  {
    id: 'node-tls12-ecdsa',
    name: 'Node, TLS 1.2 only, ECDSA certificate',
    certificate: 'ecdsa',
    server: { kind: 'node', options: { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2', ciphers: ecdsaMix } },
    versions: ['TLSv1.2'],
    ciphers: ecdsaMix,
  },
  {
    id: 'node-tls13-two-suites',
    name: 'Node, TLS 1.3 only, two suites',
    certificate: 'rsa',
    server: {
      kind: 'node',
      options: { minVersion: 'TLSv1.3', ciphersuites: 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256' },
    },
    versions: ['TLSv1.3'],
    ciphersuites: 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256',
  },
  {
    id: 'node-tls10-12-cbc-sha1',
    name: 'Node, TLS 1.0-1.2, CBC and SHA-1 suites at security level 0',
    certificate: 'rsa',
    server: { kind: 'node', options: { minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ciphers: cbcSha1 } },
    versions: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
    ciphers: cbcSha1,
    preference: 'server',
  },
  {
    id: 'node-tls12-camellia-aria',
    name: 'Node, TLS 1.2, Camellia and ARIA',
    certificate: 'rsa',
    server: { kind: 'node', options: { maxVersion: 'TLSv1.2', ciphers: camelliaAria } },
    versions: ['TLSv1.2'],
    ciphers: camelliaAria,
  },
  {
    id: 'node-tls12-client-order',
    name: 'Node, TLS 1.2, the client chooses',
    certificate: 'rsa',
    server: {
      kind: 'node',
      options: { maxVersion: 'TLSv1.2', honorCipherOrder: false, ciphers: clientChooses },
    },
    versions: ['TLSv1.2'],
    ciphers: clientChooses,
    preference: 'client',
  },
  {
    id: 'openssl-tls12-dhe1024',
    name: 'openssl s_server, TLS 1.2, DHE with a 1024-bit prime',
    certificate: 'rsa',
    server: { kind: 'openssl', args: ['-tls1_2', '-cipher', dhe1024], dhparam1024: true },
    versions: ['TLSv1.2'],
    ciphers: dhe1024,
  },
  {
    id: 'openssl-tls10-11',
    name: 'openssl s_server, TLS 1.0 and 1.1 only',
    certificate: 'rsa',
    server: { kind: 'openssl', args: ['-no_tls1_2', '-no_tls1_3', '-cipher', legacyOnly] },
    versions: ['TLSv1.0', 'TLSv1.1'],
    ciphers: legacyOnly,
  },
  {
    id: 'openssl-defaults',
    name: 'openssl s_server, TLS 1.2 + 1.3, its defaults',
    certificate: 'rsa',
    server: { kind: 'openssl', args: [] },
    versions: ['TLSv1.2', 'TLSv1.3'],
  },
  {
    id: 'node-tls12-tls13-one-suite-each',
    name: 'Node, TLS 1.3, one suite and TLS 1.2 with one suite',
    certificate: 'rsa',
    server: {
      kind: 'node',
      options: {
        minVersion: 'TLSv1.2',
        ciphers: 'ECDHE-RSA-AES256-GCM-SHA384',
        ciphersuites: 'TLS_AES_128_GCM_SHA256',
      },
    },
    versions: ['TLSv1.2', 'TLSv1.3'],
    ciphers: 'ECDHE-RSA-AES256-GCM-SHA384',
    ciphersuites: 'TLS_AES_128_GCM_SHA256',
  },
  {
    id: 'scripted-ssl2-ssl3-tls10-legacy',
    name: 'scripted SSL 2.0 / SSL 3.0 / TLS 1.0 server with export, NULL, RC4 and anonymous suites',
    certificate: 'rsa',
    server: {
      kind: 'scripted',
      options: {
        versions: ['SSLv3', 'TLSv1.0'],
        suites: [0x0005, 0x0001, 0x0003, 0x0018, 0x0014, 0x000a, 0x002f],
        // SSL_CK_RC4_128_WITH_MD5 and SSL_CK_DES_192_EDE3_CBC_WITH_MD5
        ssl2Kinds: [0x010080, 0x0700c0],
      },
    },
    versions: ['SSLv3', 'TLSv1.0'],
    disagreements: {
      sslscan: {
        entries: [
          'SSLv2 0x010080',
          'SSLv2 0x0700C0',
          'SSLv3 0x0001',
          'SSLv3 0x0003',
          'SSLv3 0x0005',
          'SSLv3 0x000A',
          'SSLv3 0x0014',
          'SSLv3 0x0018',
          'SSLv3 0x002F',
          'TLSv1.0 0x0001',
          'TLSv1.0 0x002F',
        ],
        reason:
          "Debian's sslscan makes its SSL 2.0 and SSL 3.0 hellos through OpenSSL 3, which has neither " +
          'protocol any more (RFC 6176 and RFC 7568 prohibit them), so it sees no SSL 2.0 or SSL 3.0 suite. ' +
          'In TLS 1.0 it offers the suites OpenSSL 3 still has (NULL-MD5 0x0001, AES128-SHA 0x002F) ' +
          'through OpenSSL and counts one only when the whole handshake completes, which this scripted ' +
          'server never does (it answers the first flight only); the suites OpenSSL 3 dropped (RC4, ' +
          'prohibited by RFC 7465; export and anonymous suites; 3DES) it offers in hellos of its own ' +
          'and reads the ServerHello, as the scanner does, so those it reports like us.',
      },
    },
  },
];

/** The OpenSSL release behind a server whose suite set follows that release's defaults. */
function serverOpenssl(config: LabConfig): string | undefined {
  if (config.server.kind !== 'openssl' || config.ciphers !== undefined) return undefined;
  return /OpenSSL (\d+\.\d+)/.exec(execFileSync('openssl', ['version'], { encoding: 'utf8' }))?.[1];
}

/** Everything a configuration's suite set depends on: a recording made with other parameters is stale. */
export function configParameters(config: LabConfig): Record<string, unknown> {
  const opensslRelease = hasProgram('openssl') ? serverOpenssl(config) : undefined;
  return {
    certificate: config.certificate,
    server: config.server,
    versions: config.versions,
    ...(opensslRelease === undefined ? {} : { opensslRelease }),
  };
}

export interface LabCertificates {
  rsa: IssuedCertificate;
  ecdsa: IssuedCertificate;
}

export function startLabConfig(
  config: LabConfig,
  certificates: LabCertificates,
  dhparam1024File: string,
): Promise<LabTlsServer> {
  const certificate = certificates[config.certificate];
  const server = config.server;
  switch (server.kind) {
    case 'node':
      return startNodeTlsServer({ ...server.options, certificate });
    case 'openssl':
      return startOpensslServer({
        certificate,
        args: [...server.args, ...(server.dhparam1024 === true ? ['-dhparam', dhparam1024File] : [])],
      });
    case 'scripted':
      return startScriptedTlsServer({ ...server.options, certificate });
  }
}

const opensslFlag: Record<Exclude<Version, 'SSLv2'>, string> = {
  SSLv3: '-ssl3',
  'TLSv1.0': '-tls1',
  'TLSv1.1': '-tls1_1',
  'TLSv1.2': '-tls1_2',
  'TLSv1.3': '-tls1_3',
};

/** `openssl ciphers -V -s -tls1_2 STRING`: the suites OpenSSL serves for that string in that version. */
export async function suitesOfCipherString(config: LabConfig): Promise<Set<string>> {
  const set = new Set<string>();
  const authentication = config.certificate === 'ecdsa' ? 'ECDSA' : 'RSA';
  for (const version of config.versions) {
    if (version === 'TLSv1.3') {
      for (const name of (
        config.ciphersuites ?? 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256'
      ).split(':')) {
        const suite = suiteByName(name);
        if (suite) set.add(suiteEntry(version, suite.code));
      }
      continue;
    }
    const { stdout } = await run('openssl', [
      'ciphers',
      '-V',
      '-s',
      opensslFlag[version],
      config.ciphers ?? 'DEFAULT',
    ]);
    for (const match of stdout.matchAll(/0x([0-9A-F]{2}),0x([0-9A-F]{2}) - (\S+)/g)) {
      const code = Number.parseInt(`${match[1]}${match[2]}`, 16);
      // a server serves only the suites its certificate can authenticate (and PSK/SRP need secrets it lacks)
      if (code >> 8 !== 0x13 && suiteByCode(code)?.authentication === authentication)
        set.add(suiteEntry(version, code));
    }
  }
  return set;
}

export const testsslProgram = ['testssl', 'testssl.sh'].find((name) => hasProgram(name));
export const peerInstalled: Record<Peer, boolean> = {
  sslscan: hasProgram('sslscan'),
  testssl: testsslProgram !== undefined,
};

export async function suitesFromSslscan(port: number): Promise<Set<string>> {
  const { stdout } = await run(
    'sslscan',
    [
      '--xml=-',
      '--no-colour',
      '--no-heartbleed',
      '--no-renegotiation',
      '--no-compression',
      '--no-fallback',
      '--no-groups',
      '--no-check-certificate',
      `--sni-name=${LAB_TLS_HOST}`,
      `127.0.0.1:${port}`,
    ],
    { timeout: 60_000 },
  );
  const set = new Set<string>();
  for (const match of stdout.matchAll(/<cipher [^>]*sslversion="([^"]+)"[^>]*id="0x([0-9A-F]+)"/g))
    set.add(suiteEntry(match[1] ?? '', Number.parseInt(match[2] ?? '', 16)));
  return set;
}

const testsslVersions: Record<string, Version> = {
  ssl2: 'SSLv2',
  ssl3: 'SSLv3',
  tls1: 'TLSv1.0',
  tls1_1: 'TLSv1.1',
  tls1_2: 'TLSv1.2',
  tls1_3: 'TLSv1.3',
};

/**
 * The findings of testssl.sh's run of `checks` (`-E`, `-S`) on a lab port, through its own
 * sockets (`--ssl-native` would hand the offers to OpenSSL 3, which cannot make SSL 2.0, SSL 3.0,
 * export or NULL hellos), no DNS (the target is an address), no warnings prompt.
 */
export async function testsslFindings(
  port: number,
  checks: readonly string[],
): Promise<{ id: string; finding: string }[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rfckit-testssl-'));
  const file = path.join(dir, 'out.json');
  try {
    await run(
      testsslProgram ?? 'testssl',
      [
        '--quiet',
        '--warnings',
        'off',
        '--color',
        '0',
        '--nodns',
        'none',
        '--connect-timeout',
        '10',
        '--openssl-timeout',
        '10',
        ...checks,
        '--jsonfile',
        file,
        `127.0.0.1:${port}`,
      ],
      { timeout: 240_000 },
      // testssl.sh exits non-zero when it finds problems (a weak key); its JSON is written all the same
    ).catch((error: unknown) => {
      if (!existsSync(file)) throw error;
    });
    return JSON.parse(readFileSync(file, 'utf8')) as { id: string; finding: string }[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** testssl.sh's narrowest run that lists every suite per protocol: `-E` alone. About 15 s a server. */
export async function suitesFromTestssl(port: number): Promise<Set<string>> {
  const set = new Set<string>();
  for (const finding of await testsslFindings(port, ['-E'])) {
    const match = /^cipher-(ssl2|ssl3|tls1(?:_\d)?)_x([0-9a-f]+)$/.exec(finding.id);
    if (match && !/not offered/.test(finding.finding))
      set.add(suiteEntry(testsslVersions[match[1] ?? ''] ?? '', Number.parseInt(match[2] ?? '', 16)));
  }
  return set;
}

export const peerSuites: Record<Peer, (port: number) => Promise<Set<string>>> = {
  sslscan: suitesFromSslscan,
  testssl: suitesFromTestssl,
};

/** What a peer reported on one configuration, and with what it was made. */
export interface PeerRecording {
  parameters: Record<string, unknown>;
  recordedWith: Partial<Record<Peer, string>>;
  suites: Partial<Record<Peer, string[]>>;
}

export const recordingsDir = path.resolve(import.meta.dirname, '../fixtures/tls-peers');

export function recordingFile(config: LabConfig): string {
  return path.join(recordingsDir, `${config.id}.json`);
}

export function readRecording(config: LabConfig): PeerRecording | undefined {
  try {
    return JSON.parse(readFileSync(recordingFile(config), 'utf8')) as PeerRecording;
  } catch {
    return undefined;
  }
}

/** The peer's version line, kept with a recording. */
export function peerVersion(peer: Peer): string {
  const output =
    peer === 'sslscan'
      ? execFileSync('sslscan', ['--version'], { encoding: 'utf8' })
      : execFileSync(testsslProgram ?? 'testssl', ['--version'], { encoding: 'utf8' });
  return /(\d+\.\d+\.\d+)/.exec(output)?.[1] ?? 'unknown';
}

/** A gate letting at most `limit` pieces of work run at once (the CI machine has two cores). */
export function limited<R>(limit: number): (work: () => Promise<R>) => Promise<R> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await work();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
